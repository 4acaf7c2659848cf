/** Portal links over their life: revoked and expired links, a lost ERP reply on acceptance, tokens kept out of logs. */
import { Writable } from 'node:stream';

import { odooCall } from '@platform/erp-embedded/testing';
import { loggerOptions, redactPathTokens } from '@platform/http-kit';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildControlApp } from '../../control.http-app.js';
import { type CrmSalesKit, startCrmSalesKit, throughDroppingProxy } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';

let k: CrmSalesKit;
const token = 'Q2xvdWQtbGluZW4tbnVyc2VyeS0zMC0xLTQtaW5jaGVz';

const onHost = (tenantId: string) => ({ 'x-tenant-id': tenantId });

beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

describe('customer portal links', () => {
  it('accepts once when the ERP loses the reply to the confirmation', async () => {
    const q = (
      await k.call('POST', '/sales/quotes', k.a.office, {
        customer: { name: 'Noor Haddad', email: 'noor@example.com' },
        lines: [
          {
            product_code: 'shutter',
            room: 'Study',
            width_in: 40,
            drop_in: 60,
            mount: 'inside',
            colour: 'Oak',
            options: [],
          },
        ],
      })
    ).body;
    const link = (await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office)).body.token;
    await throughDroppingProxy(k, k.a, async (proxy) => {
      proxy.dropNext(odooCall('sale.order', 'action_confirm'));
      const body = { name: 'Noor Haddad', signature_png_base64: png() };
      const r = await k.call('POST', `/portal/quotes/${link}/accept`, undefined, body, onHost(k.a.id));
      expect(r.status).toBe(200);
      expect(proxy.dropped).toHaveLength(1);
      expect((await k.a.erp.erp.read('sale.order', [q.sale_order_id], ['state']))[0]!.state).toBe('sale');
      expect((await k.call('POST', `/portal/quotes/${link}/accept`, undefined, body, onHost(k.a.id))).body).toEqual(
        r.body,
      );
    });
  });

  it('answers the same 404 once the link is revoked or expired', async () => {
    const fresh = (
      await k.call('POST', '/sales/quotes', k.a.office, {
        customer: { name: 'Sam Ortiz' },
        lines: [
          {
            product_code: 'roller-shade',
            room: 'Hall',
            width_in: 24,
            drop_in: 36,
            mount: 'inside',
            colour: 'Sand',
            options: [],
          },
        ],
      })
    ).body;
    const t1 = (await k.call('POST', `/sales/quotes/${fresh.id}/send`, k.a.office)).body.token;
    const t2 = (await k.call('POST', `/sales/quotes/${fresh.id}/send`, k.a.office)).body.token;
    expect((await k.call('GET', `/portal/quotes/${t1}`, undefined, undefined, onHost(k.a.id))).status).toBe(200);
    await k.kit.t.db.query(`UPDATE portal_tokens SET expires_at = now() - interval '1 second' WHERE quote_id = $1`, [
      fresh.id,
    ]);
    expect((await k.call('GET', `/portal/quotes/${t1}`, undefined, undefined, onHost(k.a.id))).body.code).toBe(
      'PORTAL_LINK_INVALID',
    );
    await k.kit.t.db.query(`UPDATE portal_tokens SET expires_at = now() + interval '1 day' WHERE quote_id = $1`, [
      fresh.id,
    ]);
    expect((await k.call('POST', `/sales/quotes/${fresh.id}/revoke-links`, k.a.office)).body).toEqual({ revoked: 2 });
    for (const t of [t1, t2])
      expect((await k.call('GET', `/portal/quotes/${t}`, undefined, undefined, onHost(k.a.id))).body.code).toBe(
        'PORTAL_LINK_INVALID',
      );
  });

  it('keeps tokens out of the request log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino(loggerOptions('info', 'control'), sink) as unknown as FastifyBaseLogger;
    const app = await buildControlApp(k.kit.deps, { logger, bodyLimit: 262_144, trustProxy: false });
    try {
      const r = await app.inject({ url: `/portal/quotes/${token}`, headers: onHost(k.a.id) });
      expect(r.statusCode).toBe(404);
      const log = lines.join('');
      expect(log).toContain('/portal/quotes/[redacted]');
      expect(log).not.toContain(token);
    } finally {
      await app.close();
    }
    expect(redactPathTokens(`/portal/quote/${token}/x`)).toBe('/portal/quote/[redacted]/x');
    // The appointment page's links (job messages) too, on both hosts.
    expect(redactPathTokens(`/portal/appointment/${token}`)).toBe('/portal/appointment/[redacted]');
    expect(redactPathTokens(`/portal/appointments/${token}/appointment.ics`)).toBe(
      '/portal/appointments/[redacted]/appointment.ics',
    );
  });
});
