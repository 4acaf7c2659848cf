/**
 * The LOCAL Google Ads stand-in, for embedded mode and tests only: a node:http server honouring
 * `POST /{version}/customers/{customerId}:uploadClickConversions`. It checks the headers and the shape
 * Google checks, records each accepted upload, and answers like Google: `results[]` aligned with the
 * request (an empty object for a refused row) and `partialFailureError` locating refused rows, e.g. a
 * click id that is not in `knownClickIds` (`UNPARSEABLE_GCLID`, as Google answers an unknown gclid) or a
 * click and time already uploaded (`CLICK_CONVERSION_ALREADY_EXISTS`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalGoogleAdsOptions {
  accessToken: string;
  developerToken: string;
  /** Click ids the stand-in knows; any other is refused row by row. Unset: every click id is known. */
  knownClickIds?: string[];
  host?: string;
  port?: number;
}

export interface RecordedUpload {
  customerId: string;
  loginCustomerId: string | undefined;
  conversions: Record<string, unknown>[];
}

export interface RunningLocalGoogleAds {
  /** Base URL to use as the adapter's `apiUrl`. */
  url: string;
  uploads: RecordedUpload[];
  close(): Promise<void>;
}

const PATH = /^\/v\d+\/customers\/(\d+):uploadClickConversions$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const FAILURE_TYPE = 'type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure';

type Answer = { status: number; body: unknown };

const seenKey = (c: Record<string, unknown>): string =>
  JSON.stringify([c.conversionAction, c.gclid ?? c.gbraid ?? c.wbraid, c.conversionDateTime]);

const requestError = (status: number, grpc: string, key: string, code: string, message: string): Answer => ({
  status,
  body: {
    error: {
      code: status,
      message: 'Request contains an invalid argument.',
      status: grpc,
      details: [{ '@type': FAILURE_TYPE, errors: [{ errorCode: { [key]: code }, message }], requestId: 'local' }],
    },
  },
});

/** The first problem Google would report for row `c`, or null. `seen`: click+time of conversions already recorded. */
function rowProblem(
  c: Record<string, unknown>,
  known: Set<string> | undefined,
  seen: Set<string>,
): [string, string, string] | null {
  const ids = (['gclid', 'gbraid', 'wbraid'] as const).filter((k) => typeof c[k] === 'string' && c[k] !== '');
  if (ids.length !== 1) return ['conversionUploadError', 'ONE_CLICK_ID_REQUIRED', 'Exactly one click id is required.'];
  const id = c[ids[0] as string] as string;
  if (typeof c.conversionAction !== 'string' || !/^customers\/\d+\/conversionActions\/\d+$/.test(c.conversionAction))
    return ['requestError', 'INVALID_RESOURCE_NAME', 'conversionAction is not a resource name.'];
  if (typeof c.conversionDateTime !== 'string' || !DATE_TIME.test(c.conversionDateTime))
    return ['dateError', 'INVALID_FIELD_VALUES_IN_DATE_TIME', 'conversionDateTime is not yyyy-mm-dd hh:mm:ss+hh:mm.'];
  if (typeof c.conversionValue !== 'number' || typeof c.currencyCode !== 'string')
    return ['conversionUploadError', 'INVALID_CONVERSION_VALUE', 'conversionValue and currencyCode are required.'];
  if (known && !known.has(id))
    return ['conversionUploadError', 'UNPARSEABLE_GCLID', 'The click id could not be decoded.'];
  if (seen.has(seenKey(c)))
    return [
      'conversionUploadError',
      'CLICK_CONVERSION_ALREADY_EXISTS',
      'Same click and conversionDateTime as an existing conversion.',
    ];
  return null;
}

function handle(
  req: IncomingMessage,
  raw: string,
  opts: LocalGoogleAdsOptions,
  uploads: RecordedUpload[],
  seen: Set<string>,
): Answer {
  const m = req.method === 'POST' ? PATH.exec(req.url ?? '') : null;
  if (!m) return requestError(404, 'NOT_FOUND', 'requestError', 'RESOURCE_NOT_FOUND', 'No such method.');
  if (req.headers.authorization !== `Bearer ${opts.accessToken}`)
    return requestError(401, 'UNAUTHENTICATED', 'authenticationError', 'OAUTH_TOKEN_INVALID', 'Bad OAuth token.');
  if (req.headers['developer-token'] !== opts.developerToken)
    return requestError(
      401,
      'UNAUTHENTICATED',
      'authenticationError',
      'DEVELOPER_TOKEN_INVALID',
      'Bad developer token.',
    );
  let body: { conversions?: unknown; partialFailure?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    return requestError(400, 'INVALID_ARGUMENT', 'requestError', 'INVALID_INPUT', 'Invalid JSON payload.');
  }
  if (body.partialFailure !== true)
    return requestError(400, 'INVALID_ARGUMENT', 'requestError', 'INVALID_INPUT', 'partialFailure must be true.');
  if (!Array.isArray(body.conversions) || body.conversions.length === 0)
    return requestError(400, 'INVALID_ARGUMENT', 'requestError', 'REQUIRED_FIELD_MISSING', 'conversions is required.');
  const rows = body.conversions as Record<string, unknown>[];
  const known = opts.knownClickIds ? new Set(opts.knownClickIds) : undefined;
  const errors: unknown[] = [];
  const results = rows.map((c, index) => {
    const p = rowProblem(c, known, seen);
    if (!p)
      return {
        gclid: c.gclid,
        gbraid: c.gbraid,
        wbraid: c.wbraid,
        conversionAction: c.conversionAction,
        conversionDateTime: c.conversionDateTime,
      };
    errors.push({
      errorCode: { [p[0]]: p[1] },
      message: p[2],
      location: { fieldPathElements: [{ fieldName: 'conversions', index }] },
    });
    return {};
  });
  const accepted = rows.filter((_, i) => Object.keys(results[i] ?? {}).length > 0);
  for (const c of accepted) seen.add(seenKey(c));
  if (accepted.length > 0) {
    const login = req.headers['login-customer-id'];
    uploads.push({
      customerId: m[1] as string,
      loginCustomerId: typeof login === 'string' ? login : undefined,
      conversions: accepted,
    });
  }
  const out: Record<string, unknown> = { results, jobId: String(uploads.length) };
  if (errors.length > 0)
    out.partialFailureError = {
      code: 3,
      message: `${errors.length} conversion(s) failed.`,
      details: [{ '@type': FAILURE_TYPE, errors, requestId: 'local' }],
    };
  return { status: 200, body: out };
}

export async function startLocalGoogleAds(opts: LocalGoogleAdsOptions): Promise<RunningLocalGoogleAds> {
  const uploads: RecordedUpload[] = [];
  // Google refuses the same click and conversion time twice (CLICK_CONVERSION_ALREADY_EXISTS).
  const seen = new Set<string>();
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a = handle(req, Buffer.concat(chunks).toString('utf8'), opts, uploads, seen);
      res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    uploads,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
