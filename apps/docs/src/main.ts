/** `npm run start:docs`: the docs site as its own process. */
import { onNamedPort, runService } from '@platform/http-kit';

import { loadDocsConfig } from './docs.config.js';
import { startDocs } from './docs.server.js';

await runService('docs', async () => {
  const config = { ...loadDocsConfig(), DOCS: 'on' as const };
  const docs = await onNamedPort({ variable: 'DOCS_PORT', host: config.DOCS_HOST, port: config.DOCS_PORT }, () =>
    startDocs(config),
  );
  process.stdout.write(`docs site: ${docs!.url}\n`);
  return docs!;
});
