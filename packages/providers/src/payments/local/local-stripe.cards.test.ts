/**
 * What the hosted page does with each card: Stripe's test cards, and a mistyped number, expiry or CVC
 * named so the customer can correct it. Only brand and last4 come out.
 */
import { describe, expect, it } from 'vitest';

import { AUTHENTICATION_FAILED_MESSAGE, cardOutcome, DECLINE_MESSAGE, TEST_CARDS } from './local-stripe.cards.js';

const now = new Date('2026-11-27T12:00:00Z');
const pay = (number: string, expiry = '12 / 30', cvc = '123') => cardOutcome({ number, expiry, cvc }, now);

describe("the stand-in's test cards", () => {
  it('pays with 4242 4242 4242 4242 (spaces allowed), keeping brand and last4 only', () => {
    expect(pay('4242 4242 4242 4242')).toEqual({ result: 'succeeded', brand: 'visa', last4: '4242' });
  });
  it('declines 4000 0000 0000 0002 and 9995 with messages a customer can act on', () => {
    expect(pay(TEST_CARDS.declined)).toMatchObject({
      result: 'declined',
      code: 'card_declined',
      declineCode: 'generic_decline',
      message: DECLINE_MESSAGE,
    });
    expect(pay(TEST_CARDS.insufficientFunds)).toMatchObject({
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });
  it('asks for authentication with 4000 0025 0000 3155', () => {
    expect(pay(TEST_CARDS.authenticationRequired)).toEqual({ result: 'requires_action', brand: 'visa', last4: '3155' });
    expect(AUTHENTICATION_FAILED_MESSAGE).toMatch(/different payment method/);
  });
  it('names a mistyped number, a past or impossible expiry and a short CVC', () => {
    expect(pay('4242 4242 4242 4241')).toMatchObject({ code: 'incorrect_number', param: 'number' });
    expect(pay(TEST_CARDS.success, '10 / 26')).toMatchObject({ code: 'expired_card', param: 'exp_year' });
    expect(pay(TEST_CARDS.success, '11/26')).toMatchObject({ result: 'succeeded' });
    expect(pay(TEST_CARDS.success, '13/30')).toMatchObject({ code: 'invalid_expiry_month' });
    expect(pay(TEST_CARDS.success, '12/30', '12')).toMatchObject({ code: 'incorrect_cvc', param: 'cvc' });
  });
  it("pays with Stripe's other brand test cards and declines any other number: the page is test mode", () => {
    expect(pay('5555 5555 5555 4444')).toEqual({ result: 'succeeded', brand: 'mastercard', last4: '4444' });
    expect(pay('3782 822463 10005', '12/30', '1234')).toEqual({ result: 'succeeded', brand: 'amex', last4: '0005' });
    expect(pay('4000 1234 5678 9017')).toMatchObject({
      result: 'declined',
      message: expect.stringMatching(/test card/),
    });
  });
});
