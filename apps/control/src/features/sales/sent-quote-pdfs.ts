/**
 * The object-store key of the PDF each quote was first sent as (sales_quotes.sent_pdf_key): the
 * sales feature owns the row, the documents feature renders and stores the file (docs/documents.md).
 */
import { type Db, withTenant } from '@platform/db';

import * as repo from './quotes.repo.js';
import { notFound } from './quotes.service.js';

export class SentQuotePdfs {
  constructor(private readonly db: Db) {}

  /** The key, or null while the quote has not been sent; NOT_FOUND for no such quote of the tenant. */
  async key(tenantId: string, quoteId: string): Promise<string | null> {
    const key = await withTenant(this.db, tenantId, (tx) => repo.sentPdfKey(tx, tenantId, quoteId));
    if (key === undefined) throw notFound();
    return key;
  }

  /** Keeps `key` unless another send kept one first; answers the key that is kept. */
  async keep(tenantId: string, quoteId: string, key: string): Promise<string> {
    const kept = await withTenant(this.db, tenantId, (tx) => repo.keepSentPdf(tx, tenantId, quoteId, key));
    if (kept === undefined) throw notFound();
    return kept;
  }
}
