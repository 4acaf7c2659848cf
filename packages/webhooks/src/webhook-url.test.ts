/**
 * Where a tenant's webhook may point: https to a public host; never the platform's own network
 * (loopback, private, link-local, shared, reserved, IPv4-mapped spellings of them), whether written as
 * an IP or resolved from the name at delivery; loopback receivers only where the setting allows them.
 */
import { describe, expect, it } from 'vitest';

import { addressAllowed, deliveryRefusal, webhookUrlAllowed } from './webhook-url.js';

describe('a webhook URL', () => {
  it('is accepted as https to a public host', () => {
    for (const url of ['https://hooks.example.com/in', 'https://93.184.215.14:8443/x', 'https://[2606:4700::1111]/x'])
      expect(webhookUrlAllowed(url, false), url).toBe(true);
  });

  it('is refused as http, with credentials, single-label, or at an internal address', () => {
    for (const url of [
      'http://hooks.example.com/in',
      'ftp://hooks.example.com/in',
      'https://u:p@hooks.example.com/in',
      'https://intranet/in',
      'https://10.1.2.3/in',
      'https://172.20.0.1/in',
      'https://192.168.1.1/in',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/in',
      'https://0.0.0.0/in',
      'https://[::1]/in',
      'https://[fe80::1]/in',
      'https://[fd12::1]/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://localhost/in',
      'http://127.0.0.1:8080/in',
      'not a url',
    ])
      expect(webhookUrlAllowed(url, false), url).toBe(false);
  });

  it('admits loopback receivers over http or https only where allowed, and still no other internal address', () => {
    for (const url of ['http://127.0.0.1:8080/in', 'http://localhost:3000/in', 'https://[::1]:9/in'])
      expect(webhookUrlAllowed(url, true), url).toBe(true);
    expect(webhookUrlAllowed('http://10.0.0.1/in', true)).toBe(false);
    expect(webhookUrlAllowed('http://hooks.example.com/in', true)).toBe(false);
    expect(addressAllowed('::ffff:10.0.0.1', true)).toBe(false);
  });
});

describe('at delivery', () => {
  const resolvesTo = (addresses: string[]) => async () => addresses;

  it('refuses a public name that resolves to an internal address, and passes one that resolves publicly', async () => {
    expect(await deliveryRefusal('https://hooks.example.com/in', false, resolvesTo(['10.0.0.7']))).toMatch(
      /10\.0\.0\.7/,
    );
    expect(
      await deliveryRefusal('https://hooks.example.com/in', false, resolvesTo(['93.184.215.14', '127.0.0.1'])),
    ).toMatch(/127\.0\.0\.1/);
    expect(await deliveryRefusal('https://hooks.example.com/in', false, resolvesTo(['93.184.215.14']))).toBeNull();
  });

  it('says so when the name does not resolve', async () => {
    const fails = async () => Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' }));
    expect(await deliveryRefusal('https://nowhere.example/in', false, fails)).toBe(
      'the name did not resolve (ENOTFOUND)',
    );
  });
});
