/**
 * The attribution hidden fields: read from the landing URL by the site's script, posted with every
 * form, kept verbatim on the submission and carried to the ERP lead. Browser-safe (no imports).
 */
export const ATTRIBUTION_FIELDS = [
  'gclid',
  'gbraid',
  'wbraid',
  // Meta's click id (`?fbclid=`): a won order sends it back as the `fbc` of its Purchase event.
  'fbclid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'lp_slug',
] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Partial<Record<AttributionField, string>>;
