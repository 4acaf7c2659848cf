// The docs site's VitePress entry: the repository's docs/ folder, configured in src/site-config.ts.
import { fileURLToPath } from 'node:url';
import { siteConfig } from '../../src/site-config.js';

export default siteConfig(fileURLToPath(new URL('../../../../docs', import.meta.url)));
