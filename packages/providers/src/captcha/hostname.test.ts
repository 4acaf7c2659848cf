/** The bot check's host-name allow-list: exact names, `*.example.com` wildcards, and what start-up refuses. */
import { describe, expect, it } from 'vitest';

import { hostnameAllowed, isHostnameAllowListEntry } from './hostname.js';

describe('hostnameAllowed', () => {
  const list = ['www.example.com', '*.tenants.localhost', 'localhost', '[::1]'];

  it.each([
    ['www.example.com', true],
    ['WWW.Example.COM:8443', true],
    ['www.example.com.', true],
    ['example.com', false],
    ['acme.tenants.localhost', true],
    ['acme.tenants.localhost:8001', true],
    ['a.b.tenants.localhost', true],
    ['tenants.localhost', false],
    ['.tenants.localhost', false],
    ['eviltenants.localhost', false],
    ['acme.tenants.localhost.evil.test', false],
    ['localhost', true],
    ['[::1]:8001', true],
    ['', false],
  ])('%s -> %s', (host, allowed) => {
    expect(hostnameAllowed(host, list)).toBe(allowed);
  });

  it('admits nothing under a wildcard when the list has none', () => {
    expect(hostnameAllowed('www.example.com', ['example.com'])).toBe(false);
  });
});

describe('isHostnameAllowListEntry', () => {
  it.each([
    'www.example.com',
    'localhost',
    '127.0.0.1',
    '[::1]',
    '*.example.com',
    '*.tenants.localhost',
    '*.localhost',
    'X.Example.com',
  ])('accepts %s', (entry) => expect(isHostnameAllowListEntry(entry)).toBe(true));

  it.each([
    '*',
    '*.com',
    '*example.com',
    'a.*.example.com',
    '**.example.com',
    'www.example.com:443',
    'http://x.com',
    '',
  ])('refuses %s', (entry) => expect(isHostnameAllowListEntry(entry)).toBe(false));
});
