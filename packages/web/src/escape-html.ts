/**
 * The one HTML escaper: server-rendered pages, emails, ERP chatter bodies and the client bundles all
 * escape text through it. Browser-safe (no imports). `'` becomes `&#39;` so a value is safe inside a
 * single- or double-quoted attribute as well as in text.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
