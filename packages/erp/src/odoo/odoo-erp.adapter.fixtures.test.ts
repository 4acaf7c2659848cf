import { AppError, type ErrorCode } from '@platform/kernel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  loadOdooFixtures,
  type OdooFixture,
  type OdooFixtureServer,
  startOdooFixtureServer,
} from '../contract/odoo-fixture.server.js';
import { createOdooRpcClient } from './odoo.client.js';
import { createOdooErp, type OdooErpConfig } from './odoo-erp.adapter.js';

const KEY = '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d';
const REVOKED_KEY = 'c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff';
const WRONG_KEY = '0000000000000000000000000000000000000000';

const extra: OdooFixture[] = [
  {
    request: { path: '/proxy-502/jsonrpc', anyBody: true },
    response: { status: 502, text: '<html>502 Bad Gateway</html>' },
  },
  { request: { path: '/html-200/jsonrpc', anyBody: true }, response: { status: 200, text: '<html>Odoo login</html>' } },
  { request: { path: '/health-json/jsonrpc', anyBody: true }, response: { status: 200, body: { status: 'pass' } } },
  {
    request: { path: '/slow/jsonrpc', anyBody: true },
    response: { status: 200, body: { jsonrpc: '2.0', id: 1, result: 2 }, delayMs: 2_000 },
  },
];

let fixtures: Map<string, OdooFixture>;
let server: OdooFixtureServer;
let cfg: OdooErpConfig;

beforeAll(async () => {
  fixtures = await loadOdooFixtures();
  server = await startOdooFixtureServer([...fixtures.values(), ...extra]);
  cfg = { url: server.url, db: 'odoo15', login: 'api-bot@example.com', secret: KEY };
});
afterAll(() => server.close());
afterEach(() => {
  expect(server.unmatched, 'every request the adapter sent has a fixture').toEqual([]);
});

/** The recorded `result` of a fixture, so the assertions do not restate the files. */
const recorded = (name: string): unknown => {
  const body = fixtures.get(name)?.response.body as { result?: unknown } | undefined;
  if (!body) throw new Error(`no fixture ${name}`);
  return body.result;
};

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

function expectNoSecret(e: AppError): void {
  const text = `${e.message} ${JSON.stringify(e.details ?? {})} ${String(e.stack)}`;
  for (const s of [KEY, REVOKED_KEY, WRONG_KEY]) expect(text).not.toContain(s);
}

describe('Odoo adapter against recorded Odoo 15 fixtures: results', () => {
  it('decodes common.version', async () => {
    expect(await createOdooErp(cfg).version()).toEqual({
      serverVersion: '15.0',
      serverSerie: '15.0',
      protocolVersion: 1,
    });
  });

  it('authenticates once and caches the uid', async () => {
    const erp = createOdooErp(cfg);
    expect(await erp.authenticate()).toBe(2);
    const before = server.served.filter((f) => f === 'common-authenticate.json').length;
    await erp.searchCount('res.partner', [['is_company', '=', true]]);
    await erp.authenticate();
    expect(server.served.filter((f) => f === 'common-authenticate.json').length).toBe(before);
  });

  it('decodes search_read with many2one pairs and false for empty values', async () => {
    const rows = await createOdooErp(cfg).searchRead('crm.lead', [['type', '=', 'lead']], {
      fields: ['name', 'email_from', 'stage_id'],
      limit: 5,
      order: 'id desc',
    });
    expect(rows).toEqual(recorded('object-search-read-crm-lead'));
    expect(rows[1]?.email_from).toBe(false);
    expect(rows[0]?.stage_id).toEqual([1, 'New']);
  });

  it('decodes create, read, search, search_count, write, unlink and fields_get', async () => {
    const erp = createOdooErp(cfg);
    expect(await erp.create('res.partner', { name: 'Jane Doe', email: 'jane@example.com', parent_id: 7 })).toBe(42);
    expect(await erp.read('res.partner', [42], ['name', 'email', 'phone', 'parent_id', 'category_id'])).toEqual(
      recorded('object-read-res-partner'),
    );
    expect(
      await erp.search('res.partner', ['|', ['name', 'ilike', 'doe'], ['email', '=like', '%@example.com']], {
        offset: 1,
        limit: 2,
        order: 'name desc, id asc',
      }),
    ).toEqual([42, 40]);
    expect(await erp.searchCount('res.partner', [['is_company', '=', true]])).toBe(3);
    expect(await erp.write('res.partner', [42], { phone: '+1 512 555 0100' })).toBe(true);
    expect(
      await erp.write('crm.lead', [12], {
        tag_ids: [
          [6, 0, [1, 2]],
          [4, 3, 0],
        ],
      }),
    ).toBe(true);
    expect(await erp.unlink('res.partner', [42])).toBe(true);
    expect(await erp.fieldsGet('res.partner', ['type', 'string', 'required'])).toEqual(
      recorded('object-fields-get-res-partner'),
    );
  });

  it('looks up an external id through ir.model.data', async () => {
    const rows = await createOdooErp(cfg).searchRead(
      'ir.model.data',
      [
        ['module', '=', 'base'],
        ['name', '=', 'main_company'],
      ],
      { fields: ['model', 'res_id'], limit: 1 },
    );
    expect(rows).toEqual([{ id: 1, model: 'res.company', res_id: 1 }]);
  });

  it('resolves call() to null when Odoo omits result (the method returned None)', async () => {
    expect(await createOdooErp(cfg).call('stock.picking', 'do_unreserve', [[5]])).toBeNull();
  });
});

