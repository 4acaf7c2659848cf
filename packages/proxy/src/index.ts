export {
  renderNginxConf,
  renderTenantSites,
  type NginxLayout,
  type PublicSite,
  type SiteKey,
  type TenantSite,
} from './nginx-config.js';
export { startNginx, nginxReload, nginxTest, type NginxPaths, type RunningNginx } from './nginx-process.js';
export {
  layoutFromConfig,
  loadOrCreateTestCa,
  readLayout,
  writeProxyDir,
  writeTenantSites,
  writeAtomic,
} from './proxy-dir.js';
export { NginxCertificateInstaller } from './nginx-installer.js';
export { createTestCa, type TestCa, type PemPair } from './test-ca.js';
export { loadProxyConfig, proxyEnvSchema, type ProxyConfig } from './proxy.config.js';
