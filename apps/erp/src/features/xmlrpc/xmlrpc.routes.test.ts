/** XML-RPC on the wire: Odoo 15's bytes, value mapping and fault codes, and hostile bodies refused. */
import { describe, expect, it } from 'vitest';

import { useErpHost } from '../../../test/support/erp-host.js';
import { encodeCall, parseResponse } from '../../../test/support/xmlrpc-wire.js';

const host = useErpHost('xw');

const post = (url: string, payload: string | Buffer, contentType = 'text/xml') =>
  host.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
const call = async (service: string, method: string, params: unknown[], path = `/xmlrpc/2/${service}`) => {
  const res = await post(path, encodeCall(method, params));
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
  return parseResponse(res.body);
};
const kw = (model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
  call('object', 'execute_kw', ['xw', 2, 'pw', model, method, args, kwargs]);

describe('XML-RPC services', () => {
  it('common.version answers the exact bytes Python xmlrpc.client writes for Odoo 15', async () => {
    const res = await post('/xmlrpc/2/common', encodeCall('version', []));
    expect(res.body).toBe(
      "<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n" +
        '<member>\n<name>server_version</name>\n<value><string>15.0</string></value>\n</member>\n' +
        '<member>\n<name>server_version_info</name>\n<value><array><data>\n<value><int>15</int></value>\n<value><int>0</int></value>\n' +
        '<value><int>0</int></value>\n<value><string>final</string></value>\n<value><int>0</int></value>\n<value><string></string></value>\n' +
        '</data></array></value>\n</member>\n' +
        '<member>\n<name>server_serie</name>\n<value><string>15.0</string></value>\n</member>\n' +
        '<member>\n<name>protocol_version</name>\n<value><int>1</int></value>\n</member>\n' +
        '</struct></value>\n</param>\n</params>\n</methodResponse>\n',
    );
  });

  it('common.authenticate with user_agent_env gives the uid, false for a wrong password; login without it', async () => {
    expect(await call('common', 'authenticate', ['xw', 'admin', 'pw', {}])).toEqual({ value: 2 });
    expect(await call('common', 'authenticate', ['xw', 'admin', 'bad', { base_location: 'http://x' }])).toEqual({
      value: false,
    });
    expect(await call('common', 'login', ['xw', 'admin', 'pw'])).toEqual({ value: 2 });
    const missing = await call('common', 'authenticate', ['xw', 'admin', 'pw']);
    expect(missing.fault).toMatchObject({
      faultCode: 1,
      faultString: expect.stringContaining("missing 1 required positional argument: 'user_agent_env'"),
    });
  });

  it('db.list and db.server_version', async () => {
    expect((await call('db', 'list', [])).value).toContain('xw');
    expect(await call('db', 'server_version', [])).toEqual({ value: '15.0' });
  });

  it('maps values both ways: false for empty, many2one [id, name], escaped text, dates as strings', async () => {
    const id = (await kw('res.partner', 'create', [{ name: 'Ann <&> "Shades"', email: false }])).value as number;
    const [row] = (await kw('res.partner', 'read', [[id], ['name', 'email', 'parent_id', 'create_date', 'child_ids']]))
      .value as any[];
    expect(row).toEqual({
      id,
      name: 'Ann <&> "Shades"',
      email: false,
      parent_id: false,
      create_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      child_ids: [],
    });
    const lead = (await kw('crm.lead', 'create', [{ name: 'Blinds', partner_id: id }])).value as number;
    const [l] = (await kw('crm.lead', 'read', [[lead], ['partner_id']])).value as any[];
    expect(l.partner_id).toEqual([id, 'Ann <&> "Shades"']);
  });

  it('refuses a None result as Odoo does (allow_none=False): fault 1, "cannot marshal None"', async () => {
    const r = await kw('ir.sequence', 'next_by_code', ['no.such.code']);
    // next_by_code answers False (not None) for an unknown code; a method answering None faults.
    expect(r).toEqual({ value: false });
    const vendor = (await kw('res.partner', 'create', [{ name: 'Vendor' }])).value as number;
    const po = (await kw('purchase.order', 'create', [{ partner_id: vendor }])).value as number;
    // purchase.order.button_cancel returns None in Odoo 15: XML-RPC cannot marshal it.
    expect((await kw('purchase.order', 'button_cancel', [[po]])).fault).toEqual({
      faultCode: 1,
      faultString: expect.stringMatching(
        /^Traceback[\s\S]*\nTypeError: cannot marshal None unless allow_none is enabled\n$/,
      ),
    });
    // ... after the method ran (Odoo marshals the result after commit).
    expect(((await kw('purchase.order', 'read', [[po], ['state']])).value as any[])[0].state).toBe('cancel');
  });
});

describe('XML-RPC faults carry Odoo 15 codes and strings', () => {
  it('AccessDenied 3, AccessError 4, UserError/ValidationError/MissingError 2, anything else 1 with a traceback', async () => {
    const denied = await call('object', 'execute_kw', ['xw', 2, 'wrong', 'res.partner', 'search', [[]]]);
    expect(denied.fault).toEqual({ faultCode: 3, faultString: 'Access Denied' });
    expect((await kw('res.partner', '_private_thing', [])).fault).toMatchObject({
      faultCode: 4,
      faultString: expect.stringContaining('Private methods'),
    });
    expect((await kw('no.model', 'search', [[]])).fault).toEqual({
      faultCode: 2,
      faultString: "Object no.model doesn't exist",
    });
    expect((await kw('crm.lead', 'create', [{ email_from: 'x@example.com' }])).fault).toMatchObject({
      faultCode: 2,
      faultString: expect.stringContaining('mandatory field is not set'),
    });
    expect((await kw('res.partner', 'write', [[987654], { name: 'x' }])).fault).toMatchObject({
      faultCode: 2,
      faultString: expect.stringContaining('Record does not exist'),
    });
    const bad = (await kw('res.partner', 'search', [[['nope', '=', 1]]])).fault;
    expect(bad).toMatchObject({
      faultCode: 1,
      faultString: expect.stringMatching(/^Traceback \(most recent call last\):\n[\s\S]*ValueError: /),
    });
    expect((await call('nosuch', 'x', [])).fault).toMatchObject({
      faultCode: 1,
      faultString: expect.stringContaining('NameError'),
    });
  });

  it('the legacy /xmlrpc/<service> answers string fault codes', async () => {
    const denied = await call(
      'object',
      'execute_kw',
      ['xw', 2, 'wrong', 'res.partner', 'search', [[]]],
      '/xmlrpc/object',
    );
    expect(denied.fault).toEqual({ faultCode: 'AccessDenied', faultString: 'Access Denied' });
    const user = await call('object', 'execute_kw', ['xw', 2, 'pw', 'no.model', 'search', [[]]], '/xmlrpc/object');
    expect(user.fault).toEqual({ faultCode: "warning -- UserError\n\nObject no.model doesn't exist", faultString: '' });
    expect(await call('common', 'version', [], '/xmlrpc/common')).toMatchObject({ value: { server_serie: '15.0' } });
  });
});

describe('hostile XML is refused, never expanded', () => {
  const fault = async (body: string | Buffer) => {
    const res = await post('/xmlrpc/2/common', body);
    expect(res.statusCode).toBe(200);
    const parsed = await parseResponse(res.body);
    expect(parsed.fault?.faultCode).toBe(1);
    return String(parsed.fault?.faultString);
  };

  it('entity expansion (billion laughs)', async () => {
    const lol = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
    ].join('');
    const body = `<?xml version="1.0"?><!DOCTYPE m [${lol}]><methodCall><methodName>version</methodName><params><param><value><string>&lol9;</string></value></param></params></methodCall>`;
    expect(await fault(body)).toContain('DTDs and entity declarations are not accepted');
  });

  it('an external entity', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><methodCall><methodName>login</methodName><params><param><value><string>&xxe;</string></value></param></params></methodCall>`;
    const text = await fault(body);
    expect(text).not.toContain('root:');
  });

  it('10,000-deep nesting', async () => {
    const deep = '<value><array><data>'.repeat(10_000) + '</data></array></value>'.repeat(10_000);
    expect(
      await fault(
        `<?xml version="1.0"?><methodCall><methodName>version</methodName><params><param>${deep}</param></params></methodCall>`,
      ),
    ).toContain('nested deeper than');
  });

  it('a 20 MB body gets 413 with a fault', async () => {
    const big = `<?xml version="1.0"?><methodCall><methodName>version</methodName><params><param><value><string>${'a'.repeat(20 * 1024 * 1024)}</string></value></param></params></methodCall>`;
    const res = await post('/xmlrpc/2/common', big);
    expect(res.statusCode).toBe(413);
    expect((await parseResponse(res.body)).fault).toMatchObject({
      faultCode: 1,
      faultString: expect.stringContaining('larger than'),
    });
  });

  it('malformed, empty, non-XML and response-shaped bodies, with or without a content type', async () => {
    expect(await fault('<methodCall><methodName>version</methodName><params>')).toBeTruthy();
    expect(await fault('')).toContain('empty request body');
    expect(await fault('{"jsonrpc":"2.0"}')).toBeTruthy();
    expect(
      await fault(
        "<?xml version='1.0'?><methodResponse><params><param><value><int>1</int></value></param></params></methodResponse>",
      ),
    ).toBeTruthy();
    const res = await host.app.inject({ method: 'POST', url: '/xmlrpc/2/common', payload: encodeCall('version', []) });
    expect((await parseResponse(res.body)).value).toMatchObject({ server_serie: '15.0' });
  });
});
