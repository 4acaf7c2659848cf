/**
 * The stand-in's hosted pages: a card page per Checkout Session (like checkout.stripe.com: merchant
 * name, amount, card number, expiry, CVC; a decline is said in words a customer can act on, and they
 * can try again), the authentication page a 3D Secure card asks for, and the Connect onboarding page
 * an account link opens. Card numbers are checked and forgotten (only brand and last4 are kept).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

import { StripeApiError } from './local-stripe.errors.js';
import type { Obj } from './local-stripe.objects.js';
import type { LocalStripeState, PayResult } from './local-stripe.state.js';

const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `1234.56 US$` style from minor units (zero-decimal currencies have no fraction digits). */
export function formatMinor(amount: number, currency: string): string {
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(amount / 10 ** digits);
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1f36;background:#f6f9fc}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.25rem;margin:0 0 .25rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}.item{color:#4f566b;margin:0 0 1.5rem}
form{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:1rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem;border:1px solid #8792a2;border-radius:6px}.row{display:flex;gap:.75rem}.row>div{flex:1}
button{width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#0a5ad4;border:0;border-radius:6px;cursor:pointer}
button.secondary{background:#fff;color:#1a1f36;border:1px solid #8792a2}.error{color:#b3093c;background:#fdecef;border-radius:6px;padding:.6rem;margin:0 0 1rem}
.note{color:#4f566b;font-size:.875rem}a{color:#0a5ad4}`;

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

function cardPage(s: Obj, merchant: string, error?: string): string {
  const id = esc(s['id']);
  const amount = formatMinor(Number(s['amount_total']), String(s['currency']));
  return page(
    `Pay ${merchant}`,
    `<h1>${esc(merchant)}</h1><p class="amount">${esc(amount)}</p><p class="item">${esc(s['_description'])}</p>` +
      (error ? `<p class="error" role="alert">${esc(error)}</p>` : '') +
      `<form method="post" action="/c/pay/${id}"><label for="number">Card number</label>` +
      `<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required>` +
      `<div class="row"><div><label for="expiry">Expiry (MM / YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" required></div>` +
      `<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" required></div></div>` +
      `<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name">` +
      `<button type="submit">Pay ${esc(amount)}</button></form>` +
      `<p class="note">Test mode: nothing is charged. <a href="${esc(s['cancel_url'] ?? '#')}">Cancel and go back</a></p>`,
  );
}

const authPage = (s: Obj, merchant: string): string =>
  page(
    'Authenticate your payment',
    `<h1>Authenticate your payment</h1><p class="item">${esc(merchant)} asks your bank to confirm ` +
      `${esc(formatMinor(Number(s['amount_total']), String(s['currency'])))}.</p>` +
      `<form method="post" action="/c/pay/${esc(s['id'])}/authenticate">` +
      `<button type="submit" name="outcome" value="complete">Complete authentication</button>` +
      `<button type="submit" class="secondary" name="outcome" value="fail">Fail authentication</button></form>`,
  );

const donePage = (s: Obj, merchant: string): string =>
  page(
    'Payment complete',
    `<h1>${esc(merchant)}</h1><p>This payment is ${s['status'] === 'complete' ? 'complete' : 'no longer available'}.</p>` +
      (s['status'] === 'complete' ? `<p><a href="${esc(s['success_url'])}">Continue</a></p>` : ''),
  );

const onboardingPage = (token: string, a: Obj): string =>
  page(
    'Set up payments',
    `<h1>Set up payments</h1><p class="item">Account ${esc(a['id'])}: tell customers who is charging them.</p>` +
      `<form method="post" action="/connect/setup/${esc(token)}"><label for="business_name">Business name</label>` +
      `<input id="business_name" name="business_name" required value="${esc((a['business_profile'] as Obj)['name'] ?? '')}">` +
      `<button type="submit">Agree and submit</button></form><p class="note">Test mode: no identity checks.</p>`,
  );

export function registerStripePages(app: FastifyInstance, state: LocalStripeState): void {
  const merchantOf = (scope: string): string =>
    String((state.connect.accounts.get(scope)?.['business_profile'] as Obj | undefined)?.['name'] ?? 'Local merchant');
  const html = (reply: FastifyReply): FastifyReply => reply.type('text/html; charset=utf-8');
  const open = (id: string): { scope: string; session: Obj } | null => {
    try {
      return state.session(id);
    } catch {
      return null;
    }
  };
  const answer = (id: string, r: PayResult, reply: FastifyReply) => {
    const { scope, session } = state.session(id);
    if (r.status === 'succeeded') return reply.redirect(r.successUrl, 303);
    if (r.status === 'requires_action') return html(reply).send(authPage(session, merchantOf(scope)));
    return html(reply.code(402)).send(cardPage(session, merchantOf(scope), r.message));
  };

  app.get('/c/pay/:id', async (req, reply) => {
    const s = open((req.params as { id: string }).id);
    if (!s) return html(reply.code(404)).send(page('Not found', '<h1>This payment page does not exist.</h1>'));
    const merchant = merchantOf(s.scope);
    return html(reply).send(
      s.session['status'] === 'open' ? cardPage(s.session, merchant) : donePage(s.session, merchant),
    );
  });
  app.post('/c/pay/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const s = open(id);
    if (!s) return html(reply.code(404)).send(page('Not found', '<h1>This payment page does not exist.</h1>'));
    if (s.session['status'] !== 'open') return html(reply).send(donePage(s.session, merchantOf(s.scope)));
    const f = (req.body ?? {}) as Obj;
    const r = state.pay(id, {
      number: String(f['number'] ?? ''),
      expiry: String(f['expiry'] ?? ''),
      cvc: String(f['cvc'] ?? ''),
    });
    return answer(id, r, reply);
  });
  app.post('/c/pay/:id/authenticate', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    if (!open(id)) return html(reply.code(404)).send(page('Not found', '<h1>This payment page does not exist.</h1>'));
    const approve = ((req.body ?? {}) as Obj)['outcome'] === 'complete';
    return answer(id, state.authenticate(id, approve), reply);
  });

  app.get('/connect/setup/:token', async (req, reply) => {
    const token = (req.params as { token: string }).token;
    const l = state.connect.accountLink(token);
    if (l.ok) return html(reply).send(onboardingPage(token, l.account));
    if (l.refreshUrl) return reply.redirect(l.refreshUrl, 303);
    return html(reply.code(404)).send(page('Link not valid', '<h1>This link is not valid.</h1>'));
  });
  app.post('/connect/setup/:token', async (req, reply) => {
    const token = (req.params as { token: string }).token;
    const l = state.connect.accountLink(token);
    if (!l.ok) {
      if (l.refreshUrl) return reply.redirect(l.refreshUrl, 303);
      throw new StripeApiError(404, 'invalid_request_error', 'This link is not valid.');
    }
    const name = String(((req.body ?? {}) as Obj)['business_name'] ?? '').trim();
    return reply.redirect(state.connect.completeOnboarding(token, name), 303);
  });
}
