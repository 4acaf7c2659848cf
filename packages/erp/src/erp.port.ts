/**
 * The only way platform code reaches the ERP. Implemented by the Odoo JSON-RPC adapter
 * (odoo/odoo-erp.adapter.ts), which talks to Odoo 15 in production and to the embedded ERP
 * everywhere else. Values follow Odoo's conventions: `false` for empty, many2one as [id, name],
 * x2many writes as command tuples.
 *
 * Failures are AppErrors: ERP_UNAVAILABLE (network, timeout, HTTP 5xx: retry later),
 * ERP_AUTH_FAILED (AccessDenied: fix credentials), ERP_REJECTED (UserError, ValidationError,
 * AccessError, MissingError...: `details.name` carries Odoo's exception name, `details.message` its text).
 */
export type DomainLeaf = [string, string, unknown];
export type DomainItem = DomainLeaf | '&' | '|' | '!';
export type Domain = DomainItem[];

export type ErpValues = Record<string, unknown>;
export interface ErpRecord {
  id: number;
  [field: string]: unknown;
}

export interface SearchOptions {
  offset?: number;
  limit?: number;
  order?: string;
  context?: Record<string, unknown>;
}

export interface SearchReadOptions extends SearchOptions {
  fields?: string[];
}

export interface ErpVersion {
  serverVersion: string;
  serverSerie: string;
  protocolVersion: number;
}

export interface Erp {
  version(): Promise<ErpVersion>;
  /** Resolves the configured login to a uid (cached by adapters); throws ERP_AUTH_FAILED. */
  authenticate(): Promise<number>;
  create(model: string, values: ErpValues, context?: Record<string, unknown>): Promise<number>;
  write(model: string, ids: number[], values: ErpValues): Promise<boolean>;
  read(model: string, ids: number[], fields?: string[]): Promise<ErpRecord[]>;
  search(model: string, domain: Domain, opts?: SearchOptions): Promise<number[]>;
  searchRead(model: string, domain: Domain, opts?: SearchReadOptions): Promise<ErpRecord[]>;
  searchCount(model: string, domain: Domain, context?: Record<string, unknown>): Promise<number>;
  unlink(model: string, ids: number[]): Promise<boolean>;
  fieldsGet(model: string, attributes?: string[]): Promise<Record<string, Record<string, unknown>>>;
  /** Any other public model method (business actions such as action_confirm). */
  call(model: string, method: string, args: unknown[], kwargs?: Record<string, unknown>): Promise<unknown>;
}
