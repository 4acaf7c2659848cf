/**
 * /office/quotes/:id: the quote's lines and totals; "Send to customer" (POST /sales/quotes/{id}/send,
 * one Idempotency-Key per send) emails and texts the portal link and shows it with a copy button; "Schedule install" makes the install job (POST /jobs) with
 * one Idempotency-Key per form fill.
 */
import type { QuoteSendAnswer } from '@platform/contracts/quote.js';

import { call, postJson } from '../field/api.js';
import { $, h, uuid } from '../shared/dom.js';
import {
  clearFieldErrors,
  explain,
  fieldProblems,
  say,
  showFieldErrors,
  summary,
  technicians,
} from './office-common.js';
import type { OfficePage } from './office-page.js';
import { downloadPdf } from './pdf-download.js';
import { type Quote, quoteHtml, stateName } from './quote.view.js';
import { addressOf, installBody, missingAddress } from './quote-install.js';

let quote: Quote | undefined;
let installKey = '';
let sendKey = '';

const quoteId = () => decodeURIComponent(location.pathname.split('/')[3] ?? '');

/** "Emailed to x@y and texted to +1…": what the customer was sent, for the person who sent it. */
export function sentSentence(a: QuoteSendAnswer): string {
  const to = [
    ...(a.emailed_to ? [`emailed to ${a.emailed_to}`] : []),
    ...(a.texted_to ? [`texted to +${a.texted_to}`] : []),
  ].join(' and ');
  if (!to) return 'The customer has no email address or mobile number on file: copy the link to them.';
  return `${a.repeated ? 'Already sent: ' : ''}${to[0]!.toUpperCase()}${to.slice(1)}. The link is below if you want to copy it.`;
}

async function send(app: HTMLElement): Promise<void> {
  const button = $<HTMLButtonElement>('#send-quote', app)!;
  button.disabled = true;
  say('Sending…', 'office-msg');
  try {
    const link = await postJson<QuoteSendAnswer>(
      `/sales/quotes/${encodeURIComponent(quote!.id)}/send`,
      {},
      { 'idempotency-key': sendKey },
    );
    // The next click is a new send (the customer gets it again); a failed one retries with this key.
    sendKey = uuid();
    $<HTMLInputElement>('#portal-url', app)!.value = link.portal_url;
    $('#portal-expiry', app)!.textContent = `Works until ${new Date(link.expires_at).toLocaleDateString()}.`;
    $('#portal-link', app)!.hidden = false;
    $('#q-state', app)!.textContent = stateName('sent');
    button.textContent = 'Send again';
    say(sentSentence(link), 'office-msg', 'ok');
  } catch (e) {
    say(explain(e), 'office-msg', 'err');
  } finally {
    button.disabled = false;
  }
}

async function copy(app: HTMLElement): Promise<void> {
  const input = $<HTMLInputElement>('#portal-url', app)!;
  try {
    await navigator.clipboard.writeText(input.value);
    say('Link copied.', 'office-msg', 'ok');
  } catch {
    // No clipboard permission: leave the link selected so Ctrl+C / long-press copies it.
    input.select();
    say('Select the link and copy it.', 'office-msg');
  }
}

async function createJob(form: HTMLFormElement): Promise<void> {
  const v = (id: string) => $<HTMLInputElement>(`#${id}`, form)!.value;
  clearFieldErrors(form);
  say('Creating the install job…', 'install-msg');
  const choice = {
    street: v('i-street'),
    city: v('i-city'),
    zip: v('i-zip'),
    state: v('i-state'),
    date: v('i-date'),
    time: v('i-time'),
    hours: Number(v('i-length')),
    technicianId: v('i-tech'),
  };
  const missing = missingAddress(choice);
  if (missing.length) {
    say(summary(showFieldErrors(form, missing)), 'install-msg', 'err');
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    return;
  }
  const body = installBody(quote!, choice);
  try {
    const job = await postJson<{ name: string; scheduled_start: string | null; technician: { name: string } | null }>(
      '/jobs',
      body,
      { 'idempotency-key': installKey },
    );
    const day = job.scheduled_start?.slice(0, 10);
    const where = job.scheduled_start
      ? `scheduled for ${new Date(job.scheduled_start).toLocaleString()}${job.technician ? ` with ${job.technician.name}` : ''}`
      : 'not scheduled yet: it is under “Needs scheduling”';
    form.hidden = true;
    $('#open-install')!.hidden = true;
    const out = $('#office-msg')!;
    out.className = 'ok';
    out.innerHTML = `Install job ${h(job.name)} created, ${h(where)}. <a href="/office/dispatch${day ? `?day=${day}` : ''}">Open the dispatch board</a>`;
  } catch (e) {
    const problems = fieldProblems(e);
    say(problems.length ? summary(showFieldErrors(form, problems)) : explain(e), 'install-msg', 'err');
  }
}

export const quotePage: OfficePage = {
  async show(app, msg = '') {
    quote = await call<Quote>(`/sales/quotes/${encodeURIComponent(quoteId())}`);
    installKey = uuid();
    sendKey = uuid();
    const created = new URLSearchParams(location.search).has('created');
    const techs = await technicians().catch(() => []);
    app.innerHTML = quoteHtml(quote, addressOf(quote), techs, msg || (created ? 'Quote created.' : ''));
  },
  async click(b, app) {
    if (b.id === 'send-quote') await send(app);
    if (b.id === 'copy-link') await copy(app);
    if (b.id === 'quote-pdf') await downloadPdf(`/sales/quotes/${encodeURIComponent(quote!.id)}/pdf`, 'quote.pdf', b);
    if (b.id === 'open-install') {
      const form = $<HTMLFormElement>('#install-form', app)!;
      form.hidden = !form.hidden;
      b.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) $<HTMLInputElement>('#i-street', form)!.focus();
    }
  },
  input(el) {
    // A corrected field loses its message at once (the rest stay until the next try).
    const field = el.dataset.field;
    if (!field || !el.closest('#install-form')) return;
    const slot = document.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(field)}"]`);
    if (slot) slot.textContent = '';
    el.removeAttribute('aria-invalid');
  },
  async submit(form) {
    if (form.id === 'install-form') await createJob(form);
  },
};
