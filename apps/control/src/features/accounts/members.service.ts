/**
 * Membership of people in tenants: the seam tenancy's provisioning (the owner) and invitations
 * (everyone else) go through. The plan's users/technicians limits are checked in the same
 * transaction as the addition.
 */
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';

import type { Role } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './password-hasher.js';
import { findUserByEmail, insertMembership, insertUser, membershipOf } from './users.repo.js';

export interface NewMember {
  email: string;
  role: Role;
  name?: string;
  /** Set for an owner created with the tenant; invited users choose theirs when they accept. */
  password?: string;
}

export class MembersService {
  constructor(private readonly plans: PlanLimits) {}

  /**
   * Adds the person (creating the account if new) to the tenant with `role`; idempotent: an
   * existing member keeps their role and password. Returns the user id.
   */
  async ensureMember(q: Queryable, tenantId: string, m: NewMember): Promise<{ userId: string; created: boolean }> {
    const email = m.email.trim().toLowerCase();
    const existing = await findUserByEmail(q, email);
    if (existing && (await membershipOf(q, tenantId, existing.id))) return { userId: existing.id, created: false };
    await this.plans.assertCanAddMember(q, tenantId, m.role);
    if (m.password !== undefined && m.password.length < MIN_PASSWORD_LENGTH)
      throw new AppError('VALIDATION_FAILED', 'The password is too short.', {
        fieldIssues: [
          { field: 'password', rule: 'min_length', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` },
        ],
      });
    const userId =
      existing?.id ??
      (await insertUser(q, {
        email,
        name: m.name ?? '',
        passwordHash: m.password === undefined ? null : await hashPassword(m.password),
      }));
    await insertMembership(q, tenantId, userId, m.role);
    return { userId, created: true };
  }

  /** The user id of the tenant's technician with this email, if there is one. */
  async technicianByEmail(q: Queryable, tenantId: string, email: string): Promise<string | undefined> {
    const user = await findUserByEmail(q, email.trim().toLowerCase());
    return user && (await membershipOf(q, tenantId, user.id)) === 'technician' ? user.id : undefined;
  }
}
