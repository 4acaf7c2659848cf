/**
 * The API references the docs site renders (Scalar, bundled locally). Each entry is one OpenAPI
 * description; adding the control plane's is one line here (see docs/docs-site.md). The descriptions
 * are imported lazily: the VitePress config reads this list for its menus without loading the apps.
 */
export interface ApiReference {
  /** Page `/api/<slug>.html`, description `/api/openapi/<slug>.json`. */
  slug: string;
  title: string;
  spec(): Promise<Record<string, unknown>>;
}

export const API_REFERENCES: ApiReference[] = [
  {
    slug: 'erp-rest',
    title: 'ERP REST API',
    spec: async () =>
      (await import('@platform/app-erp/features/restapi/openapi.js')).buildOpenApi('http://localhost:8069'),
  },
  {
    slug: 'public',
    title: 'Public landing API',
    spec: async () =>
      (await import('@platform/app-landing/features/openapi/openapi.js')).buildLandingOpenApi('http://localhost:8001'),
  },
  {
    slug: 'control-plane',
    title: 'Control plane API',
    spec: async () =>
      (await import('@platform/app-control/openapi/control-openapi.js')).buildControlPlaneOpenApi(
        'http://localhost:8003',
      ),
  },
];
