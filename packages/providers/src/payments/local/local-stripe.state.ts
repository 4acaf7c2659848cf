/**
 * The stand-in's state and the transitions Stripe documents: a session is `open` until paid
 * (`complete`/`paid`), its PaymentIntent is made at the first card attempt (as in current API
 * versions), a declined card leaves it `requires_payment_method` with `last_payment_error` so the
 * customer can retry, a refund lowers what the charge can still give back. Every change that Stripe
 * announces is passed to `emit` (type, object, connected account or null).
 */
import { AUTHENTICATION_FAILED_MESSAGE, type CardInput, cardOutcome } from './local-stripe.cards.js';
import { LocalStripeConnect } from './local-stripe.connect.js';
import { invalid, missing, required, StripeApiError } from './local-stripe.errors.js';
import {
  chargeObject,
  intOf,
  MINIMUM_AMOUNT,
  newId,
  type Obj,
  paymentIntentObject,
  PLATFORM,
  refundObject,
  sessionObject,
  type Stored,
} from './local-stripe.objects.js';

export type Emit = (type: string, object: Obj, account: string | null) => void;

export type PayResult =
  { status: 'succeeded'; successUrl: string } | { status: 'requires_action' } | { status: 'declined'; message: string };

const NAMES: Record<string, string> = {
  cs: 'checkout.session',
  pi: 'payment_intent',
  ch: 'charge',
  re: 'refund',
};

/** A copy without the stand-in's own `_` keys, at any depth. */
export function shown(o: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o))
    if (!k.startsWith('_')) out[k] = v && typeof v === 'object' && !Array.isArray(v) ? shown(v as Obj) : v;
  return out;
}

export class LocalStripeState {
  readonly objects = new Map<string, Stored>();
  readonly connect: LocalStripeConnect;
  private readonly links = new Map<
    string,
    { account: string; refreshUrl: string; returnUrl: string; expiresAt: number; used?: true }
  >();

  constructor(
    private readonly base: () => string,
    private readonly now: () => Date,
    private readonly emit: Emit,
  ) {
    this.connect = new LocalStripeConnect(base, now, emit);
  }

  private seconds = (): number => Math.floor(this.now().getTime() / 1000);

  private put(scope: string, object: Obj): Obj {
    this.objects.set(String(object['id']), { scope, object });
    return object;
  }

  /** The object with `id` in `scope`; another scope's is `resource_missing`, as at Stripe. */
  get(scope: string, id: string, param = 'id'): Obj {
    const s = this.objects.get(id);
    const kind = NAMES[id.split('_')[0]!] ?? 'object';
    if (!s || s.scope !== scope) throw missing(kind, id, param);
    return s.object;
  }

  scopeOf = (id: string): string | undefined => this.objects.get(id)?.scope;
  private eventAccount = (scope: string): string | null => (scope === PLATFORM ? null : scope);

  createSession(scope: string, p: Obj): Obj {
    if (scope !== PLATFORM && this.connect.accounts.get(scope)?.['charges_enabled'] !== true)
      throw invalid(
        'account',
        'This account cannot currently make charges: it has not finished onboarding.',
        'account_invalid',
      );
    if (p['mode'] !== 'payment')
      throw p['mode'] ? invalid('mode', 'The stand-in supports mode=payment only.') : required('mode');
    if (!p['success_url']) throw required('success_url');
    const items = p['line_items'];
    if (!Array.isArray(items) || items.length === 0) throw required('line_items');
    let total = 0;
    let currency = '';
    items.forEach((raw, i) => {
      const item = raw as Obj;
      const pd = (item['price_data'] ?? {}) as Obj;
      const unit = intOf(pd['unit_amount']);
      const qty = intOf(item['quantity'] ?? '1');
      const c = String(pd['currency'] ?? '').toLowerCase();
      if (!(c in MINIMUM_AMOUNT)) throw invalid(`line_items[${i}][price_data][currency]`, `Invalid currency: ${c}.`);
      if (currency && c !== currency)
        throw invalid(`line_items[${i}][price_data][currency]`, 'All line items must have the same currency.');
      if (!Number.isInteger(unit) || unit < 0)
        throw invalid(`line_items[${i}][price_data][unit_amount]`, 'Invalid integer.');
      if (!Number.isInteger(qty) || qty < 1) throw invalid(`line_items[${i}][quantity]`, 'Invalid integer.');
      currency = c;
      total += unit * qty;
    });
    if (total < MINIMUM_AMOUNT[currency]!)
      throw invalid(
        'line_items[0][price_data][unit_amount]',
        `The Checkout Session's total amount due must add up to at least ${MINIMUM_AMOUNT[currency]} ${currency}.`,
        'amount_too_small',
      );
    const id = newId('cs_test_', 58);
    const s = sessionObject(id, p, total, currency, `${this.base()}/c/pay/${id}`, this.seconds());
    // Kept aside (`_` keys are never shown): the PaymentIntent's metadata and the line the customer sees.
    s['_pi_metadata'] = ((p['payment_intent_data'] ?? {}) as Obj)['metadata'] ?? {};
    const product = (((items[0] as Obj)['price_data'] as Obj)['product_data'] ?? {}) as Obj;
    s['_description'] = String(product['name'] ?? '');
    return this.put(scope, s);
  }

