/**
 * Stripe's test cards (docs.stripe.com/testing) and what each does on the hosted page. Only the
 * brand and last four digits are kept; the number, expiry and CVC are checked and forgotten.
 * Messages are Stripe's customer-facing ones, which a customer understands and can act on.
 */
export interface CardInput {
  number: string;
  /** `MM / YY`, `MM/YY` or `MMYY`. */
  expiry: string;
  cvc: string;
}

export type CardOutcome =
  | { result: 'succeeded'; brand: string; last4: string }
  | { result: 'requires_action'; brand: string; last4: string }
  | { result: 'declined'; code: string; declineCode?: string; message: string; param?: string; last4?: string };

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  authenticationRequired: '4000002500003155',
} as const;

export const DECLINE_MESSAGE = 'Your card was declined. Try another card, or contact your bank.';
export const AUTHENTICATION_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

function luhnOk(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Stripe's other brand test cards that succeed (docs.stripe.com/testing#cards). */
const OTHER_SUCCESS_CARDS = new Set([
  '4000056655665556', // Visa debit
  '5555555555554444', // Mastercard
  '5105105105105100', // Mastercard prepaid
  '378282246310005', // American Express
  '6011111111111117', // Discover
]);

const brandOf = (n: string): string =>
  n.startsWith('4')
    ? 'visa'
    : /^5[1-5]/.test(n)
      ? 'mastercard'
      : /^3[47]/.test(n)
        ? 'amex'
        : /^6011/.test(n)
          ? 'discover'
          : 'unknown';

/** The outcome of paying with `card` at `now` (expiry is checked against it). */
export function cardOutcome(card: CardInput, now: Date): CardOutcome {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(number) || !luhnOk(number))
    return { result: 'declined', code: 'incorrect_number', message: 'Your card number is incorrect.', param: 'number' };
  const last4 = number.slice(-4);
  const m = /^(\d{1,2})\s*\/?\s*(\d{2})$/.exec(card.expiry.trim());
  const month = m ? Number(m[1]) : 0;
  const year = m ? 2000 + Number(m[2]) : 0;
  if (month < 1 || month > 12)
    return {
      result: 'declined',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
      param: 'exp_month',
      last4,
    };
  const y = now.getUTCFullYear();
  if (year < y || (year === y && month < now.getUTCMonth() + 1))
    return { result: 'declined', code: 'expired_card', message: 'Your card has expired.', param: 'exp_year', last4 };
  if (!/^\d{3,4}$/.test(card.cvc.trim()))
    return {
      result: 'declined',
      code: 'incorrect_cvc',
      message: "Your card's security code is incomplete.",
      param: 'cvc',
      last4,
    };
  const brand = brandOf(number);
  switch (number) {
    case TEST_CARDS.success:
      return { result: 'succeeded', brand, last4 };
    case TEST_CARDS.authenticationRequired:
      return { result: 'requires_action', brand, last4 };
    case TEST_CARDS.insufficientFunds:
      return {
        result: 'declined',
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        last4,
      };
    case TEST_CARDS.declined:
      return {
        result: 'declined',
        code: 'card_declined',
        declineCode: 'generic_decline',
        message: DECLINE_MESSAGE,
        last4,
      };
    default:
      if (OTHER_SUCCESS_CARDS.has(number)) return { result: 'succeeded', brand, last4 };
      // Stripe's test mode refuses real card numbers.
      return {
        result: 'declined',
        code: 'card_declined',
        declineCode: 'live_mode_test_card',
        message: 'Your card was declined. This is a test page: use a test card such as 4242 4242 4242 4242.',
        last4,
      };
  }
}
