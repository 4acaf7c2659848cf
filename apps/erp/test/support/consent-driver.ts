/** Drives the consent page the way a browser would: GET the form, POST it back with the CSRF cookie. */
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

export interface ConsentResult {
  status: number;
  /** Where the browser is sent (the client's redirect_uri with code or error). */
  location: string | null;
  html: string;
}

export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[unescape(m[1]!)] = unescape(m[2]!);
  return out;
}

export async function openConsent(
  authorizeUrl: URL | string,
): Promise<{ status: number; location: string | null; html: string; cookie: string | undefined }> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), cookie };
}

export async function submitConsent(
  authorizeUrl: URL | string,
  form: { login: string; password: string; decision?: 'approve' | 'deny' },
  tamper: { dropCookie?: boolean; csrf?: string } = {},
): Promise<ConsentResult> {
  const page = await openConsent(authorizeUrl);
  if (page.status !== 200) return page;
  const fields: Record<string, string> = {
    ...hiddenFields(page.html),
    login: form.login,
    password: form.password,
    decision: form.decision ?? 'approve',
  };
  if (tamper.csrf !== undefined) fields.csrf_token = tamper.csrf;
  const res = await fetch(new URL('/restapi/1.0/common/oauth2/authorize', authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(page.cookie && !tamper.dropCookie ? { cookie: page.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}
