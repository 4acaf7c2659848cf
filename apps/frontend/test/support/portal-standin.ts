/**
 * The contract's portal endpoints for the portal page's tests: GET /portal/quotes/{token},
 * POST .../accept {name, signature_png_base64} (idempotent), POST .../request-changes {note}.
 * A token belongs to one tenant; the host's tenant (x-tenant-id from the frontend) must match,
 * and expired, revoked and unknown tokens answer the same 404 PORTAL_LINK_INVALID.
 */
import { createServer, type Server } from 'node:http';

import type { QuoteLine } from '@platform/contracts/quote.js';

export interface PortalToken {
  tenantId: string;
  expiresAt: number;
  revoked: boolean;
  state: 'sent' | 'sale';
  accepted?: { name: string; signatureBytes: number; times: number };
  notes: string[];
}

export class PortalStandin {
  readonly tokens = new Map<string, PortalToken>();
  server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const m = /^\/portal\/quotes\/([^/]+)(\/accept|\/request-changes)?$/.exec(req.url ?? '');
        const t = m ? this.tokens.get(decodeURIComponent(m[1]!)) : undefined;
        const invalid = () => {
          res.writeHead(404, { 'content-type': 'application/problem+json' });
          res.end(JSON.stringify({ status: 404, code: 'PORTAL_LINK_INVALID', detail: 'This link is not valid.' }));
        };
        if (!m || !t || t.revoked || t.expiresAt < Date.now() || req.headers['x-tenant-id'] !== t.tenantId)
          return invalid();
        const body = raw ? (JSON.parse(raw) as Record<string, string>) : {};
        if (m[2] === '/accept') {
          const bytes = Buffer.from(body.signature_png_base64 ?? '', 'base64');
          if (!body.name || bytes.subarray(1, 4).toString() !== 'PNG') {
            res.writeHead(422, { 'content-type': 'application/problem+json' });
            return res.end(JSON.stringify({ status: 422, code: 'VALIDATION_FAILED' }));
          }
          t.accepted = { name: body.name, signatureBytes: bytes.length, times: (t.accepted?.times ?? 0) + 1 };
          t.state = 'sale';
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ state: 'sale' }));
        }
        if (m[2] === '/request-changes') {
          t.notes.push(body.note ?? '');
          res.writeHead(202, { 'content-type': 'application/json' });
          return res.end('{}');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            quote: {
              name: 'S00042',
              state: t.state,
              // As the control plane answers (PortalQuote): who accepted and when, or null.
              accepted: t.accepted ? { name: t.accepted.name, at: '2026-11-27T12:00:00.000Z' } : null,
              lines: [
                {
                  description: 'Cellular Shade – Living room / 35 1/2" W × 60 1/8" H, inside mount, Ivory',
                  product_code: 'cellular-shade',
                  room: 'Living room',
                  width_in: 35.5,
                  drop_in: 60.125,
                  mount: 'inside',
                  colour: 'Ivory',
                  options: [{ code: 'motorisation', name: 'Motorisation', price: 249 }],
                  quantity: 1,
                  unit_price: 412.5,
                  subtotal: 412.5,
                },
                {
                  description: 'Roller Shade – Bedroom / 48" W × 72 7/8" H, outside mount, Charcoal',
                  product_code: 'roller-shade',
                  room: 'Bedroom',
                  width_in: 48,
                  drop_in: 72.875,
                  mount: 'outside',
                  colour: 'Charcoal',
                  options: [],
                  quantity: 1,
                  unit_price: 289,
                  subtotal: 289,
                },
                {
                  description: 'Plantation Shutter – Office / 30 1/4" W × 54" H, inside mount, White',
                  product_code: 'plantation-shutter',
                  room: 'Office',
                  width_in: 30.25,
                  drop_in: 54,
                  mount: 'inside',
                  colour: 'White',
                  options: [{ code: 'lining', name: 'Lining', price: 40 }],
                  quantity: 1,
                  unit_price: 655,
                  subtotal: 655,
                },
              ] satisfies QuoteLine[],
              amount_untaxed: 1356.5,
              amount_tax: 108.52,
              amount_total: 1465.02,
              deposit: 732.51,
              deposit_state: 'none',
            },
            tenant: { branding: {} },
          }),
        );
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
