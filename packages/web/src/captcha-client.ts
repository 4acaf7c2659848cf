/**
 * Loads the reCAPTCHA-v3-compatible script on first need (a form interaction or the popup
 * opening), never on page load, and takes a token at submit time (tokens last 2 minutes).
 */
interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, opts: { action: string }): Promise<string>;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<void> | null = null;

function scriptUrl(src: string, key: string): string {
  if (/[?&]render=/.test(src)) return src;
  return `${src}${src.includes('?') ? '&' : '?'}render=${encodeURIComponent(key)}`;
}

export function loadCaptcha(): Promise<void> {
  if (loading) return loading;
  const { captchaSrc, captchaKey } = document.body.dataset;
  if (!captchaSrc || !captchaKey) return (loading = Promise.resolve());
  loading = new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = scriptUrl(captchaSrc, captchaKey);
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => {
      loading = null;
      s.remove();
      reject(new Error('bot-check script failed to load'));
    };
    document.head.append(s);
  });
  return loading;
}

/** Resolves to '' when no token can be had in time; the backend then answers with a clear error. */
export async function captchaToken(action: string, timeoutMs = 8000): Promise<string> {
  const key = document.body.dataset.captchaKey;
  if (!key) return '';
  const token = loadCaptcha().then(
    () =>
      new Promise<string>((resolve, reject) => {
        const g = window.grecaptcha;
        if (!g) return reject(new Error('grecaptcha missing'));
        g.ready(() => g.execute(key, { action }).then(resolve, reject));
      }),
  );
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve(''), timeoutMs));
  return Promise.race([token, timeout]).catch(() => '');
}
