/** Keeps a sign-in answer of the control plane (an accepted invitation, a sign-up) as the session the field app and the office use. */
import { setSession } from '../field/store.js';
import type { Session } from '../field/types.js';

export type SignInAnswer = Omit<Session, 'expires_at'> & { expires_in: number };

/** Stores the session of the answer and returns its role. */
export async function keepSignIn(r: Response): Promise<string> {
  const a = (await r.json()) as SignInAnswer;
  await setSession({
    access_token: a.access_token,
    refresh_token: a.refresh_token,
    expires_at: Date.now() + a.expires_in * 1000,
    user: a.user,
    tenant: a.tenant,
  });
  return a.user.role;
}
