/**
 * `npm run bench:payments`: how long a paid deposit takes to become the ERP's confirmed order,
 * posted down-payment invoice and registered payment, and how many an hour the platform records, at
 * BENCH_PAYMENTS (default 50) payments paid at once, beside the same ERP writes made directly
 * (`recordDepositInErp` on as many other orders, all at once) in the same run.
 *
 * The pipeline is the real one: the local Stripe stand-in marks each checkout paid and delivers its
 * signed `checkout.session.completed` to the control plane's `POST /webhooks/payments`, which records
 * it and queues the deposit's ERP job; the control plane's own relay (as control.server.ts runs it)
 * makes the ERP writes. A paid deposit counts when its row says the ERP has it (`erp_recorded_at`);
 * each is then checked in the ERP: one confirmed order, one paid down-payment invoice, one payment.
 * Engine: PostgreSQL when DATABASE_URL is set (a scratch database), else PGlite in memory.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { createLogger } from '@platform/http-kit';
import { startLocalStripe } from '@platform/providers/local';

import { depositMarker, recordDepositInErp } from '../../apps/control/src/features/payments/deposit-erp.js';
import { acceptedQuote as acceptedQuoteOf } from '../../apps/control/src/testing/accepted-quote.js';
import { startCrmSalesKit } from '../../apps/control/src/testing/crm-sales-kit.js';
import { stats } from '../control/control-bench.support.js';

const N = Number(process.env.BENCH_PAYMENTS ?? 50);
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
console.log(`engine: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${N} deposits paid at once, each way`);

const KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WHSEC = `whsec_${randomBytes(16).toString('hex')}`;
const CARD = { number: '4242424242424242', expiry: '12/40', cvc: '123' };
const stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0 });
const k = await startCrmSalesKit({
  LOG_LEVEL: 'silent',
  STRIPE_SECRET_KEY: KEY,
  STRIPE_API_BASE: stripe.url,
  STRIPE_WEBHOOK_SECRET: WHSEC,
  TENANT_PUBLIC_ORIGIN: 'https://{host}',
});
const relay = k.kit.deps.payments.relay(createLogger('silent'), 'bench-relay');
const t = k.a;
const onHost = { 'x-tenant-id': t.id };

/** A three-window quote, sent and accepted on the portal: its order waits for the deposit. */
async function acceptedQuote(i: number) {
  const q = await acceptedQuoteOf(k, t, `Bench Customer ${i}`);
  return { id: q.id, token: q.token, order: q.order, deposit: q.quote.deposit as number };
}

/** What the ERP holds for one deposit: exactly one confirmed order, one paid invoice, one payment. */
async function checkInErp(order: number, quoteId: string): Promise<void> {
  const erp = t.erp.erp;
  const [o] = await erp.read('sale.order', [order], ['state', 'invoice_ids']);
  const invoices = await erp.read('account.move', (o?.invoice_ids as number[]) ?? [], ['payment_state']);
  const payments = await erp.search('account.payment', [['ref', '=', depositMarker(quoteId)]]);
  const ok = o?.state === 'sale' && invoices.length === 1 && invoices[0]!.payment_state === 'paid';
  if (!ok || payments.length !== 1)
    throw new Error(`order ${order}: ${o?.state}, ${invoices.length} invoices, ${payments.length} payments`);
}

async function main() {
  const control = await k.kit.app.listen({ host: '127.0.0.1', port: 0 });
  stripe.addWebhookEndpoint(`${control}/webhooks/payments`, { connect: true, secret: WHSEC });
  // The tenant connects its account: the onboarding's account.updated lets it take charges.
  const c = await k.call('POST', `/api/tenants/${t.id}/payments/connect`, t.owner);
  await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Bench+Blinds',
    redirect: 'manual',
  });
  await stripe.flushWebhooks();

  const t0 = performance.now();
  const viaPlatform: Awaited<ReturnType<typeof acceptedQuote>>[] = [];
  const direct: Awaited<ReturnType<typeof acceptedQuote>>[] = [];
  for (let i = 0; i < N; i++) viaPlatform.push(await acceptedQuote(i));
  for (let i = 0; i < N; i++) direct.push(await acceptedQuote(N + i));
  const sessions: string[] = [];
  for (const q of viaPlatform) {
    const r = await k.call('POST', `/portal/quotes/${q.token}/deposit-checkout`, undefined, undefined, onHost);
    if (r.status !== 200) throw new Error(`checkout: ${r.status} ${JSON.stringify(r.body)}`);
    sessions.push(r.body.session_id as string);
  }
  console.log(`prepared ${2 * N} accepted quotes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The platform's way: all paid at once; each counts when its row says the ERP has it.
  relay.start();
  const paidAt = new Map<string, number>();
  const doneAt = new Map<string, number>();
  const start = performance.now();
  viaPlatform.forEach((q, i) => {
    stripe.pay(sessions[i]!, CARD);
    paidAt.set(q.id, performance.now());
  });
  while (doneAt.size < N) {
    if (performance.now() - start > 600_000) throw new Error(`only ${doneAt.size} of ${N} recorded in 10 minutes`);
    const rows = await k.kit.t.db.query<{ quote_id: string }>(
      'SELECT quote_id FROM deposit_payments WHERE erp_recorded_at IS NOT NULL',
    );
    const now = performance.now();
    for (const r of rows.rows) if (paidAt.has(r.quote_id) && !doneAt.has(r.quote_id)) doneAt.set(r.quote_id, now);
    await new Promise((r) => setTimeout(r, 5));
  }
  const platformSpan = Math.max(...doneAt.values()) - start;
  const platformMs = viaPlatform.map((q) => doneAt.get(q.id)! - paidAt.get(q.id)!);
  await relay.stop();

  // The same ERP writes made directly, all at once.
  const directStart = performance.now();
  const directMs = await Promise.all(
    direct.map(async (q) => {
      const s = performance.now();
      await recordDepositInErp(t.erp.erp, {
        saleOrderId: q.order,
        quoteId: q.id,
        amountMinor: Math.round(q.deposit * 100),
        currency: 'USD',
        method: 'card',
      });
      return performance.now() - s;
    }),
  );
  const directSpan = performance.now() - directStart;
  for (const q of [...viaPlatform, ...direct]) await checkInErp(q.order, q.id);

  const p = stats(platformMs);
  const d = stats(directMs);
  const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(0.99 * ms.length))]!;
  const perSecond = (span: number) => (N / span) * 1000;
  console.log(`${N} deposits paid at once: paid → confirmed order, posted invoice and payment in the ERP`);
  console.log(`  via the platform (webhook, job)  p50 ${p.p50.toFixed(0)} ms  p99 ${p99(platformMs).toFixed(0)} ms`);
  console.log(`  the ERP writes made directly     p50 ${d.p50.toFixed(0)} ms  p99 ${p99(directMs).toFixed(0)} ms`);
  console.log(
    `  throughput: ${perSecond(platformSpan).toFixed(1)}/s via the platform, ${perSecond(directSpan).toFixed(1)}/s direct; ratio ${(perSecond(platformSpan) / perSecond(directSpan)).toFixed(2)}`,
  );
  console.log(`  latency ratio (direct p50 / platform p50): ${(d.p50 / p.p50).toFixed(2)}`);
  console.log(`every deposit checked in the ERP: one confirmed order, one paid down-payment invoice, one payment`);
}

try {
  await main();
} finally {
  await relay.stop().catch(() => undefined);
  await k.close();
  await stripe.close();
}
