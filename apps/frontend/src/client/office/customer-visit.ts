/**
 * Booking a visit from a customer's page: a measuring visit (the usual first one), a service call or
 * an install, at the customer's address (editable), on a day or left under "Needs scheduling", with
 * a technician or not. POST /jobs with the job's `kind`; the new job's page opens.
 */
import type { CustomerView } from '@platform/contracts/customer.js';
import { JOB_KIND_NAMES, JOB_KINDS } from '@platform/contracts/job.js';

import { postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { errSlot, fieldProblems, showFieldErrors, type Technician } from './office-common.js';

export function visitForm(c: CustomerView, techs: Technician[]): string {
  const input = (k: 'street' | 'city' | 'zip', label: string, auto: string) =>
    `<div><label for="v-${k}">${label}</label><input id="v-${k}" data-field="address.${k}" value="${h(c.address[k] ?? '')}" autocomplete="${auto}" aria-describedby="v-${k}-err">${errSlot(`v-${k}`, `address.${k}`)}</div>`;
  const kinds = JOB_KINDS.map((k) => `<option value="${k}">${JOB_KIND_NAMES[k]}</option>`).join('');
  const opts = techs.map((t) => `<option value="${h(t.id)}">${h(t.name)}</option>`).join('');
  return `<h2>Book a visit</h2><form id="visit-form" class="card" novalidate><div class="fields">
<div><label for="v-kind">Visit</label><select id="v-kind">${kinds}</select></div>
${input('street', 'Street', 'street-address')}${input('city', 'City', 'address-level2')}${input('zip', 'ZIP', 'postal-code')}
<div><label for="v-date">Date (optional)</label><input id="v-date" type="date"></div><div><label for="v-time">Start time</label><input id="v-time" type="time" value="09:00"></div>
<div><label for="v-tech">Technician (optional)</label><select id="v-tech" data-field="technician_id" aria-describedby="v-tech-err"><option value="">Decide later</option>${opts}</select>${errSlot('v-tech', 'technician_id')}</div>
</div><p id="visit-msg" role="status"></p><button class="btn" type="submit">Book visit</button></form>`;
}

/** Makes the job; answers its id, or undefined when the form shows what to fix. */
export async function bookVisit(form: HTMLFormElement, c: CustomerView): Promise<string | undefined> {
  const v = (id: string) => $<HTMLInputElement>(`#${id}`, form)!.value.trim();
  const date = v('v-date');
  const start = date ? new Date(`${date}T${v('v-time') || '09:00'}`) : undefined;
  try {
    const job = await postJson<{ id: string }>('/jobs', {
      kind: v('v-kind'),
      partner_id: c.id,
      address: { street: v('v-street'), city: v('v-city'), zip: v('v-zip') },
      ...(start
        ? {
            scheduled_start: start.toISOString(),
            // A measuring visit takes about an hour; installs and repairs are rescheduled on the board.
            scheduled_end: new Date(start.getTime() + 3_600_000).toISOString(),
          }
        : {}),
      ...(v('v-tech') ? { technician_id: v('v-tech') } : {}),
    });
    return job.id;
  } catch (e) {
    const rest = showFieldErrors(form, fieldProblems(e));
    $('#visit-msg', form)!.textContent = rest.length ? rest.map((p) => p.message).join(' ') : 'Check the fields above.';
    $('#visit-msg', form)!.className = 'err';
    return undefined;
  }
}
