/**
 * Fuzz suite of the ERP host (fixed seed, bounded runs; FUZZ_SEED/FUZZ_RUNS to explore): /jsonrpc,
 * the REST API, OAuth, the admin integrations API, /acct/* and /sms/webhook/*. Nothing answers 5xx.
 * Outside /jsonrpc every refusal of the platform is problem+json and a NUL or lone surrogate is a 422
 * naming the field; provider protocols keep their own answers (OAuth's {error}, the webhooks' empty
 * 401, HTML pages). /jsonrpc answers Odoo's envelope, a bad string as a ValidationError naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  type Answer,
  anyJson,
  anyString,
  badFields,
  bodyOf,
  encoded,
  expectProblemContract,
  fuzzParams,
  fuzzTimeout,
  queryOf,
} from '@platform/http-kit/testing';
import { accountingConnectionSchema, smsConfigSchema } from '@platform/integrations';
import {
  formatJustCallTimestamp,
  type RunningLocalSms,
  signJustCall,
  signXeroPayload,
  startLocalSms,
} from '@platform/providers/local';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN_PASSWORD, apiKey, ERP_DB, type RestHarness, startRestHarness } from '../test/support/restapi-harness.js';
import { composeErpApp, composeIntegrations } from './deps.js';
import { loadErpConfig } from './erp.config.js';

const WEBHOOK_KEY = 'fuzz-webhook-key-0123456789abcdef';
const SMS_SECRET = 'fuzz-sms-secret-0123456789';
const LIMIT = 1024 * 1024;
let h: RestHarness;
let app: FastifyInstance;
let dir: string;
let key: string;
let uid: number;
// The SMS provider: a webhook is a notice, its message is read back from the provider by id.
let smsProvider: RunningLocalSms;

beforeAll(async () => {
  // Thousands of requests on one key: the per-key limit would otherwise answer most of them 429.
  h = await startRestHarness({ rateLimit: { max: 1_000_000, windowSeconds: 60 } });
  dir = mkdtempSync(join(tmpdir(), 'erp-fuzz-'));
  const verify = async (login: string, password: string) =>
    (await h.embedded.authenticate(ERP_DB, login, password)) !== false;
  smsProvider = await startLocalSms({
    apiKey: 'fuzz-key',
    apiSecret: SMS_SECRET,
    webhookSecret: SMS_SECRET,
    host: '127.0.0.1',
    port: 0,
  });
  const integrations = composeIntegrations(
    loadErpConfig({ DATA_DIR: dir, ACCT_ADMIN_LOGINS: 'admin', SMS_API_URL: smsProvider.url }),
    h.t.db,
    h.tenantId,
    {
      hostVerify: verify,
      embeddedVerify: async (db, login, password) => (await h.embedded.authenticate(db, login, password)) !== false,
    },
  );
  app = composeErpApp({ erp: h.embedded, restapi: h.deps, integrations });
  await app.ready();
  key = (
    await apiKey(
      h,
      'read:res.partner write:res.partner read:crm.lead write:crm.lead method:crm.lead.action_set_won admin:integrations',
    )
  ).key;
  uid = (await h.embedded.authenticate(ERP_DB, 'admin', ADMIN_PASSWORD)) as number;
  await integrations.settings.setAccountingConnection(
    h.tenantId,
    accountingConnectionSchema.parse({
      name: 'Fuzz',
      client_id: 'CLIENTID-FUZZ-1',
      client_secret: 'client-secret-fuzz',
      redirect_uri: 'https://erp.example.com/acct/callback',
      webhook_key: WEBHOOK_KEY,
    }),
  );
  await integrations.settings.setSmsConfig(
    h.tenantId,
    smsConfigSchema.parse({ api_key: 'fuzz-key', api_secret: SMS_SECRET, webhook_base_url: 'https://erp.example.com' }),
  );
}, 180_000);
afterAll(async () => {
  await app?.close();
  await h?.close();
  await smsProvider?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const answer = (r: { statusCode: number; headers: Answer['headers']; body: string }): Answer => r;
const short = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,29}$/);
const partner = bodyOf({
  name: short,
  email: fc.constantFrom('a@b.co', 'jane@example.com'),
  phone: fc.constantFrom('+1 303 555 0100'),
  comment: fc.string({ maxLength: 40 }),
});
const isHtml = (r: Answer) => String(r.headers['content-type']).startsWith('text/html');

describe('/jsonrpc', () => {
  it(
    "answers every call in Odoo's envelope (HTTP 200), a bad string as a ValidationError naming it, never an unexpected error",
    async () => {
      let results = 0;
      const call = fc
        .oneof(
          fc.tuple(fc.constant('common'), fc.constantFrom('version', 'login', 'authenticate'), fc.constant(null)),
          fc.tuple(
            fc.constant('object'),
            fc.constant('execute_kw'),
            fc.tuple(
              fc.constantFrom('res.partner', 'crm.lead'),
              fc.constantFrom('create', 'write', 'search_read', 'search_count', 'read', 'name_search'),
              partner,
            ),
          ),
          fc.tuple(fc.constant('db'), fc.constantFrom('list', 'server_version'), fc.constant(null)),
        )
        .chain((t): fc.Arbitrary<unknown> => {
          const [service, method, rest] = t as [string, string, unknown];
          if (service !== 'object')
            return fc.constant({ service, method, args: [ERP_DB, 'admin', ADMIN_PASSWORD, {}] });
          const [model, m, vals] = rest as [string, string, Record<string, unknown>];
          const args =
            m === 'create'
              ? [vals]
              : m === 'write'
                ? [[1], vals]
                : m === 'read'
                  ? [[1], Object.keys(vals)]
                  : m === 'name_search'
                    ? [vals['name'] ?? '']
                    : [[['name', 'ilike', vals['name'] ?? '']]];
          return fc.oneof(
            {
              weight: 4,
              arbitrary: fc.constant({
                service,
                method,
                args: [
                  ERP_DB,
                  uid,
                  ADMIN_PASSWORD,
                  model,
                  m,
                  args,
                  m === 'search_read' ? { fields: Object.keys(vals), limit: 5 } : {},
                ],
              }),
            },
            {
              weight: 1,
              arbitrary: fc.record({
                service: fc.constant(service),
                method: fc.constant(method),
                args: fc.array(anyJson, { maxLength: 7 }),
              }),
            },
          );
        });
      const envelope = fc.record({
        jsonrpc: fc.constant('2.0'),
        method: fc.constant('call'),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
        params: call,
      });
      await fc.assert(
        fc.asyncProperty(
          encoded(envelope, LIMIT),
          fc.constantFrom('application/json', 'application/json-rpc'),
          async (b, type) => {
            const contentType = b.contentType?.startsWith('application/json')
              ? b.contentType.replace('application/json', type)
              : b.contentType;
            const r = await app.inject({
              method: 'POST',
              url: '/jsonrpc',
              headers: contentType ? { 'content-type': contentType } : {},
              payload: b.payload,
            });
            const ctx = `${b.kind} -> ${r.statusCode} ${r.body.slice(0, 300)}`;
            expect(r.statusCode, ctx).toBe(200);
            const out = r.json();
            expect(out.jsonrpc, ctx).toBe('2.0');
            if (out.error) expect(out.error.data.name, ctx).not.toBe('builtins.Exception');
            else results++;
            const bad = b.json === undefined ? [] : badFields(b.json);
            if (bad.length) {
              expect(out.error?.data.name, ctx).toBe('odoo.exceptions.ValidationError');
              expect(bad, ctx).toContain(String(out.error.data.message).split(': ')[0]);
            }
          },
        ),
        fuzzParams(200),
      );
      expect(results).toBeGreaterThan(20);
    },
    fuzzTimeout(90_000),
  );
});

describe('REST API and the admin integrations API', () => {
  const routes = fc.oneof(
    fc.constant({ method: 'POST' as const, path: '/restapi/1.0/object/res.partner', body: partner }),
    fc.constant({ method: 'PUT' as const, path: '/restapi/1.0/object/res.partner/1', body: partner }),
    fc.constant({
      method: 'POST' as const,
      path: '/restapi/1.0/object/crm.lead/1/action_set_won',
      body: bodyOf({ args: fc.constant([]), kwargs: fc.constant({}) }),
    }),
    fc.constant({
      method: 'PUT' as const,
      path: '/restapi/1.0/admin/integrations/chat',
      body: bodyOf({
        webhook_url: fc.constant('https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t'),
        enable_fsm: fc.boolean(),
      }),
    }),
    fc.constant({
      method: 'POST' as const,
      path: '/restapi/1.0/admin/integrations/sms/lines',
      body: bodyOf({
        name: short,
        phone_number: fc.constantFrom('(303) 555-0100', '+1 720 555 0123'),
        line_type: fc.constantFrom('sales', 'support'),
      }),
    }),
    fc.constant({
      method: 'POST' as const,
      path: '/restapi/1.0/admin/integrations/sms/messages',
      body: bodyOf({ to: fc.constant('720-555-0123'), body: fc.string({ minLength: 1, maxLength: 60 }) }),
    }),
  );
  it(
    'writes: no 5xx, every refusal problem+json, a bad string a 422 naming the field',
    async () => {
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(
          routes.chain((rt) => fc.tuple(fc.constant(rt), encoded(rt.body, LIMIT), queryOf)),
          async ([rt, b, q]) => {
            const r = await app.inject({
              method: rt.method,
              url: `${rt.path}${q.search}`,
              headers: { 'x-api-key': key, ...(b.contentType ? { 'content-type': b.contentType } : {}) },
              payload: b.payload,
            });
            expectProblemContract(answer(r), {
              ...(b.json === undefined ? {} : { json: b.json }),
              query: q.decoded,
              where: `${rt.method} ${rt.path} ${b.kind}`,
            });
            statuses.add(r.statusCode);
          },
        ),
        fuzzParams(250),
      );
      // The runs reached the ERP (records written) as well as the refusals.
      expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 422]));
    },
    fuzzTimeout(90_000),
  );

  it(
    'reads: fuzzed domain, fields, order, limit and path segments: no 5xx, refusals problem+json',
    async () => {
      const statuses = new Set<number>();
      // Percent-encoded bytes: UTF-8 of any string, or raw bytes that are not UTF-8 at all.
      const pct = (bytes: Uint8Array) => [...bytes].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('');
      const odd = fc.oneof(
        anyString.map((x) => pct(Buffer.from(x))),
        fc.uint8Array({ minLength: 1, maxLength: 6 }).map(pct),
      );
      const segment = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('res.partner', 'crm.lead', 'no.such', 'res.users') },
        { weight: 1, arbitrary: odd },
      );
      const query = fc.record(
        {
          domain: fc.oneof(
            fc
              .tuple(
                fc.constantFrom('name', 'email', 'is_company', 'x'),
                fc.constantFrom('=', 'ilike', 'in', '!=', '=like'),
                anyJson,
              )
              .map((leaf) => JSON.stringify([leaf])),
            anyJson.map((v) => JSON.stringify(v) ?? ''),
            anyString,
          ),
          fields: fc.oneof(fc.constant('name,email'), anyString),
          order: fc.oneof(fc.constant('name asc'), anyString),
          limit: fc.oneof(fc.constant('5'), anyString),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(
          segment,
          fc.option(fc.oneof(fc.constant('1'), odd), { freq: 1 }),
          query,
          async (model, id, q) => {
            const search = new URLSearchParams(q as Record<string, string>).toString();
            const url = `/restapi/1.0/object/${model}${id === null ? '' : `/${id}`}?${search}`;
            const r = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
            // Only the decoded query is compared: a path segment's own bad string is named path.<param>.
            const bad = badFields(Object.fromEntries(new URLSearchParams(search)), ['query']);
            expectProblemContract(answer(r), { where: `GET ${url}` });
            if (bad.length && r.statusCode === 422) expect(r.json().errors[0].field).toMatch(/^(query|path)\./);
            // A string in the domain's JSON is a value like any other: the same 422, under domain.<index>.
            let domain: unknown;
            try {
              domain = JSON.parse(q.domain ?? '');
            } catch {
              domain = undefined;
            }
            const listed = id === null && (model === 'res.partner' || model === 'crm.lead');
            if (!bad.length && listed && Array.isArray(domain) && badFields(domain, ['domain']).length) {
              expect(r.statusCode, `GET ${url} -> ${r.body}`).toBe(422);
            }
            statuses.add(r.statusCode);
          },
        ),
        fuzzParams(250),
      );
      expect([...statuses]).toEqual(expect.arrayContaining([200, 404, 422]));
    },
    fuzzTimeout(90_000),
  );
});

describe('REST domains', () => {
  it.each([
    ['[["name","=","a\\u0000b"]]', 'domain.0.2', 'no_nul_character'],
    ['["|",["name","=","x"],["email","in",["ok","b\\ud800"]]]', 'domain.2.2.1', 'well_formed_unicode'],
  ])('a bad string inside the domain JSON %s is a 422 naming %s', async (domain, field, rule) => {
    const r = await app.inject({
      method: 'GET',
      url: `/restapi/1.0/object/res.partner?domain=${encodeURIComponent(domain)}`,
      headers: { 'x-api-key': key },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toEqual([expect.objectContaining({ field, rule })]);
  });
});

describe('OAuth endpoints', () => {
  const form = fc.dictionary(
    fc.constantFrom(
      'grant_type',
      'code',
      'redirect_uri',
      'client_id',
      'client_secret',
      'refresh_token',
      'token',
      'code_verifier',
      'response_type',
      'scope',
      'state',
      'csrf_token',
      'decision',
      'login',
      'password',
    ),
    anyString,
    { maxKeys: 6 },
  );
  it(
    "no 5xx; a bad string a 422 problem naming the field; otherwise OAuth's own answers",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('authorize', 'access_token', 'token', 'revoke'),
          form,
          fc.constantFrom('form', 'json', 'query'),
          fc.ipV4(),
          async (ep, f, how, remoteAddress) => {
            const base = `/restapi/1.0/common/oauth2/${ep}`;
            const search = new URLSearchParams(f).toString();
            const decoded = Object.fromEntries(new URLSearchParams(search));
            const r =
              how === 'query'
                ? await app.inject({ method: 'GET', url: `${base}?${search}`, remoteAddress })
                : await app.inject({
                    method: 'POST',
                    url: base,
                    remoteAddress,
                    headers: {
                      'content-type': how === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
                    },
                    payload: how === 'form' ? search : JSON.stringify(f),
                  });
            const sent = how === 'query' ? { json: null, query: decoded } : { json: how === 'form' ? decoded : f };
            expectProblemContract(
              answer(r),
              { ...sent, where: `${how} ${base}` },
              { nonProblem: (a) => isHtml(a) || 'error' in JSON.parse(a.body) },
            );
          },
        ),
        fuzzParams(200),
      );
    },
    fuzzTimeout(60_000),
  );
});

describe('accounting and SMS endpoints', () => {
  it(
    '/acct/webhook: a correctly signed body is taken whatever its media type (text/plain too) and charset (UTF-16); no 5xx',
    async () => {
      const body = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'ABCDEFGHIJ' });
      for (const type of [
        'application/json',
        'text/plain',
        'application/json; charset=utf-8',
        'application/octet-stream',
      ]) {
        const r = await app.inject({
          method: 'POST',
          url: '/acct/webhook',
          headers: { 'content-type': type, 'x-xero-signature': signXeroPayload(body, WEBHOOK_KEY) },
          payload: body,
        });
        expect(r.statusCode, type).toBe(200);
      }
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]);
      const r16 = await app.inject({
        method: 'POST',
        url: '/acct/webhook',
        headers: {
          'content-type': 'application/json; charset=utf-16',
          'x-xero-signature': signXeroPayload(utf16, WEBHOOK_KEY),
        },
        payload: utf16,
      });
      expect(r16.statusCode, 'UTF-16 body read as UTF-16').toBe(200);
      const big = await app.inject({
        method: 'POST',
        url: '/acct/webhook',
        headers: { 'content-type': 'application/json' },
        payload: 'x'.repeat(LIMIT + 1),
      });
      expect([big.statusCode, big.headers['content-type']]).toEqual([
        413,
        expect.stringContaining('application/problem+json'),
      ]);
      const events = bodyOf({
        resourceId: fc.uuid(),
        tenantId: fc.uuid(),
        eventCategory: fc.constant('INVOICE'),
        eventType: fc.constant('UPDATE'),
        eventDateUtc: fc.constant('2026-11-25T01:00:00.000'),
        resourceUrl: fc.constant('https://api.xero.com/x'),
      });
      const batch = bodyOf({
        events: fc.array(events, { maxLength: 2 }),
        firstEventSequence: fc.nat(),
        lastEventSequence: fc.nat(),
        entropy: fc.constant('ABCDEFGHIJ'),
      });
      await fc.assert(
        fc.asyncProperty(encoded(batch, LIMIT), fc.boolean(), async (b, signed) => {
          const r = await app.inject({
            method: 'POST',
            url: '/acct/webhook',
            headers: {
              ...(b.contentType ? { 'content-type': b.contentType } : {}),
              ...(signed ? { 'x-xero-signature': signXeroPayload(b.payload, WEBHOOK_KEY) } : {}),
            },
            payload: b.payload,
          });
          expectProblemContract(
            answer(r),
            { ...(b.json === undefined ? {} : { json: b.json }), where: `acct ${b.kind} signed=${signed}` },
            { nonProblem: (a) => a.body === '' && (a.statusCode === 401 || a.statusCode === 400) },
          );
          if (signed && r.statusCode === 401)
            throw new Error(`a correctly signed ${b.kind} body was refused as unsigned`);
        }),
        fuzzParams(150),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    '/sms/webhook/sms (signed and not) and the GET endpoints: no 5xx, bad strings a 422 naming the field',
    async () => {
      const data = bodyOf({
        id: fc.nat(),
        direction: fc.constantFrom('Incoming', 'Outgoing'),
        contact_number: fc.constant('17205550123'),
        justcall_number: fc.constant('13035550100'),
        sms_info: bodyOf({ body: fc.string({ maxLength: 40 }) }),
        delivery_status: fc.constantFrom('delivered', 'failed'),
      });
      const sms = bodyOf({
        type: fc.constantFrom('sms.received', 'sms.delivered', 'sms.sent_received'),
        request_id: fc.uuid(),
        data,
      });
      let taken = 0;
      await fc.assert(
        fc.asyncProperty(encoded(sms, LIMIT), fc.boolean(), async (b, signed) => {
          const ts = formatJustCallTimestamp(new Date());
          const type =
            typeof (b.json as { type?: unknown } | undefined)?.type === 'string'
              ? String((b.json as { type: string }).type)
              : 'sms.received';
          const sig = signJustCall({
            secret: SMS_SECRET,
            webhookUrl: 'https://erp.example.com/sms/webhook/sms',
            type,
            timestamp: ts,
          });
          const r = await app.inject({
            method: 'POST',
            url: '/sms/webhook/sms',
            headers: {
              ...(b.contentType ? { 'content-type': b.contentType } : {}),
              ...(signed ? { 'x-justcall-signature': sig, 'x-justcall-request-timestamp': ts } : {}),
            },
            payload: b.payload,
          });
          expectProblemContract(
            answer(r),
            { ...(b.json === undefined ? {} : { json: b.json }), where: `sms ${b.kind} signed=${signed}` },
            { nonProblem: (a) => 'ok' in JSON.parse(a.body) },
          );
          // Past the signature: handled, or refused because the provider has no such message (a notice is read back by id).
          if (r.statusCode === 200 || (r.statusCode === 400 && /unknown_message|message_mismatch/.test(r.body)))
            taken++;
        }),
        fuzzParams(150),
      );
      // Signed events got through to the service, not only refusals at the door.
      expect(taken).toBeGreaterThan(0);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            '/acct/callback',
            '/acct/callback/',
            '/acct/status',
            '/acct/connect',
            '/sms/webhook/test',
            '/web/health',
            '/restapi/1.0/openapi.json',
            '/nope',
          ),
          queryOf,
          async (path, q) => {
            const r = await app.inject({ method: 'GET', url: `${path}${q.search}` });
            expectProblemContract(
              answer(r),
              { json: null, query: q.decoded, where: `GET ${path}${q.search}` },
              { nonProblem: isHtml },
            );
          },
        ),
        fuzzParams(150),
      );
    },
    fuzzTimeout(60_000),
  );
});