  /** What the API shows of a session: no `_` keys, and the page's url only while it is open. */
  static visible(s: Obj): Obj {
    return { ...shown(s), url: s['status'] === 'open' ? s['url'] : null };
  }

  session(id: string): { scope: string; session: Obj } {
    const s = this.objects.get(id);
    if (!s || s.object['object'] !== 'checkout.session') throw missing('checkout.session', id);
    return { scope: s.scope, session: s.object };
  }

  private intentOf(scope: string, s: Obj): Obj {
    if (s['payment_intent']) return this.get(scope, String(s['payment_intent']));
    const pi = this.put(scope, paymentIntentObject(newId('pi_'), s, s['_pi_metadata'] as Obj, this.seconds()));
    s['payment_intent'] = pi['id'];
    return pi;
  }

  /** A card entered on the hosted page of session `id`. */
  pay(id: string, card: CardInput): PayResult {
    const { scope, session } = this.session(id);
    if (session['status'] !== 'open') throw invalid('session', 'This Checkout Session is no longer active.');
    const pi = this.intentOf(scope, session);
    const outcome = cardOutcome(card, this.now());
    if (outcome.result === 'declined') {
      pi['last_payment_error'] = {
        type: 'card_error',
        code: outcome.code,
        decline_code: outcome.declineCode ?? null,
        message: outcome.message,
      };
      pi['status'] = 'requires_payment_method';
      if (outcome.code === 'card_declined')
        this.emit('payment_intent.payment_failed', shown(pi), this.eventAccount(scope));
      return { status: 'declined', message: outcome.message };
    }
    pi['_pending_card'] = { brand: outcome.brand, last4: outcome.last4 };
    if (outcome.result === 'requires_action') {
      pi['status'] = 'requires_action';
      return { status: 'requires_action' };
    }
    return this.succeed(scope, session, pi);
  }

  /** The customer's answer on the authentication (3D Secure) page. */
  authenticate(id: string, approve: boolean): PayResult {
    const { scope, session } = this.session(id);
    const pi = this.intentOf(scope, session);
    if (pi['status'] !== 'requires_action') throw invalid('session', 'Nothing to authenticate.');
    if (approve) return this.succeed(scope, session, pi);
    delete pi['_pending_card'];
    pi['status'] = 'requires_payment_method';
    pi['last_payment_error'] = {
      type: 'card_error',
      code: 'payment_intent_authentication_failure',
      message: AUTHENTICATION_FAILED_MESSAGE,
    };
    this.emit('payment_intent.payment_failed', shown(pi), this.eventAccount(scope));
    return { status: 'declined', message: AUTHENTICATION_FAILED_MESSAGE };
  }

  private succeed(scope: string, session: Obj, pi: Obj): PayResult {
    const card = pi['_pending_card'] as { brand: string; last4: string };
    delete pi['_pending_card'];
    const charge = this.put(scope, chargeObject(newId('ch_'), pi, card, this.seconds()));
    Object.assign(pi, {
      status: 'succeeded',
      amount_received: pi['amount'],
      latest_charge: charge['id'],
      last_payment_error: null,
    });
    Object.assign(session, { status: 'complete', payment_status: 'paid' });
    const account = this.eventAccount(scope);
    this.emit('payment_intent.succeeded', shown(pi), account);
    this.emit('checkout.session.completed', LocalStripeState.visible(session), account);
    return {
      status: 'succeeded',
      successUrl: String(session['success_url']).replace('{CHECKOUT_SESSION_ID}', String(session['id'])),
    };
  }

  createRefund(scope: string, p: Obj): Obj {
    let charge: Obj;
    if (p['charge']) charge = this.get(scope, String(p['charge']), 'charge');
    else if (p['payment_intent']) {
      const pi = this.get(scope, String(p['payment_intent']), 'payment_intent');
      if (!pi['latest_charge'] || pi['status'] !== 'succeeded')
        throw invalid(
          'payment_intent',
          `This PaymentIntent (${String(pi['id'])}) does not have a successful charge to refund.`,
        );
      charge = this.get(scope, String(pi['latest_charge']));
    } else throw required('payment_intent');
    const left = Number(charge['amount']) - Number(charge['amount_refunded']);
    if (left === 0)
      throw invalid('charge', `Charge ${String(charge['id'])} has already been refunded.`, 'charge_already_refunded');
    const amount = p['amount'] === undefined ? left : intOf(p['amount']);
    if (!Number.isInteger(amount) || amount < 1) throw invalid('amount', 'Invalid positive integer');
    if (amount > left)
      throw invalid(
        'amount',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount_too_large',
      );
    const refund = this.put(scope, refundObject(newId('re_'), charge, amount, p, this.seconds()));
    charge['amount_refunded'] = Number(charge['amount_refunded']) + amount;
    charge['refunded'] = charge['amount_refunded'] === charge['amount'];
    const account = this.eventAccount(scope);
    this.emit('refund.created', refund, account);
    this.emit('charge.refunded', charge, account);
    return refund;
  }
}

export { StripeApiError };
