/** Attribution hidden fields: read from the landing URL, kept in sessionStorage for the visit. */
import { type Attribution, ATTRIBUTION_FIELDS as ATTRIBUTION_KEYS } from '@platform/contracts/attribution-fields.js';

import { get, set } from './storage.js';

export type { Attribution };

const STORE_KEY = 'site_attribution';
const MAX_LEN = 200;

/**
 * Values in the URL overwrite stored ones key by key. `lp_slug` also comes from the page itself
 * (LP pages), but only when that page starts the visit: a visitor who wanders onto an LP page
 * from the main site is not an LP lead.
 */
export function captureAttribution(search: string, pageLpSlug: string | undefined): Attribution {
  const raw = get('session', STORE_KEY);
  let stored: Attribution | null;
  try {
    stored = raw ? (JSON.parse(raw) as Attribution) : null;
  } catch {
    stored = null;
  }
  const params = new URLSearchParams(search);
  const fresh: Attribution = {};
  for (const k of ATTRIBUTION_KEYS) {
    const v = params.get(k)?.trim();
    if (v) fresh[k] = v.slice(0, MAX_LEN);
  }
  if (stored === null && pageLpSlug && !fresh.lp_slug) fresh.lp_slug = pageLpSlug;
  const merged = { ...(stored ?? {}), ...fresh };
  set('session', STORE_KEY, JSON.stringify(merged));
  return merged;
}

export function fillHiddenFields(root: ParentNode, values: Attribution): void {
  for (const k of ATTRIBUTION_KEYS) {
    const v = values[k];
    if (!v) continue;
    root.querySelectorAll<HTMLInputElement>(`input[type=hidden][name="${k}"]`).forEach((el) => {
      el.value = v;
    });
  }
}
