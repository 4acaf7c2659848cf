/** The JustCall adapters as one `SmsAdapters` (API base URL shared by sender and reader). */
import type { SmsAdapters } from '../sms.port.js';
import { createJustCallSmsSender } from './justcall-sms.client.js';
import { createJustCallTextsReader } from './justcall-texts.client.js';
import { createJustCallWebhookReceiver, DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS } from './justcall-webhook.js';

export function justCallSmsAdapters(opts: { baseUrl?: string; timeoutMs?: number } = {}): SmsAdapters {
  const api = {
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  };
  return {
    sender: (c) => createJustCallSmsSender({ ...c, ...api }),
    reader: (c) => createJustCallTextsReader({ ...c, ...api }),
    receiver: (t) =>
      createJustCallWebhookReceiver({
        secret: t.secrets,
        webhookUrl: t.webhookUrl,
        replayWindowSeconds: DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS,
      }),
    replayWindowSeconds: DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS,
  };
}
