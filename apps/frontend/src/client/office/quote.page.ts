/**
 * /office/quotes/:id: the quote's lines and totals; "Send to customer" (POST /sales/quotes/{id}/send)
 * shows the portal link with a copy button; "Schedule install" makes the install job (POST /jobs) with
 * one Idempotency-Key per form fill.
 */
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
import { type Quote, quoteHtml, stateName } from './quote.view.js';
import { installBody, recallAddress } from './quote-install.js';

let quote: Quote | undefined;
let installKey = '';

const quoteId = () => decodeURIComponent(location.pathname.split('/')[3] ?? '');

async function send(app: HTMLElement): Promise<void> {
  const link = await postJson<{ portal_url: string; expires_at: string }>(
    `/sales/quotes/${encodeURIComponent(quote!.id)}/send`,
    {},
  );
  $<HTMLInputElement>('#portal-url', app)!.value = link.portal_url;
  $('#portal-expiry', app)!.textContent = `Works until ${new Date(link.expires_at).toLocaleDateString()}.`;
  $('#portal-link', app)!.hidden = false;
  $('#q-state', app)!.textContent = stateName('sent');
  say('Portal link made: copy it to the customer (the quote is marked sent).', 'office-msg', 'ok');
  $<HTMLInputElement>('#portal-url', app)!.select();
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
  const body = installBody(quote!, {
    street: v('i-street'),
    city: v('i-city'),
    zip: v('i-zip'),
    state: v('i-state'),
    date: v('i-date'),
    time: v('i-time'),
    hours: Number(v('i-length')),
    technicianId: v('i-tech'),
  });
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
    const created = new URLSearchParams(location.search).has('created');
    const techs = await technicians().catch(() => []);
    app.innerHTML = quoteHtml(quote, recallAddress(quote.id), techs, msg || (created ? 'Quote created.' : ''));
  },
  async click(b, app) {
    if (b.id === 'send-quote') await send(app);
    if (b.id === 'copy-link') await copy(app);
    if (b.id === 'open-install') {
      const form = $<HTMLFormElement>('#install-form', app)!;
      form.hidden = !form.hidden;
      b.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) $<HTMLInputElement>('#i-street', form)!.focus();
    }
  },
  async submit(form) {
    if (form.id === 'install-form') await createJob(form);
  },
};
