export * from './certificates.port.js';
export { IssuanceError, classifyAcmeError, type IssuanceFailureKind } from './issuance-error.js';
export { CertificateRepo, type CertificateRow, type CertificateStatus } from './certificate.repo.js';
export { ChallengeRepo } from './challenge.repo.js';
export {
  CertificateService,
  defaultCertificatePolicy,
  type CertificatePolicy,
  type PassResult,
} from './certificate.service.js';
export { TableCertificateCandidates } from './candidates.table.js';
export { acmeChallengeRoutes } from './challenge.routes.js';
export { AcmeIssuer, type AcmeIssuerOptions } from './acme/acme-issuer.js';
