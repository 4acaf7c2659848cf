/**
 * The seams of certificate issuance. The control plane plugs in here: it lists the custom domains
 * whose CNAME it has seen (CertificateCandidates) and sets `ssl_status` when told (CertificateEvents).
 * The ACME client and the proxy sit behind CertificateIssuer and CertificateInstaller.
 */

/** A custom domain that a tenant added and proved; the only kind of name ever sent to the CA. */
export interface CertificateCandidate {
  domain: string;
  tenantId: string;
}

/**
 * A DNS host name we will ask a certificate for and write into the proxy's configuration: lowercase
 * LDH labels, at least two, no wildcard. Anything else is never sent to the CA nor to nginx.
 */
export const CERTIFIABLE_DOMAIN =
  /^(?=.{4,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export interface CertificateCandidates {
  list(): Promise<CertificateCandidate[]>;
}

export interface IssuedCertificate {
  /** Leaf first, then the intermediates (what nginx's ssl_certificate wants). */
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
}

export interface CertificateIssuer {
  /** Obtains a certificate for one proved domain; throws IssuanceError on a CA refusal or rate limit. */
  issue(candidate: CertificateCandidate): Promise<IssuedCertificate>;
}

/** The control plane's hooks: `active` makes the domain usable; `failed` carries the CA's reason. */
export interface CertificateEvents {
  onCertificateActive(domain: string, tenantId: string): Promise<void>;
  onCertificateFailed(domain: string, tenantId: string, reason: string): Promise<void>;
}

export interface InstalledCertificate {
  domain: string;
  tenantId: string;
  certPem: string;
  keyPem: string;
}

/** Puts the active certificates in front of traffic (writes the proxy's files and reloads it). */
export interface CertificateInstaller {
  install(active: InstalledCertificate[]): Promise<void>;
}

export const noCertificateEvents: CertificateEvents = {
  onCertificateActive: async () => {},
  onCertificateFailed: async () => {},
};
