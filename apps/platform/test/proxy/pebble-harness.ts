/**
 * Test harness: Debian's pebble (Let's Encrypt's ACME test server) as the real ACME peer, with a
 * small DNS server (dns2) that answers 127.0.0.1 for the test domains, so pebble's http-01 validation
 * connects to our proxy's port 80 listener. Names listed as `nxdomain` do not resolve (a refusal).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestCa } from '@platform/proxy';
import { freePort } from '@platform/proxy/test-support/net.js';
import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 RCODE 3 (dns2's typings lack Packet.RCODE). */
const NXDOMAIN = 3;

export interface Pebble {
  directoryUrl: string;
  /** The CA of pebble's own HTTPS listener (for the ACME client). */
  listenerCaPem: string;
  /** Pebble's issuing root (regenerated each launch), for verifying the certificates it issues. */
  issuingRoot(): Promise<string>;
  nxdomain: Set<string>;
  close(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`pebble exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`pebble did not listen: ${log()}`);
}

export async function startPebble(opts: { httpPort: number; bin?: string }): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'));
  const nxdomain = new Set<string>();
  const dns = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (req, send) => {
      const res = Packet.createResponseFromRequest(req);
      const q = req.questions[0];
      if (q && nxdomain.has(q.name.toLowerCase())) (res.header as { rcode: number }).rcode = NXDOMAIN;
      else if (q && q.type === Packet.TYPE.A)
        res.answers.push({
          name: q.name,
          type: Packet.TYPE.A,
          class: Packet.CLASS.IN,
          ttl: 1,
          address: '127.0.0.1',
        } as unknown as (typeof res.answers)[number]);
      // A lost UDP answer makes pebble retry the lookup; nothing here to recover.
      void send(res);
    },
  });
  const dnsPort = await freePort();
  await dns.listen({ udp: { port: dnsPort, address: '127.0.0.1' }, tcp: { port: dnsPort, address: '127.0.0.1' } });

  const ca = await createTestCa('pebble listener CA');
  const listener = await ca.issue(['localhost', '127.0.0.1']);
  writeFileSync(join(dir, 'cert.pem'), listener.certPem);
  writeFileSync(join(dir, 'key.pem'), listener.keyPem);
  const [acmePort, mgmtPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(dir, 'pebble-config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${mgmtPort}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort: opts.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child = spawn(
    opts.bin ?? 'pebble',
    ['-config', join(dir, 'pebble-config.json'), '-dnsserver', `127.0.0.1:${dnsPort}`],
    {
      env: {
        ...process.env,
        PEBBLE_VA_NOSLEEP: '1',
        PEBBLE_VA_ALWAYS_VALID: '0',
        PEBBLE_WFE_NONCEREJECT: '0',
        PEBBLE_AUTHZREUSE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(acmePort, child, () => log);
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    listenerCaPem: ca.certPem,
    nxdomain,
    issuingRoot: () =>
      new Promise((resolve, reject) => {
        request(
          { host: '127.0.0.1', port: mgmtPort, path: '/roots/0', ca: ca.certPem, servername: 'localhost' },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve(body));
          },
        )
          .on('error', reject)
          .end();
      }),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await dns.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
