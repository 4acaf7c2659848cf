/**
 * Odoo JSON-RPC transport (`POST {url}/jsonrpc`, services common/object/db). It turns every failure
 * into an AppError with one of the three ERP codes, and never lets a credential into an error:
 * known secrets are scrubbed from Odoo's messages, and request arguments are never echoed.
 */
import { AppError, HttpPostError, postText } from '@platform/kernel';

export interface OdooRpcOptions {
  /** Base URL of the Odoo server, e.g. `https://erp.example.com`. */
  url: string;
  timeoutMs?: number;
  /** Values to scrub from any text that ends up in an error (passwords, API keys). */
  secrets?: string[];
}

/** What the caller is doing, for error details (never the arguments: they hold the secret). */
export interface RpcLabel {
  model?: string;
  method?: string;
}

export interface OdooRpcClient {
  /** Resolves to the `result` member, or `null` when Odoo omitted it (the method returned None). */
  call(service: string, method: string, args: unknown[], label?: RpcLabel): Promise<unknown>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const ACCESS_DENIED = 'odoo.exceptions.AccessDenied';

interface RpcErrorBody {
  code?: unknown;
  message?: unknown;
  data?: { name?: unknown; message?: unknown } | null;
}

export function createOdooRpcClient(opts: OdooRpcOptions): OdooRpcClient {
  // Parsed once (a URL that does not parse fails each call as unreachable); node:http rather than
  // fetch: about 0.5 ms less per call (bench:jobs).
  const raw = `${opts.url.replace(/\/+$/, '')}/jsonrpc`;
  const endpoint = URL.canParse(raw) ? new URL(raw) : raw;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secrets = (opts.secrets ?? []).filter((s) => s.length > 0);
  const scrub = (text: string): string => secrets.reduce((t, s) => t.split(s).join('***'), text);
  let nextId = 1;

  return {
    async call(service, method, args, label = {}) {
      const where = {
        service,
        method,
        ...(label.model !== undefined ? { model: label.model } : {}),
        ...(label.method !== undefined ? { modelMethod: label.method } : {}),
      };
      const id = nextId++;
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id });

      let res: { status: number; text: string };
      try {
        res = await postText(endpoint, body, { contentType: 'application/json', timeoutMs });
      } catch (e) {
        if (e instanceof HttpPostError && e.kind === 'read')
          throw new AppError('ERP_UNAVAILABLE', `ERP response could not be read (${errorText(e, scrub)})`, {
            details: where,
          });
        const timedOut = e instanceof HttpPostError && e.kind === 'timeout';
        const reason = timedOut ? `timed out after ${timeoutMs} ms` : `unreachable (${errorText(e, scrub)})`;
        throw new AppError('ERP_UNAVAILABLE', `ERP ${reason}`, { details: { ...where, timedOut } });
      }
      const text = res.text;
      if (res.status >= 500) {
        throw new AppError('ERP_UNAVAILABLE', `ERP answered HTTP ${res.status}`, {
          details: { ...where, httpStatus: res.status },
        });
      }
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        throw new AppError('ERP_UNAVAILABLE', `ERP answered HTTP ${res.status} with a body that is not JSON`, {
          details: { ...where, httpStatus: res.status },
        });
      }
      if (!isObject(envelope) || !('result' in envelope || 'error' in envelope || envelope.jsonrpc === '2.0')) {
        throw new AppError('ERP_UNAVAILABLE', 'ERP answered with a body that is not a JSON-RPC envelope', {
          details: { ...where, httpStatus: res.status },
        });
      }
      if (isObject(envelope.error)) throw mapRpcError(envelope.error as RpcErrorBody, res.status, where, scrub);
      if (res.status !== 200) {
        throw new AppError('ERP_UNAVAILABLE', `ERP answered HTTP ${res.status}`, {
          details: { ...where, httpStatus: res.status },
        });
      }
      // Odoo leaves `result` out when the method returned None; `false` is kept as is.
      return 'result' in envelope ? envelope.result : null;
    },
  };
}

function mapRpcError(
  error: RpcErrorBody,
  httpStatus: number,
  where: Record<string, unknown>,
  scrub: (t: string) => string,
): AppError {
  const code = typeof error.code === 'number' ? error.code : undefined;
  const name = typeof error.data?.name === 'string' ? error.data.name : undefined;
  const odooMessage = scrub(
    typeof error.data?.message === 'string'
      ? error.data.message
      : typeof error.message === 'string'
        ? error.message
        : 'no message',
  );
  // 100: session expired/invalid; 404: no such route or database. Neither is about the request
  // itself, and both can clear up (re-login, configuration fix), so callers retry later.
  if (code === 100 || code === 404 || httpStatus === 404) {
    return new AppError('ERP_UNAVAILABLE', `ERP error ${code ?? httpStatus}: ${odooMessage}`, {
      details: { ...where, httpStatus, code, name, message: odooMessage },
    });
  }
  if (name === ACCESS_DENIED) {
    return new AppError('ERP_AUTH_FAILED', 'ERP refused the credentials (AccessDenied)', {
      details: { ...where, name, message: odooMessage },
    });
  }
  // A database-level failure (connection lost, serialization conflict) is worth a retry.
  if (name !== undefined && name.startsWith('psycopg2.')) {
    return new AppError('ERP_UNAVAILABLE', `ERP database error: ${odooMessage}`, {
      details: { ...where, name, message: odooMessage },
    });
  }
  if (name !== undefined) {
    return new AppError('ERP_REJECTED', `ERP rejected the call: ${odooMessage}`, {
      details: { ...where, name, message: odooMessage },
    });
  }
  return new AppError('ERP_UNAVAILABLE', `ERP error without an exception name: ${odooMessage}`, {
    details: { ...where, httpStatus, code, message: odooMessage },
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function errorText(e: unknown, scrub: (t: string) => string): string {
  const parts: string[] = [];
  if (e instanceof Error) {
    parts.push(e.message);
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof Error) parts.push(cause.message);
    else if (isObject(cause) && typeof cause.code === 'string') parts.push(cause.code);
  } else parts.push(String(e));
  return scrub(parts.join(': '));
}