describe('Odoo adapter against recorded Odoo 15 fixtures: errors', () => {
  const cases: Array<
    [string, ErrorCode, string | undefined, (erp: ReturnType<typeof createOdooErp>) => Promise<unknown>]
  > = [
    [
      'UserError (unknown model)',
      'ERP_REJECTED',
      'odoo.exceptions.UserError',
      (erp) => erp.search('no.such.model', []),
    ],
    [
      'ValidationError',
      'ERP_REJECTED',
      'odoo.exceptions.ValidationError',
      (erp) => erp.write('res.partner', [42], { parent_id: 42 }),
    ],
    [
      'ValueError (invalid field)',
      'ERP_REJECTED',
      'builtins.ValueError',
      (erp) => erp.create('res.partner', { name: 'X', no_such_field: 1 }),
    ],
    [
      'AccessError (private method)',
      'ERP_REJECTED',
      'odoo.exceptions.AccessError',
      (erp) => erp.call('res.partner', '_compute_display_name', [[42]]),
    ],
    [
      'MissingError',
      'ERP_REJECTED',
      'odoo.exceptions.MissingError',
      (erp) => erp.read('res.partner', [999999], ['name']),
    ],
    [
      'code 100 session error',
      'ERP_UNAVAILABLE',
      'odoo.http.SessionExpiredException',
      (erp) => erp.search('res.partner', [['id', '=', 1]]),
    ],
  ];

  it.each(cases)('maps %s to %s', async (_label, code, name, act) => {
    const e = await failure(act(createOdooErp(cfg)));
    expect(e.code).toBe(code);
    expect(e.details?.name).toBe(name);
    if (code === 'ERP_REJECTED') expect(typeof e.details?.message).toBe('string');
    expectNoSecret(e);
  });

  it('maps authenticate → false to ERP_AUTH_FAILED', async () => {
    const e = await failure(createOdooErp({ ...cfg, secret: WRONG_KEY }).authenticate());
    expect(e.code).toBe('ERP_AUTH_FAILED');
    expectNoSecret(e);
  });

  it('maps the AccessDenied envelope to ERP_AUTH_FAILED and forgets the cached uid', async () => {
    const erp = createOdooErp({ ...cfg, login: 'revoked@example.com', secret: REVOKED_KEY });
    const e = await failure(erp.searchCount('res.partner', []));
    expect(e.code).toBe('ERP_AUTH_FAILED');
    expect(e.details?.name).toBe('odoo.exceptions.AccessDenied');
    expectNoSecret(e);
    const n = server.served.filter((f) => f === 'common-authenticate-revoked.json').length;
    await failure(erp.searchCount('res.partner', []));
    expect(server.served.filter((f) => f === 'common-authenticate-revoked.json').length).toBe(n + 1);
  });

  it('maps HTTP 404 (wrong base URL) to ERP_UNAVAILABLE', async () => {
    const e = await failure(createOdooErp({ ...cfg, url: `${server.url}/not-odoo` }).version());
    expect(e.code).toBe('ERP_UNAVAILABLE');
    expect(e.details?.httpStatus).toBe(404);
  });

  it('maps HTTP 5xx, a non-JSON body, JSON that is no JSON-RPC envelope, a timeout and a closed port to ERP_UNAVAILABLE', async () => {
    for (const url of [`${server.url}/proxy-502`, `${server.url}/html-200`, `${server.url}/health-json`]) {
      expect((await failure(createOdooErp({ ...cfg, url }).version())).code).toBe('ERP_UNAVAILABLE');
    }
    const slow = await failure(createOdooErp({ ...cfg, url: `${server.url}/slow`, timeoutMs: 100 }).authenticate());
    expect(slow.code).toBe('ERP_UNAVAILABLE');
    expect(slow.details?.timedOut).toBe(true);
    expectNoSecret(slow);
    const closed = await failure(createOdooErp({ ...cfg, url: 'http://127.0.0.1:1' }).authenticate());
    expect(closed.code).toBe('ERP_UNAVAILABLE');
    expectNoSecret(closed);
  });
});

describe('Odoo JSON-RPC client', () => {
  it('posts a JSON-RPC 2.0 call envelope to {url}/jsonrpc', async () => {
    const client = createOdooRpcClient({ url: `${server.url}/` });
    expect(await client.call('common', 'version', [])).toMatchObject({ server_serie: '15.0' });
  });

  it('scrubs known secrets from Odoo messages', async () => {
    const echo = await startOdooFixtureServer([
      {
        request: { anyBody: true },
        response: {
          body: {
            jsonrpc: '2.0',
            id: 1,
            error: {
              code: 200,
              message: 'Odoo Server Error',
              data: { name: 'builtins.ValueError', message: `bad value ${KEY}` },
            },
          },
        },
      },
    ]);
    try {
      const e = await failure(createOdooRpcClient({ url: echo.url, secrets: [KEY] }).call('object', 'execute_kw', []));
      expect(e.code).toBe('ERP_REJECTED');
      expect(e.details?.message).toBe('bad value ***');
      expectNoSecret(e);
    } finally {
      await echo.close();
    }
  });
});
