/**
 * Who is calling: set on the request by the auth guard from a verified access token. Every
 * tenant-scoped route reads the tenant from here (never from the body), so a user can only ever act
 * inside the tenant their token was issued for.
 */
export const ROLES = ['owner', 'admin', 'office', 'technician'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  userId: string;
  tenantId: string;
  role: Role;
  email: string;
  /** The sign-in session (refresh-token family) the token belongs to; tokens minted by tests have none. */
  sessionId?: string;
}
