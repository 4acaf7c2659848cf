/**
 * /office/customers (search: the query stays in the address, ?q=) and /office/customers/:id (the
 * customer with leads, quotes, jobs, messages and notes; add a note; merge a duplicate, confirmed
 * by a second press of the same button).
 */
import type { CustomerSummary, CustomerView } from '@platform/contracts/customer.js';
import type { AutoMessages } from '@platform/contracts/messages.js';

import { call, postJson } from '../field/api.js';
import { $ } from '../shared/dom.js';
import { autoMessagesHtml } from './customer-messages.view.js';
import { bookVisit, visitForm } from './customer-visit.js';
import { customerHtml, customersListHtml } from './customers.view.js';
import {
  clearFieldErrors,
  explain,
  fieldProblems,
  say,
  showFieldErrors,
  type Technician,
  technicians,
} from './office-common.js';
import type { OfficePage } from './office-page.js';

const query = () => new URLSearchParams(location.search).get('q')?.trim() ?? '';

export const customersPage: OfficePage = {
  async show(app) {
    const q = query();
    const list = await call<{ items: CustomerSummary[]; total: number }>(
      `/customers?page_size=50${q ? `&q=${encodeURIComponent(q)}` : ''}`,
    );
    app.innerHTML = customersListHtml(list.items, list.total, q);
  },
  async submit(form, app) {
    if (form.id !== 'customer-search') return;
    const q = $<HTMLInputElement>('#customer-q', form)!.value.trim();
    history.replaceState(null, '', q ? `/office/customers?q=${encodeURIComponent(q)}` : '/office/customers');
    await this.show(app);
    $<HTMLInputElement>('#customer-q')?.focus();
  },
};

const customerId = () => Number(/^\/office\/customers\/(\d+)$/.exec(location.pathname)?.[1]);
/** The duplicate whose merge button was pressed once (the second press merges). */
let armed: number | undefined;
/** The customer on screen (booking a visit needs their partner id). */
let shown: CustomerView | undefined;
let shownTechs: Technician[] = [];
/** Their automatic messages (docs/messages.md), shown under the page. */
let shownMessages = '';

export const customerPage: OfficePage = {
  async show(app, msg = '') {
    const [c, techs, messages] = await Promise.all([
      call<CustomerView>(`/customers/${customerId()}`),
      technicians().catch(() => []),
      call<AutoMessages>(`/customers/${customerId()}/messages`).catch(() => undefined),
    ]);
    [shown, shownTechs, shownMessages] = [c, techs, autoMessagesHtml(messages)];
    app.innerHTML = customerHtml(c, msg, msg ? 'ok' : '', armed) + visitForm(c, techs) + shownMessages;
  },
  async submit(form, app) {
    if (form.id === 'visit-form' && shown) {
      const id = await bookVisit(form, shown);
      if (id) location.assign(`/office/jobs/${encodeURIComponent(id)}`);
      return;
    }
    if (form.id === 'channel-form') {
      const channel = $<HTMLSelectElement>('#msg-channel', form)!.value;
      await call(`/customers/${customerId()}/message-channel`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel }),
      })
        .then(() => this.show(app, 'Message preference saved.'))
        .catch((e: unknown) => say(explain(e), 'office-msg', 'err'));
      return;
    }
    if (form.id !== 'note-form') return;
    const body = $<HTMLTextAreaElement>('#customer-note', form)!.value.trim();
    clearFieldErrors(form);
    if (!body) {
      showFieldErrors(form, [{ field: 'body', message: 'Write the note first.' }]);
      return;
    }
    try {
      const c = await postJson<CustomerView>(`/customers/${customerId()}/notes`, { body });
      app.innerHTML = customerHtml(c, 'Note saved.', 'ok') + visitForm(c, shownTechs) + shownMessages;
    } catch (e) {
      if (!showFieldErrors(form, fieldProblems(e)).length && fieldProblems(e).length) return;
      say(explain(e), 'office-msg', 'err');
    }
  },
  async click(b, app) {
    const dup = Number(b.dataset.merge);
    if (!dup) return;
    if (armed !== dup) {
      armed = dup;
      await this.show(app);
      $<HTMLButtonElement>(`button[data-merge="${dup}"]`)?.focus();
      return;
    }
    armed = undefined;
    const c = await postJson<CustomerView>(`/customers/${customerId()}/merge`, { duplicate_id: dup });
    shown = c;
    app.innerHTML =
      customerHtml(c, 'Merged: their leads, quotes and jobs are now here.', 'ok') +
      visitForm(c, shownTechs) +
      shownMessages;
  },
};
