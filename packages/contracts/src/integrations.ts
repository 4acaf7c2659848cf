/**
 * A tenant's integrations as the control plane answers them (`/api/tenants/{id}/integrations`) and
 * the console's Integrations screen reads them: each one's state, never a secret (masked keys show
 * their last four characters at most; the chat webhook URL, itself the credential, only its origin).
 */
export type AccountingState = 'not_configured' | 'disconnected' | 'connecting' | 'connected' | 'needs_reconnect';

export interface SmsLineView {
  id: string;
  name: string;
  phone_number: string;
  type: 'sales' | 'support' | 'operations';
  is_default: boolean;
}

export interface ChatFlags {
  enable_fsm: boolean;
  enable_sales: boolean;
  enable_invoice: boolean;
  enable_po: boolean;
}

export interface IntegrationsView {
  accounting: {
    state: AccountingState;
    /** The connection's own name (as configured), and the provider's organisation once connected. */
    name: string | null;
    organisation: string | null;
    /** The latest invoice sent or payment registered. */
    last_sync_at: string | null;
    /** Why it is not connected, or what the provider refused last. */
    last_error: string | null;
    /** Open "needs attention" items (contacts, taxes, totals the sync could not settle). */
    needs_attention: number;
  };
  sms: {
    configured: boolean;
    /** `••••` and the last four characters. */
    api_key: string | null;
    /** The ERP host's public origin the provider posts to (kept when the keys are replaced). */
    webhook_base_url: string | null;
    /** The URL to register at the provider for this tenant's notices. */
    webhook_url: string | null;
    lines: SmsLineView[];
  };
  chat: { configured: boolean; webhook_origin: string | null } & ChatFlags;
}

/** The outcome of "Send a test": sent or not, in a sentence. */
export interface IntegrationTestOutcome {
  ok: boolean;
  detail: string;
  /** SMS: the queued text, whose status GET …/integrations/sms/messages/{message_id} gives. */
  message_id?: string;
  status?: string;
}

/** One of the accounting provider's tax rates the owner may choose for sales (ACTIVE ones only). */
export interface TaxRateChoice {
  tax_type: string;
  name: string;
  /** Percent (8.25 for 8.25 %). */
  rate: number;
}

/** One ERP sale tax and its provider tax type. */
export interface TaxMappingRow {
  erp_tax_id: number;
  name: string;
  /** Percent. */
  amount: number;
  /** The stored tax type, or null when none is stored yet. */
  tax_type: string | null;
  /** What the rate matching picks: pre-selected when nothing is stored. */
  suggested: string | null;
  /** Why a choice is needed: several active rates of this percent, none, or a stored type no longer active. */
  needs_choice: null | 'ambiguous' | 'unmatched' | 'inactive';
}

/** `GET/PUT /api/tenants/{id}/integrations/accounting/tax-mapping`. */
export interface TaxMappingView {
  taxes: TaxMappingRow[];
  rates: TaxRateChoice[];
  /** Tax type of lines without tax. */
  no_tax_type: string;
}

/** The PUT body: ERP tax id → provider tax type (a tax left out keeps what it has). */
export interface TaxMappingInput {
  tax_types: Record<string, string>;
}
