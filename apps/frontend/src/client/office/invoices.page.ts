/**
 * /office/invoices (GET /invoices?state=…) and /office/invoices/:id (GET /invoices/{id}): the tabs and
 * one invoice, where the office records a cash, check or bank payment (POST /invoices/{id}/payments;
 * the amount typed in major units, sent in minor units) and resends the pay link.
 */
import {
  INVOICE_LIST_STATES,
  type InvoiceDetail,
  type InvoiceListAnswer,
  type InvoiceListState,
} from '@platform/contracts/invoicing.js';

import { call, postJson } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, uuid } from '../shared/dom.js';
import { formatMoney, toMinor } from '../shared/money.js';
import { invoiceHtml, invoicesHtml } from './invoices.view.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { downloadPdf } from './pdf-download.js';
import { refusal, sendForm } from './settings-common.js';

const stateOf = (): InvoiceListState => {
  const s = new URLSearchParams(location.search).get('state');
  return (INVOICE_LIST_STATES as readonly string[]).includes(s ?? '') ? (s as InvoiceListState) : 'open';
};

export const invoicesPage: OfficePage = {
  async show(app, msg = '') {
    const v = await call<InvoiceListAnswer>(`/invoices?state=${stateOf()}`);
    app.innerHTML = invoicesHtml(v, msg);
  },
};

let invoice: InvoiceDetail | undefined;
/** One key per payment form shown: a double click or a retry records the payment once. */
let paymentKey = uuid();
const invoiceId = () => decodeURIComponent(location.pathname.split('/')[3] ?? '');

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [detail, session] = await Promise.all([
    call<InvoiceDetail>(`/invoices/${encodeURIComponent(invoiceId())}`),
    getSession(),
  ]);
  invoice = detail;
  paymentKey = uuid();
  const canRefund = ['owner', 'admin'].includes(session?.user.role ?? '');
  app.innerHTML = invoiceHtml(invoice, msg, kind, canRefund);
}

/** Major units typed in a form, as minor units; NaN (sent as null) for the API to name. */
const minorOf = (form: HTMLFormElement, selector: string, currency: string): number => {
  const raw = $<HTMLInputElement>(selector, form)!.value.trim().replace(/,/g, '');
  const major = raw === '' ? NaN : Number(raw);
  return Number.isFinite(major) ? toMinor(major, currency) : major;
};

/** Refunds part or all of a card payment (owners and admins), once per form shown. */
async function refund(form: HTMLFormElement, app: HTMLElement): Promise<void> {
  const id = form.dataset.payment!;
  const cur = invoice!.currency;
  const amount = minorOf(form, `#refund-${id}`, cur);
  const sent = await sendForm(form, async () => {
    await postJson(`/payments/${id}/refund`, { amount_minor: amount }, { 'idempotency-key': paymentKey });
  });
  if (sent) await draw(app, `Refunded ${formatMoney(amount, cur)} to the card.`, 'ok');
}

export const invoicePage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg, msg ? 'ok' : '');
  },
  async click(b) {
    if (!invoice) return;
    if (b.id === 'invoice-pdf') await downloadPdf(`/invoices/${invoice.id}/pdf`, 'invoice.pdf', b);
    if (b.id !== 'invoice-send') return;
    b.disabled = true;
    try {
      const r = await postJson<{ emailed_to: string }>(
        `/invoices/${invoice.id}/send`,
        {},
        { 'idempotency-key': uuid() },
      );
      say(`Pay link sent to ${r.emailed_to}.`, 'office-msg', 'ok');
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    } finally {
      b.disabled = false;
    }
  },
  async submit(form, app) {
    if (form.classList.contains('refund-form') && invoice) return refund(form, app);
    if (form.id !== 'invoice-payment' || !invoice) return;
    const memo = $<HTMLInputElement>('#pay-memo', form)!.value.trim();
    const body = {
      // NaN becomes null in JSON: the API then names amount_minor.
      amount_minor: minorOf(form, '#pay-amount', invoice.currency),
      method: $<HTMLSelectElement>('#pay-method', form)!.value,
      ...(memo ? { memo } : {}),
    };
    const cur = invoice.currency;
    const sent = await sendForm(form, async () => {
      await postJson(`/invoices/${invoice!.id}/payments`, body, { 'idempotency-key': paymentKey });
    });
    if (sent) await draw(app, `Payment of ${formatMoney(body.amount_minor, cur)} recorded.`, 'ok');
  },
};
