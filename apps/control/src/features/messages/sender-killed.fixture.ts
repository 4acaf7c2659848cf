/**
 * A sender process for the kill drill (sender-killed.test.ts): it claims the tenant's due messages,
 * queues their texts, and then hangs inside its transaction before the commit, saying `claimed` on
 * stdout, until the test kills it with SIGKILL. Test code only.
 */
import { createPgDb } from '@platform/db';
import { systemClock } from '@platform/kernel';

import { MessageSender } from './message-sender.js';

const [url, tenantId, line] = process.argv.slice(2) as [string, string, string];
const db = createPgDb({ url, max: 2 });
const sender = new MessageSender({
  db,
  clock: systemClock,
  erps: { forTenant: () => Promise.reject(new Error('no ERP in the drill')) },
  lineOf: async () => line,
  email: {
    enqueueIn: async () => {
      process.stdout.write('claimed\n');
      return new Promise(() => undefined);
    },
  },
});
await sender.runTenant(tenantId);
