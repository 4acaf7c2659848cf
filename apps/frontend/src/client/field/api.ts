/**
 * The control plane through this origin's /api/control: bearer token from the stored session,
 * refreshed once on expiry. Failures are typed so the sync loop can tell "offline, try later" from
 * "the server said no".
 */
import { clearSession, getSession, type Owner, ownerOf, setSession } from './store.js';
import type { Session } from './types.js';

export const BASE = '/api/control';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { code?: string; detail?: string; current?: unknown; [k: string]: unknown },
  ) {
    super(problem.detail ?? `HTTP ${status}`);
  }
}
/** No answer at all (offline, DNS, connection dropped) or a 5xx/503 from a hop: retry later. */
export class OfflineError extends Error {}

interface LoginAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  tenant: Session['tenant'];
  user: Session['user'];
}

const toSession = (a: LoginAnswer): Session => ({
  access_token: a.access_token,
  refresh_token: a.refresh_token,
  expires_at: Date.now() + a.expires_in * 1000,
  user: a.user,
  tenant: a.tenant,
});

async function raw(path: string, init: RequestInit): Promise<Response> {
  let r: Response;
  try {
    r = await fetch(`${BASE}${path}`, init);
  } catch {
    throw new OfflineError('offline');
  }
  if (r.status >= 500 || r.status === 429) throw new OfflineError(`HTTP ${r.status}`);
  return r;
}

async function json<T>(r: Response): Promise<T> {
  const text = await r.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (!r.ok) throw new ApiError(r.status, body as ApiError['problem']);
  return body as T;
}

export async function login(email: string, password: string, tenant: string): Promise<Session> {
  const r = await raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, tenant }),
  });
  const s = toSession(await json<LoginAnswer>(r));
  await setSession(s);
  return s;
}

/**
 * A sign-in handed over from another host: sign-up happens on the platform's host and sends the new
 * owner to the company's own host with `#handoff=<refresh token>` (a fragment: never sent to a server
 * or in a Referer). It is dropped from the address bar and history at once and redeemed by a refresh,
 * which rotates it, so the token that was in the address is dead (and its reuse ends the session).
 */
export async function adoptHandoff(): Promise<void> {
  const m = /^#handoff=([A-Za-z0-9_~.%-]+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const r = await raw('/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: decodeURIComponent(m[1]!) }),
    });
    if (r.ok) await setSession(toSession(await json<LoginAnswer>(r)));
  } catch {
    /* offline or refused: the sign-in form is shown, as for anyone not signed in */
  }
}

let refreshing: Promise<Session | undefined> | undefined;
async function refresh(s: Session): Promise<Session | undefined> {
  return (refreshing ??= (async () => {
    try {
      const r = await raw('/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: s.refresh_token }),
      });
      // Someone else may have signed in on this phone meanwhile: their session is not ours to replace.
      const stillOurs = async () => (await getSession())?.refresh_token === s.refresh_token;
      if (r.status === 401) {
        if (await stillOurs()) await clearSession();
        return undefined;
      }
      const next = toSession(await json<LoginAnswer>(r));
      if (!(await stillOurs())) return undefined;
      await setSession(next);
      return next;
    } finally {
      refreshing = undefined;
    }
  })());
}

export class SignedOutError extends Error {}

type CallInit = RequestInit & { headers?: Record<string, string>; owner?: Owner };

/** The authenticated request behind `call`, `callText` and `callFile`: the response, whatever its status. */
async function authed(path: string, { owner, ...init }: CallInit): Promise<Response> {
  let s = await getSession();
  if (!s || (owner !== undefined && ownerOf(s) !== owner)) throw new SignedOutError('signed out');
  if (s.expires_at - Date.now() < 30_000) s = (await refresh(s)) ?? s;
  const go = (sess: Session) =>
    raw(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${sess.access_token}` } });
  let r = await go(s);
  if (r.status === 401) {
    const next = await refresh(s);
    if (!next) throw new SignedOutError('signed out');
    r = await go(next);
    if (r.status === 401) throw new SignedOutError('signed out');
  }
  return r;
}

/**
 * An authenticated call; 401 once → refresh and retry; still 401 → signed out. With `owner`, only
 * as that person: anyone else signed in (or nobody) is "signed out" for this call.
 */
export async function call<T>(path: string, init: CallInit = {}): Promise<T> {
  return json<T>(await authed(path, init));
}

/** An authenticated GET of a text answer (a CSV export); refusals as ApiError, like `call`. */
export async function callText(path: string, init: CallInit = {}): Promise<string> {
  const r = await authed(path, init);
  if (!r.ok) return json<never>(r);
  return r.text();
}

/** An authenticated download (a PDF): its bytes and the name the server gave it; a refusal throws as `call`. */
export async function callFile(path: string, fallbackName: string): Promise<{ blob: Blob; filename: string }> {
  const r = await authed(path, {});
  if (!r.ok) return json<never>(r);
  const named = /filename="([^"]+)"/.exec(r.headers.get('content-disposition') ?? '');
  return { blob: await r.blob(), filename: named?.[1] ?? fallbackName };
}

export const postJson = <T>(path: string, body: unknown, headers: Record<string, string> = {}, owner?: Owner) =>
  call<T>(path, {
    method: 'POST',
    owner,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
