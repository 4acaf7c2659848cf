/** /office/search?q=: customers, leads, quotes and jobs matching the header's search (GET /search). */
import type { OfficeSearchResult } from '@platform/contracts/customer.js';

import { call } from '../field/api.js';
import { h, timeWindow } from '../shared/dom.js';
import { money } from './office-common.js';
import type { OfficePage } from './office-page.js';

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : new Date().toISOString().slice(0, 10));
const section = (title: string, items: string[]) =>
  items.length ? `<h2>${title} (${items.length})</h2><ul class="plain card">${items.join('')}</ul>` : '';

export function searchHtml(q: string, r: OfficeSearchResult): string {
  const customers = r.customers.map(
    (c) =>
      `<li><a href="/office/customers/${c.id}">${h(c.name)}</a> <span class="muted">${h([c.phone, c.email].filter(Boolean).join(' · '))}</span></li>`,
  );
  const leads = r.leads.map(
    (l) =>
      `<li><a href="/office/leads">${h(l.contact_name ?? l.name)}</a> ${h(l.name)} ${l.stage ? `<span class="pill">${h(l.stage)}</span>` : ''}</li>`,
  );
  const quotes = r.quotes.map(
    (q) =>
      `<li>${q.quote_id ? `<a href="/office/quotes/${h(q.quote_id)}">${h(q.name)}</a>` : h(q.name)} ${h(q.customer ?? '')} <span class="pill">${h(q.state)}</span> ${money(q.amount_total)}</li>`,
  );
  const jobs = r.jobs.map(
    (j) =>
      `<li><a href="/office/dispatch?view=day&day=${h(day(j.scheduled_start))}">${h(j.name)}</a> ${h(j.customer ?? '')} <span class="pill">${h(j.stage ?? '')}</span> ${h(timeWindow(j.scheduled_start, null))}</li>`,
  );
  const found = customers.length + leads.length + quotes.length + jobs.length;
  return `<h1>Search: “${h(q)}”</h1><p id="office-msg" role="status">${
    found
      ? `${found} found.`
      : `Nothing matches “${h(q)}”. Try part of a name, a phone number (any punctuation), an email, a street, or an order reference such as S00012 or FSO00003.`
  }</p>${section('Customers', customers)}${section('Leads', leads)}${section('Quotes', quotes)}${section('Jobs', jobs)}`;
}

export const searchPage: OfficePage = {
  async show(app) {
    const q = new URLSearchParams(location.search).get('q')?.trim() ?? '';
    if (q.length < 2) {
      app.innerHTML =
        '<h1>Search</h1><p id="office-msg" role="status">Type at least 2 characters in Search above: a name, phone, email or order reference.</p>';
      return;
    }
    app.innerHTML = searchHtml(q, await call<OfficeSearchResult>(`/search?q=${encodeURIComponent(q)}`));
  },
};
