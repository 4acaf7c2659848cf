/** The sign-up's request bodies: the same rules as the tenants API (slug) and accounts (email, password). */
import { z } from 'zod';

import { emailField, newPassword } from '../accounts/account-fields.js';
import { SLUG } from '../tenants/tenants.schemas.js';

export const SLUG_RULE = 'must be 1-48 lower-case letters, digits and inner hyphens';
const slug = z.string().regex(SLUG, SLUG_RULE);
const name = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');

export const signupBody = z.strictObject({
  company_name: name,
  slug,
  owner_name: name,
  email: emailField,
  password: newPassword,
  captcha_token: z.string().max(4000, 'must be at most 4000 characters').optional(),
});
export type SignupInput = z.infer<typeof signupBody>;

export const slugQuery = z.strictObject({ slug: z.string().max(100, 'must be at most 100 characters') });
