/**
 * The local SMS stand-in across restarts (npm start's embedded defaults): its messages are kept in
 * its state file, so ids go on from where they were, never colliding with ones a receiver stored.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createJustCallSmsSender } from '../justcall/justcall-sms.client.js';
import { createJustCallTextsReader } from '../justcall/justcall-texts.client.js';
import { startLocalSms } from './local-sms.server.js';

const dir = mkdtempSync(join(tmpdir(), 'local-sms-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const creds = { apiKey: 'k', apiSecret: 'secret-secret', webhookSecret: 'w' };
const start = () => startLocalSms({ ...creds, stateFile: join(dir, 'local-sms.json') });

describe('the local SMS stand-in with a state file', () => {
  it('keeps its messages and numbering across a restart, readable by id', async () => {
    const first = await start();
    const sent = await createJustCallSmsSender({ ...creds, baseUrl: first.url }).send({
      from: '13035550100',
      to: '17205550123',
      body: 'Before the restart',
    });
    const inbound = await first.simulateInbound({ from: '17205550199', to: '13035550100', body: 'Hello' });
    await first.close();
    expect(statSync(join(dir, 'local-sms.json')).mode & 0o777).toBe(0o600);

    const second = await start();
    expect(second.messages.map((m) => m.body)).toEqual(['Before the restart', 'Hello']);
    const again = await second.simulateInbound({ from: '17205550199', to: '13035550100', body: 'After' });
    expect([sent.providerMessageId, inbound.providerMessageId]).not.toContain(again.providerMessageId);
    const reader = createJustCallTextsReader({ ...creds, baseUrl: second.url });
    expect(await reader.getMessage(sent.providerMessageId)).toMatchObject({ body: 'Before the restart' });
    await second.close();
  });
});
