/**
 * A tenant's public website (docs/website.md): what the owner edits in the console's Website area
 * (`WebsiteContent`, kept as versions: a draft, the published one and the ones before it), the facts
 * the control plane derives from the tenant's own records (`WebsiteCatalog`: products from its price
 * grids, service areas from its branches) and the `WebsiteSnapshot` the landing host renders a
 * tenant's site from. Text fields are plain text: the site escapes them, and a blank line starts a
 * new paragraph; no markup of any kind reaches a page.
 */

export const WEBSITE_LIMITS = {
  shortText: 120,
  longText: 4000,
  faqEntries: 40,
  galleryItems: 24,
  /** Bytes of an uploaded gallery image before it is re-encoded. */
  imageBytes: 5 * 1024 * 1024,
} as const;

export interface WebsiteGalleryItem {
  /** Object-store key of the re-encoded image (WebP), served by the landing host at /media/{key}. */
  image_key: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
}

export interface WebsiteFaqEntry {
  q: string;
  a: string;
}

/** What the owner writes. Every field has a sensible default, so a new tenant's site is never empty. */
export interface WebsiteContent {
  hero: { title: string; lead: string; cta: string };
  tagline: string;
  /** Opening hours as one line ("Mon–Fri 8am–6pm"); empty hides it. */
  hours: string;
  about: { title: string; body: string };
  faq: WebsiteFaqEntry[];
  gallery: WebsiteGalleryItem[];
  /** Product codes (price grid `product_code`) shown on the site; empty shows every product. */
  products_shown: string[];
  /** Whether product pages say "from $X" (the grid's smallest cell). */
  show_prices: boolean;
  /** Branch ids whose service areas get a page; empty shows every branch that serves ZIP codes. */
  areas_shown: string[];
}

export interface WebsiteProduct {
  /** The price grid's product code, also the page's slug: /products/{code}. */
  code: string;
  name: string;
  /** Smallest price of the grid in minor units of `currency`; null when the tenant hides prices. */
  from_minor: number | null;
  currency: string;
}

export interface WebsiteArea {
  /** Page slug: /areas/{slug}, from the branch's name. */
  slug: string;
  name: string;
  zip_codes: string[];
  phone: string | null;
  address: string | null;
  /** The branch it comes from (what `areas_shown` names); optional, added after the first contract. */
  branch_id?: string;
}

export interface WebsiteCatalog {
  products: WebsiteProduct[];
  areas: WebsiteArea[];
}

/** The company facts the site shows, from the tenant's settings (the Company screen). */
export interface WebsiteCompany {
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  logo_url: string | null;
  favicon_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  social_facebook: string | null;
  social_instagram: string | null;
  meta_title: string | null;
  meta_description: string | null;
  helpdesk_enabled: boolean;
}

/** Everything the landing host needs to render one tenant's site, read once and cached per process. */
export interface WebsiteSnapshot {
  tenant_id: string;
  /** The published version's number, 0 while nothing was published (defaults are shown). */
  version: number;
  content: WebsiteContent;
  catalog: WebsiteCatalog;
  company: WebsiteCompany;
  /** The tenant's primary host (custom domain when active, else `<slug>.<TENANTS_HOST>`), for canonical URLs. */
  primary_host: string;
  /** The tenant's own Meta pixel id, when it set one (its Conversions API token never leaves the server). */
  meta_pixel_id: string | null;
}

/** GET /api/tenants/{id}/website: the editor's view. */
export interface WebsiteEditorView {
  draft: WebsiteContent;
  /** The published version, null while nothing was published. */
  published: { version: number; published_at: string; content: WebsiteContent } | null;
  /** Earlier published versions, newest first, that a rollback can restore. */
  history: { version: number; published_at: string }[];
  catalog: WebsiteCatalog;
  /** The tenant's site (its primary host's origin), for the editor's "View site" link; added after the first contract. */
  site_url?: string;
}

/** GET/PUT /api/tenants/{id}/website/tracking: the site's Meta pixel; the Conversions API token is never answered. */
export interface WebsiteTrackingView {
  meta_pixel_id: string | null;
  meta_capi_token_set: boolean;
}

/** POST /api/tenants/{id}/website/preview: where the draft is shown on the tenant's host (a short-lived link). */
export interface WebsitePreviewLink {
  url: string;
  expires_at: string;
}
