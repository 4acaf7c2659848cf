/** GET /api/tenants/{id}/branches: one branch as the control plane answers it and the office shows it. */
export interface BranchView {
  id: string;
  name: string;
  address: string | null;
  phone: string | null;
  time_zone: string | null;
  /** The ZIP codes it serves; the default branch also takes every ZIP no other branch serves. */
  zip_codes: string[];
  is_default: boolean;
  /** The people limited to it (they see only its leads). */
  member_ids: string[];
}
