/**
 * The control plane's default ERP: ERP_URL, else the embedded ERP on ERP_PORT (npm start's), so that
 * `npm run tenants` run with npm start's variables on a non-default port reaches that ERP.
 */
import { describe, expect, it } from 'vitest';

import { loadControlConfig } from './control.config.js';

describe('ERP_URL default', () => {
  it('is the embedded ERP on port 8069 when neither ERP_URL nor ERP_PORT is set', () => {
    expect(loadControlConfig({}).ERP_URL).toBe('http://127.0.0.1:8069');
  });

  it('follows ERP_PORT when ERP_URL is unset or empty', () => {
    expect(loadControlConfig({ ERP_PORT: '18069' }).ERP_URL).toBe('http://127.0.0.1:18069');
    expect(loadControlConfig({ ERP_PORT: '18069', ERP_URL: '' }).ERP_URL).toBe('http://127.0.0.1:18069');
  });

  it('keeps an explicit ERP_URL, and ignores a port that names no fixed listener', () => {
    expect(loadControlConfig({ ERP_PORT: '18069', ERP_URL: 'https://erp.example.com' }).ERP_URL).toBe(
      'https://erp.example.com',
    );
    expect(loadControlConfig({ ERP_PORT: '0' }).ERP_URL).toBe('http://127.0.0.1:8069');
    expect(loadControlConfig({ ERP_PORT: 'x' }).ERP_URL).toBe('http://127.0.0.1:8069');
  });
});
