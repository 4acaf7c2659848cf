/**
 * Amazon SNS message signatures (docs: "Verifying the signatures of Amazon SNS messages"): the
 * string to sign is `Key\nValue\n` over a fixed list of fields, RSA-verified with the certificate
 * at SigningCertURL, SHA1 for SignatureVersion 1 and SHA256 for 2. The certificate URL must be HTTPS
 * on an AWS SNS host (tests configure a loopback host, which may be plain HTTP); certificates are
 * cached by URL. Unexpected topics are refused before any certificate is fetched.
 */
import { createVerify, X509Certificate } from 'node:crypto';

export interface SnsEnvelope {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
}

const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const CONFIRMATION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;

export function snsStringToSign(m: SnsEnvelope): string {
  const fields = m.Type === 'Notification' ? NOTIFICATION_FIELDS : CONFIRMATION_FIELDS;
  let s = '';
  for (const f of fields) {
    const v = (m as unknown as Record<string, unknown>)[f];
    if (v === undefined || v === null) continue; // Subject is optional
    s += `${f}\n${String(v)}\n`;
  }
  return s;
}

export const AWS_SNS_CERT_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

export interface SnsVerifierOptions {
  /** Topics we subscribed to; any other is refused. */
  allowedTopicArns: string[];
  /** Hosts allowed to serve the signing certificate (default: AWS SNS hosts). */
  certHostPattern?: RegExp;
  /** Tests only: allow plain HTTP for a loopback certificate host. */
  allowLoopback?: boolean;
  fetch?: typeof fetch;
  /** Messages older than this are refused (replay). Default one hour. */
  maxAgeMs?: number;
  now?: () => number;
}

export type SnsRejection =
  'malformed' | 'unexpected_topic' | 'bad_cert_url' | 'cert_unavailable' | 'bad_signature' | 'stale';

export class SnsVerifier {
  private readonly certs = new Map<string, Promise<string>>();
  constructor(private readonly o: SnsVerifierOptions) {}

  /** Returns the verified envelope, or why it was refused. */
  async verify(body: unknown): Promise<{ ok: true; message: SnsEnvelope } | { ok: false; reason: SnsRejection }> {
    const m = parseEnvelope(body);
    if (!m) return { ok: false, reason: 'malformed' };
    if (!this.o.allowedTopicArns.includes(m.TopicArn)) return { ok: false, reason: 'unexpected_topic' };
    if (!this.certUrlAllowed(m.SigningCertURL)) return { ok: false, reason: 'bad_cert_url' };
    const age = (this.o.now ?? Date.now)() - Date.parse(m.Timestamp);
    if (!Number.isFinite(age) || age > (this.o.maxAgeMs ?? 3_600_000)) return { ok: false, reason: 'stale' };
    let cert: string;
    try {
      cert = await this.certificate(m.SigningCertURL);
    } catch {
      return { ok: false, reason: 'cert_unavailable' };
    }
    const algorithm = m.SignatureVersion === '2' ? 'RSA-SHA256' : m.SignatureVersion === '1' ? 'RSA-SHA1' : undefined;
    if (!algorithm) return { ok: false, reason: 'bad_signature' };
    const ok = createVerify(algorithm).update(snsStringToSign(m), 'utf8').verify(cert, m.Signature, 'base64');
    return ok ? { ok: true, message: m } : { ok: false, reason: 'bad_signature' };
  }

  private certUrlAllowed(raw: string): boolean {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return false;
    }
    if (!(this.o.certHostPattern ?? AWS_SNS_CERT_HOST).test(u.hostname) || !u.pathname.endsWith('.pem')) return false;
    const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]';
    return u.protocol === 'https:' || (u.protocol === 'http:' && loopback && this.o.allowLoopback === true);
  }

  private certificate(url: string): Promise<string> {
    let p = this.certs.get(url);
    if (!p) {
      p = (async () => {
        const res = await (this.o.fetch ?? fetch)(url, { signal: AbortSignal.timeout(5_000), redirect: 'error' });
        if (!res.ok) throw new Error(`certificate HTTP ${res.status}`);
        const pem = await res.text();
        const x = new X509Certificate(pem);
        const now = Date.now();
        if (Date.parse(x.validFrom) > now || Date.parse(x.validTo) < now)
          throw new Error('certificate outside its validity');
        return pem;
      })();
      this.certs.set(url, p);
      p.catch(() => this.certs.delete(url));
    }
    return p;
  }
}

function parseEnvelope(body: unknown): SnsEnvelope | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const str = (k: string) => typeof b[k] === 'string';
  if (!['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'].includes(String(b.Type)))
    return undefined;
  for (const k of ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'])
    if (!str(k)) return undefined;
  if (b.Type !== 'Notification' && (!str('SubscribeURL') || !str('Token'))) return undefined;
  return b as unknown as SnsEnvelope;
}
