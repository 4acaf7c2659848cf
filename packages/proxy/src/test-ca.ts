/**
 * A throwaway certificate authority for local runs and tests: an ECDSA P-256 root and server
 * certificates signed by it for given host names. Never used for real traffic (real tenant domains get
 * ACME certificates; the public hosts get the operator's).
 */
import { webcrypto } from 'node:crypto';

import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface PemPair {
  certPem: string;
  keyPem: string;
}

export interface TestCa extends PemPair {
  /** A server certificate for these names (the first is the subject), valid for `days`. */
  issue(hostnames: string[], days?: number): Promise<PemPair>;
}

async function keyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey), 'PRIVATE KEY');
}

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');

export async function createTestCa(name = 'Platform test CA'): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const now = Date.now();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 3650 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certPem: root.toString('pem'),
    keyPem: await keyPem(keys.privateKey),
    async issue(hostnames, days = 90) {
      const leafKeys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
      const t = Date.now();
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${hostnames[0]}`,
        issuer: root.subject,
        notBefore: new Date(t - DAY),
        notAfter: new Date(t + days * DAY),
        signingKey: keys.privateKey,
        publicKey: leafKeys.publicKey,
        signingAlgorithm: ALG,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(
            hostnames.map((h) =>
              /^[\d.]+$/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h },
            ),
          ),
          await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey),
        ],
      });
      return { certPem: `${leaf.toString('pem')}\n`, keyPem: await keyPem(leafKeys.privateKey) };
    },
  };
}
