/** The customers list and a customer's page as HTML (GET /customers, GET /customers/{id}). */
import type { CustomerMessage, CustomerSummary, CustomerView } from '@platform/contracts/customer.js';

import { h, timeWindow } from '../shared/dom.js';
import { errSlot, money } from './office-common.js';

const addressLine = (c: CustomerSummary) =>
  [c.address.street, c.address.city, c.address.zip].filter(Boolean).join(', ');
const tel = (phone: string | null) => (phone ?? '').replace(/[^+\d]/g, '');
const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : '');

export function customersListHtml(items: CustomerSummary[], total: number, q: string): string {
  const rows = items
    .map(
      (c) =>
        `<li class="card"><a href="/office/customers/${c.id}" style="font-weight:700">${h(c.name || 'No name')}</a>
<div>${[c.phone, c.email].filter(Boolean).map(h).join(' · ') || '<span class="muted">No phone or email</span>'}</div>
<div class="muted">${h(addressLine(c)) || 'No address'}</div></li>`,
    )
    .join('');
  const empty = q
    ? `<p class="card">No customer matches “${h(q)}”. Try part of the name, a phone number (any punctuation), an email or a street.</p>`
    : '<p class="card">No customers yet. A customer appears here when a web lead is converted, a quote is made or a job is booked (Leads, Quotes, Dispatch).</p>';
  return `<h1>Customers</h1>
<form id="customer-search" role="search" aria-label="Search customers" class="row nowrap" style="margin-bottom:1rem"><label class="visually-hidden" for="customer-q">Search customers</label><input id="customer-q" name="q" type="search" value="${h(q)}" placeholder="Name, phone, email or address" maxlength="100"><button class="btn" type="submit">Search</button></form>
<p id="office-msg" role="status">${q ? `${total} found for “${h(q)}”.` : `${total} customer${total === 1 ? '' : 's'}.`}</p>
${rows ? `<ul class="plain">${rows}</ul>` : empty}`;
}

const section = (title: string, body: string, empty: string) =>
  `<h2>${title}</h2>${body ? `<ul class="plain card">${body}</ul>` : `<p class="card muted">${empty}</p>`}`;

const messageItem = (m: CustomerMessage) =>
  `<li style="margin-bottom:.5rem"><div style="white-space:pre-line">${h(m.body)}</div><div class="muted">${h(
    [m.author, m.at ? new Date(m.at).toLocaleString() : '', m.on === 'lead' ? 'on a lead' : '']
      .filter(Boolean)
      .join(' · '),
  )}</div></li>`;

function duplicatesHtml(c: CustomerView, armed: number | undefined): string {
  if (!c.duplicates.length) return '';
  const rows = c.duplicates
    .map(
      (d) =>
        `<li style="margin-bottom:.75rem"><a href="/office/customers/${d.id}">${h(d.name || 'No name')}</a> <span class="muted">same ${h(
          d.matched_on.join(' and '),
        )}: ${h([d.phone, d.email, addressLine(d)].filter(Boolean).join(' · '))}</span>
<div class="row" style="margin-top:.35rem"><button class="btn${armed === d.id ? '' : ' secondary'}" type="button" data-merge="${d.id}">${
          armed === d.id
            ? `Confirm: merge ${h(d.name)} into ${h(c.name)}`
            : `Merge into this customer<span class="visually-hidden">: ${h(d.name)}</span>`
        }</button></div></li>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="dups-h"><h2 id="dups-h" style="margin-top:0">Possible duplicates</h2><p>These customers have the same phone or email. Merging moves their leads, quotes and jobs here and archives them.</p><ul class="plain">${rows}</ul></section>`;
}

export function customerHtml(c: CustomerView, msg = '', kind: 'ok' | 'err' | '' = '', armed?: number): string {
  const phone = tel(c.phone);
  const leads = c.leads
    .map(
      (l) =>
        `<li><a href="/office/leads">${h(l.name)}</a> <span class="pill">${h(l.stage ?? l.type)}</span> <span class="muted">${h(day(l.created))}</span></li>`,
    )
    .join('');
  const quotes = c.quotes
    .map(
      (q) =>
        `<li>${q.quote_id ? `<a href="/office/quotes/${h(q.quote_id)}">${h(q.name)}</a>` : h(q.name)} <span class="pill">${h(q.state)}</span> ${money(q.amount_total)}</li>`,
    )
    .join('');
  const jobs = c.jobs
    .map(
      (j) =>
        `<li>${
          j.scheduled_start
            ? `<a href="/office/dispatch?view=day&day=${h(j.scheduled_start.slice(0, 10))}">${h(j.name)}</a>`
            : h(j.name)
        } <span class="pill">${h(j.stage ?? '')}</span> ${h(timeWindow(j.scheduled_start, null))}${j.technician ? ` · ${h(j.technician)}` : ''}</li>`,
    )
    .join('');
  return `<p><a href="/office/customers">← Customers</a></p><h1>${h(c.name || 'No name')}</h1>
<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<section class="card" aria-label="Contact"><div class="row">${
    phone
      ? `<a class="btn secondary" href="tel:${h(phone)}">Call ${h(c.phone)}</a>`
      : '<span class="muted">No phone</span>'
  }${c.email ? `<a class="btn secondary" href="mailto:${h(c.email)}">Email ${h(c.email)}</a>` : '<span class="muted">No email</span>'}</div>
<p style="margin-bottom:0">${h(addressLine(c)) || '<span class="muted">No address</span>'}</p>
<div class="row" style="margin-top:.5rem"><a class="btn" href="/office/quotes/new">New quote</a></div></section>
${duplicatesHtml(c, armed)}
${section('Leads', leads, 'No leads. Web forms and calls for this customer show here.')}
${section('Quotes', quotes, 'No quotes yet: start one with New quote.')}
${section('Jobs', jobs, 'No jobs yet: book a measuring visit below, or schedule the install of an accepted quote.')}
${section('Messages', c.messages.map(messageItem).join(''), 'No messages. Texts from this customer show here.')}
${section('Notes', c.notes.map(messageItem).join(''), 'No notes yet: add one below.')}
<form id="note-form" class="card"><label for="customer-note">Add a note</label><textarea id="customer-note" data-field="body" aria-describedby="customer-note-err" maxlength="10000"></textarea>${errSlot('customer-note', 'body')}<button class="btn" type="submit" style="margin-top:.5rem">Save note</button></form>`;
}
