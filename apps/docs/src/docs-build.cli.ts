/** `npm run docs:build`: builds the docs site into apps/docs/dist (CI runs it: a dead link fails it). */
import { buildDocsSite } from './docs.build.js';

try {
  const { outDir, ms } = await buildDocsSite();
  console.log(`docs site built in ${(ms / 1000).toFixed(1)} s: ${outDir}`);
} catch (e) {
  console.error(`docs build failed: ${(e as Error).message}`);
  process.exitCode = 1;
}
