-- An invoice or contact the accounting provider refused (a validation error) is shown to the office on
-- the invoice, like an ambiguous contact, instead of ending in a dead letter nobody reads.
ALTER TABLE accounting_attention DROP CONSTRAINT accounting_attention_kind_check;
ALTER TABLE accounting_attention ADD CONSTRAINT accounting_attention_kind_check
  CHECK (kind IN ('ambiguous_contact', 'unmapped_tax', 'total_mismatch', 'residual_mismatch', 'provider_refused'));
