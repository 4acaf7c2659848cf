/** `npm run start:docs`: the docs site as its own process. */
import { runService } from '@platform/http-kit';

import { loadDocsConfig } from './docs.config.js';
import { startDocs } from './docs.server.js';

await runService('docs', async () => {
  const docs = await startDocs({ ...loadDocsConfig(), DOCS: 'on' });
  process.stdout.write(`docs site: ${docs!.url}\n`);
  return docs!;
});
