/**
 * The words a `form_source` value is made of: trigger suffixes, the QA force suffix, LP v2 placements,
 * the legacy default. The parser reads values with them and the site writes values with them.
 * Constants only, no regular expressions or Node: the site's browser bundle imports this module directly
 * (`@platform/attribution/form-source.vocabulary.js`), so it must stay small and browser-safe.
 */

/** What opens the L2 popup on its own; the popup appends `_<trigger>` to its template value. */
export const POPUP_TRIGGERS = ['scroll', 'dwell', 'exit', 'footer'] as const;
export type PopupTrigger = (typeof POPUP_TRIGGERS)[number];
/** Trigger suffixes the L2 popup appends to its template value at submit time. */
export const L2_TRIGGER_SUFFIXES = [
  '_scroll',
  '_dwell',
  '_exit',
  '_footer',
] as const satisfies readonly `_${PopupTrigger}`[];

/** Appended when QA forces the popup open (instead of, or after, a trigger suffix). */
export const FORCE_SUFFIX = '_force';
/** What opened the popup: one of its triggers, or QA's `?lp_popup=force`. */
export type PopupOpener = PopupTrigger | 'force';
/** The suffix the popup's form appends to its template value for what opened it. */
export const popupSuffix = (opener: PopupOpener): string => (opener === 'force' ? FORCE_SUFFIX : `_${opener}`);

/** Appended by the L3 phone fallback; puts the lead in the callback queue. */
export const CALLBACK_SUFFIX = '_phone1';
/** What an inline form sends when its caller gives no value (and what absent/empty means). */
export const LEGACY_DEFAULT = 'lp_form_legacy';

/** The three forms of an LP v2 page: `lp-<slug>_<placement>`. */
export const LP_PLACEMENTS = ['hero', 'second-cta', 'bottom-bar'] as const;
export type LpPlacement = (typeof LP_PLACEMENTS)[number];
