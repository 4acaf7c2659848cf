/**
 * Wire shapes of the owner's console beyond webhooks, shared by the control plane and the office
 * screens: REST API keys (`/api/tenants/{id}/api-keys`), pending invitations
 * (`/api/tenants/{id}/invitations`) and the audit log (`/api/audit`).
 */

/** The scopes the console offers for a key: read and write of the ERP's main business models. */
export const API_KEY_SCOPE_CHOICES = [
  'read:res.partner',
  'write:res.partner',
  'read:crm.lead',
  'write:crm.lead',
  'read:sale.order',
  'write:sale.order',
  'read:product.product',
  'read:account.move',
] as const;

/** Ticked when the form opens: reading everything offered, writing contacts and leads. */
export const DEFAULT_API_KEY_SCOPES: readonly string[] = [
  'read:res.partner',
  'write:res.partner',
  'read:crm.lead',
  'write:crm.lead',
  'read:sale.order',
  'read:product.product',
  'read:account.move',
];

export interface ApiKeyView {
  id: number;
  description: string;
  /** The public part of the key (`erpk_<prefix>_…`): tells keys apart in lists and logs. */
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The answer of create: the only time the key exists in clear outside the caller's hands. */
export interface ApiKeyCreated extends ApiKeyView {
  key: string;
}

export interface PendingInvitationView {
  id: string;
  email: string;
  role: string;
  created_at: string;
  expires_at: string;
  /** Name or email of who sent it, null when that account is gone. */
  invited_by: string | null;
}

export interface AuditEntryView {
  id: number;
  at: string;
  /** `name` is the person's name or email (never an id alone), null for system and portal actors. */
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  /** `name`: a member's name or email when the target is a user, else null. */
  target: { type: string; id: string | null; name: string | null } | null;
  ip: string | null;
  detail: Record<string, unknown>;
}
