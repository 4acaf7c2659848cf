/**
 * The company settings as the browser and the control plane both see them (GET/PUT
 * /api/tenants/{id}/settings), the branding upload's limits, and the WCAG contrast rule the
 * Company screen warns with and the API enforces (one formula, so they cannot disagree).
 */

/** Free text (null when unset) as the Company screen edits it. */
export const COMPANY_TEXT_FIELDS = [
  'company_name',
  'phone',
  'email',
  'address',
  'social_facebook',
  'social_instagram',
  'meta_title',
  'meta_description',
] as const;
/** What the plan's `custom_branding` gates (setting one; clearing never is). */
export const BRANDING_FIELDS = ['logo_url', 'favicon_url', 'primary_color', 'secondary_color'] as const;
export const COMPANY_SETTINGS_FIELDS = [
  ...COMPANY_TEXT_FIELDS,
  ...BRANDING_FIELDS,
  'time_zone',
  'currency',
  'helpdesk_enabled',
  'portal_enabled',
] as const;

export type CompanySettings = Record<
  (typeof COMPANY_TEXT_FIELDS)[number] | (typeof BRANDING_FIELDS)[number],
  string | null
> & {
  time_zone: string;
  currency: string;
  helpdesk_enabled: boolean;
  portal_enabled: boolean;
};

export const DEFAULT_TIME_ZONE = 'America/Denver';
export const DEFAULT_CURRENCY = 'USD';

/** What may be uploaded as a logo or favicon: bytes before re-encoding (413 beyond). */
export const BRANDING_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const BRANDING_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type BrandingImageKind = 'logo' | 'favicon';
/** A stored logo or favicon: its kind and the first 16 hex digits of its PNG's SHA-256. */
export const BRANDING_IMAGE_NAME = /^(logo|favicon)-[0-9a-f]{16}\.png$/;

/**
 * Where a page loads a stored logo or favicon: root-relative, through the control proxy of whichever
 * host of the tenant serves the page (custom domain or subdomain), so it is one same-origin URL.
 * The control plane answers it at /api/branding/{tenant}/{name}.
 */
export const brandingImagePath = (tenantId: string, name: string) =>
  `/api/control/api/branding/${encodeURIComponent(tenantId)}/${encodeURIComponent(name)}`;

/** WCAG 2.x AA for normal text: white text on a brand colour must reach this ratio. */
export const MIN_CONTRAST = 4.5;

function luminance(hex: string): number {
  const lin = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** The ratio of white text on `hex`, rounded down to one decimal as a person would quote it. */
export const contrastWithWhite = (hex: string) => Math.floor(contrast(hex, '#ffffff') * 10) / 10;

/** True when white text on `hex` is readable (AA, normal text). */
export const readsOnWhite = (hex: string) => contrast(hex, '#ffffff') >= MIN_CONTRAST;

/** The pages' dark text, which sits on the secondary colour (their background). */
export const PAGE_TEXT = '#1b1f23';
/** A background must be light: the pages' dark text on it reaches 7:1 (AAA), else they use a neutral one. */
export const MIN_BACKGROUND_CONTRAST = 7;
export const servesAsBackground = (hex: string) => contrast(hex, PAGE_TEXT) >= MIN_BACKGROUND_CONTRAST;
