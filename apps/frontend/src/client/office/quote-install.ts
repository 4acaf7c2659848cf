/**
 * The install job of a quote: POST /jobs with the quote's customer (partner_id), its sale order and
 * its windows, at an address the office confirms. Without a date the job is left unscheduled (stage
 * `new`), for the dispatch board's "Needs scheduling".
 */
import type { InstallDefaults, Quote } from './quote.view.js';

/** The install form starts at the quote's site address (kept with the quote on the control plane). */
export function addressOf(q: Quote): InstallDefaults {
  return { street: q.customer?.street ?? '', city: q.customer?.city ?? '', zip: q.customer?.zip ?? '' };
}

/** The job's windows from the quote's lines (the product's name is the description's first part). */
export function windowsOf(q: Quote) {
  return q.lines.flatMap((l) =>
    l.room && l.width_in && l.drop_in && (l.mount === 'inside' || l.mount === 'outside')
      ? [
          {
            room: l.room,
            product: (l.description.split(' – ')[0] ?? '').trim() || (l.product_code ?? 'Window covering'),
            width_in: l.width_in,
            drop_in: l.drop_in,
            mount: l.mount,
            colour: l.colour ?? '',
          },
        ]
      : [],
  );
}

export interface InstallChoice {
  street: string;
  city: string;
  zip: string;
  state: string;
  date: string;
  time: string;
  hours: number;
  technicianId: string;
}

/** The POST /jobs body: a start and end only when a date is chosen. */
export function installBody(q: Quote, c: InstallChoice) {
  const start = c.date ? new Date(`${c.date}T${c.time || '09:00'}`) : undefined;
  return {
    partner_id: q.partner!.id,
    sale_order_id: q.sale_order_id!,
    address: {
      street: c.street.trim(),
      city: c.city.trim(),
      zip: c.zip.trim(),
      ...(c.state.trim() ? { state: c.state.trim() } : {}),
    },
    windows: windowsOf(q),
    ...(start
      ? {
          scheduled_start: start.toISOString(),
          scheduled_end: new Date(start.getTime() + c.hours * 3_600_000).toISOString(),
        }
      : {}),
    ...(c.technicianId ? { technician_id: c.technicianId } : {}),
  };
}

const ADDRESS_PARTS: [keyof InstallChoice & ('street' | 'city' | 'zip'), string][] = [
  ['street', 'Type the street and number where the windows are.'],
  ['city', 'Type the city of the install.'],
  ['zip', 'Type the ZIP code of the install.'],
];

/** The install form's own check before anything is sent: each missing part of the address, in words. */
export function missingAddress(c: InstallChoice): { field: string; rule: string; message: string }[] {
  return ADDRESS_PARTS.filter(([k]) => !c[k].trim()).map(([k, message]) => ({
    field: `address.${k}`,
    rule: 'required',
    message,
  }));
}
