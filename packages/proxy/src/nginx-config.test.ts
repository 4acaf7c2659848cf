/** What goes into nginx.conf from the environment, without running nginx (the real-nginx suites are npm run test:proxy). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { renderNginxConf, renderTenantSites } from './nginx-config.js';
import { loadProxyConfig } from './proxy.config.js';
import { layoutFromConfig } from './proxy-dir.js';

const layout = (env: Record<string, string> = {}) =>
  layoutFromConfig(loadProxyConfig({ PROXY_DIR: '/srv/proxy', ...env }), '/srv/proxy');

describe('proxy configuration for tenant hosts', () => {
  it('serves *.TENANTS_HOST on the wildcard certificate beside the public hosts by default', () => {
    const conf = renderNginxConf(layout({ TENANTS_HOST: 'tenants.example.com' }));
    expect(conf).toContain('server_name *.tenants.example.com;');
    expect(conf).toContain('ssl_certificate /srv/proxy/certs/wildcard.tenants.example.com.crt;');
    expect(conf).toContain('upstream tenant_frontend {\n    server 127.0.0.1:8000;');
  });

  it("leaves tenant subdomains out, and keeps the rest, while the operator's certificate directory has no wildcard", () => {
    const certs = mkdtempSync(join(tmpdir(), 'proxy-certs-'));
    try {
      const without = renderNginxConf(layout({ TENANTS_HOST: 'tenants.example.com', PROXY_CERT_DIR: certs }));
      expect(without).not.toContain('*.tenants.example.com');
      expect(without).toContain('server_name www.example.test;');
      writeFileSync(join(certs, 'wildcard.tenants.example.com.crt'), 'cert');
      const withIt = renderNginxConf(layout({ TENANTS_HOST: 'tenants.example.com', PROXY_CERT_DIR: certs }));
      expect(withIt).toContain('server_name *.tenants.example.com;');
    } finally {
      rmSync(certs, { recursive: true, force: true });
    }
  });

  it("takes the operator's wildcard certificate files when given", () => {
    const conf = renderNginxConf(
      layout({ TENANTS_WILDCARD_CERT: '/etc/ssl/wild.pem', TENANTS_WILDCARD_KEY: '/etc/ssl/private/wild.key' }),
    );
    expect(conf).toContain('ssl_certificate /etc/ssl/wild.pem;');
    expect(conf).toContain('ssl_certificate_key /etc/ssl/private/wild.key;');
  });

  it('gives a tenant domain the frontend paths with their own body limits and the rest to the landing host', () => {
    const conf = renderTenantSites(layout(), [{ domain: 'shop.example.org', certFile: '/c', keyFile: '/k' }]);
    expect(conf).toMatch(
      /location \^~ \/portal\/ \{\n {6}client_max_body_size 64k;\n {6}proxy_pass http:\/\/tenant_frontend;/,
    );
    expect(conf).toMatch(/location \^~ \/api\/control\/ \{\n {6}client_max_body_size 15m;/);
    expect(conf).toMatch(/location \/ \{\n {6}client_max_body_size 16k;\n {6}proxy_pass http:\/\/tenant_sites;/);
  });

  it('refuses a tenants host or certificate path that could smuggle nginx directives', () => {
    expect(() => layout({ TENANTS_HOST: 'x.test; include /etc/passwd' })).toThrow(ConfigError);
    expect(() => layout({ TENANTS_WILDCARD_CERT: '/x.crt; include /etc/passwd' })).toThrow(ConfigError);
    expect(() => layout({ TENANTS_WILDCARD_KEY: '/x.key}' })).toThrow(ConfigError);
  });

  it('sends only POST /webhooks/payments on the ERP host to the control plane (CONTROL_UPSTREAM), with its own body limit', () => {
    const conf = renderNginxConf(layout({ CONTROL_UPSTREAM: '10.0.0.5:9003' }));
    expect(conf).toContain('upstream control_payments {\n    server 10.0.0.5:9003;');
    const erpServer = conf.slice(conf.indexOf('server_name erp.example.test;'));
    const route = erpServer.slice(
      erpServer.indexOf('location = /webhooks/payments'),
      erpServer.indexOf('location / {'),
    );
    expect(route).toContain('limit_except POST');
    expect(route).toContain('client_max_body_size 256k;');
    expect(route).toContain('proxy_pass http://control_payments;');
    expect(conf.match(/location = \/webhooks\/payments/g)).toHaveLength(1);
  });
});
