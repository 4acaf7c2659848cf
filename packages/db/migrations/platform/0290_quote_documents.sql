-- The PDF a quote was sent as (docs/documents.md): rendered once at its first send and stored in the
-- object store, so the portal, the office and the email serve that same document even after the
-- tenant's grids, logo or colours change. NULL until the quote is first sent. RLS stays as it is.
ALTER TABLE sales_quotes ADD COLUMN sent_pdf_key varchar(1024);
