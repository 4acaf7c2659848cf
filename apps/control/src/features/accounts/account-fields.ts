/** Fields of account bodies shared by sign-in, invitations, password reset and sign-up (one rule each). */
import { z } from 'zod';

import { MIN_PASSWORD_LENGTH } from './password-hasher.js';

export const emailField = z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters');
export const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(256, 'must be at most 256 characters');
