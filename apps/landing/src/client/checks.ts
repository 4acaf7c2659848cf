/**
 * The checks the browser runs before sending, by what each field means: the inputs carry
 * `data-format` (email, phone, zip) and `aria-required`; a form's `data-one-of` names fields of
 * which at least one is needed. Same rule names as the API's problem bodies, so one catalogue
 * (messages.ts) words both. The API checks again: these only spare the visitor a round trip.
 */
export interface Issue {
  field: string;
  rule: string;
}

const digits = (v: string): string => v.replace(/\D/g, '');
/** North American numbers: an area code that starts 2-9, seven more digits, an optional leading 1. */
const nanp = (d: string): boolean => /^1?[2-9]\d{9}$/.test(d);

export const FORMATS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v),
  // A number with its area code, or any +country number of 8 to 15 digits (E.164).
  phone: (v) => /^\+?[0-9 ().-]+$/.test(v) && (v.startsWith('+') ? /^\d{8,15}$/.test(digits(v)) : nanp(digits(v))),
  zip: (v) => /^\d{5}(-\d{4})?$/.test(v),
};

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export function checkForm(form: HTMLFormElement): Issue[] {
  const issues: Issue[] = [];
  const value = (name: string): string => ((form.elements.namedItem(name) as Control | null)?.value ?? '').trim();
  for (const el of Array.from(form.elements) as Control[]) {
    if (!el.name || el.type === 'hidden' || el.type === 'checkbox') continue;
    const v = el.value.trim();
    const format = el.dataset.format;
    if (!v && el.getAttribute('aria-required') === 'true') issues.push({ field: el.name, rule: 'required' });
    else if (v && format && FORMATS[format] && !FORMATS[format](v)) issues.push({ field: el.name, rule: 'format' });
  }
  const oneOf = form.dataset.oneOf?.split(' ') ?? [];
  if (oneOf.length && oneOf.every((n) => !value(n)))
    for (const n of oneOf) issues.push({ field: n, rule: 'required_one_of' });
  return issues;
}
