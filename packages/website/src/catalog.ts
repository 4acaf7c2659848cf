/**
 * The website's catalogue from the tenant's own records (docs/website.md): a product per price grid
 * ("from" its smallest cell), a service area per branch. The control plane reads the grids and the
 * branches through their owners' services and hands them here; this module only shapes them.
 */
import { toMinor } from '@platform/contracts/money.js';
import type { WebsiteArea, WebsiteCatalog, WebsiteContent, WebsiteProduct } from '@platform/contracts/website.js';

export interface CatalogGrid {
  product_code: string;
  name: string;
  /** Prices in major units (the grids' own unit), rows of drops by columns of widths. */
  bands: { prices: number[][] };
}

export interface CatalogBranch {
  id: string;
  name: string;
  zip_codes: string[];
  phone: string | null;
  address: string | null;
}

/** `Blinds & Shades – North!` → `blinds-shades-north`; empty names become `area`. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'area';
}

export function buildWebsiteCatalog(grids: CatalogGrid[], branches: CatalogBranch[], currency: string): WebsiteCatalog {
  const products: WebsiteProduct[] = grids.map((g) => {
    const cells = g.bands.prices.flat().filter((p) => Number.isFinite(p) && p >= 0);
    return {
      code: g.product_code,
      name: g.name,
      // Minor units of the tenant's currency: cents, or none for a currency without them (JPY).
      from_minor: cells.length ? toMinor(Math.min(...cells), currency) : null,
      currency,
    };
  });
  const taken = new Set<string>();
  const areas: WebsiteArea[] = branches.map((b) => {
    const base = slugify(b.name);
    let slug = base;
    // Two branch names may slug alike ("North" and "north!"): later ones get -2, -3…
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return { slug, name: b.name, zip_codes: b.zip_codes, phone: b.phone, address: b.address, branch_id: b.id };
  });
  return { products, areas };
}

/**
 * What the site shows of the catalogue under the owner's choices: the chosen products (all when none
 * is chosen), prices only when shown, the chosen areas (else every branch that serves ZIP codes).
 */
export function shownCatalog(catalog: WebsiteCatalog, content: WebsiteContent): WebsiteCatalog {
  const products = catalog.products
    .filter((p) => !content.products_shown.length || content.products_shown.includes(p.code))
    .map((p) => (content.show_prices ? p : { ...p, from_minor: null }));
  const areas = catalog.areas.filter((a) =>
    content.areas_shown.length ? !!a.branch_id && content.areas_shown.includes(a.branch_id) : a.zip_codes.length > 0,
  );
  return { products, areas };
}
