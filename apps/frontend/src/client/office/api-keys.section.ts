/**
 * The API keys part of /office/settings/developers: make a key (shown once, with Copy), revoke one on
 * a second press. The page draws it (api-keys.view.ts) and hands it the forms and buttons that are its.
 */
import type { ApiKeyCreated, ApiKeyView } from '@platform/contracts/console-settings.js';

import { call, postJson } from '../field/api.js';
import { $ } from '../shared/dom.js';
import { say } from './office-common.js';
import { refusal, type SecondPress, sendForm, tenantApi } from './settings-common.js';

export type Redraw = (opts: { msg?: string; kind?: 'ok' | 'err' | ''; made?: ApiKeyCreated }) => Promise<void>;

export async function loadKeys(): Promise<ApiKeyView[]> {
  return (await call<{ items: ApiKeyView[] }>(await tenantApi('/api-keys'))).items;
}

/** True when the form was the key form (whether or not the key was made). */
export async function submitKey(form: HTMLFormElement, redraw: Redraw): Promise<boolean> {
  if (form.id !== 'api-key-form') return false;
  const description = $<HTMLInputElement>('#key-desc', form)!.value.trim();
  const scopes = Array.from(form.querySelectorAll<HTMLInputElement>('input[name=scopes]:checked'), (c) => c.value);
  let made: ApiKeyCreated | undefined;
  const sent = await sendForm(form, async () => {
    made = await postJson<ApiKeyCreated>(await tenantApi('/api-keys'), { description, scopes });
  });
  if (sent && made) {
    await redraw({ msg: 'API key made.', kind: 'ok', made });
    $<HTMLInputElement>('#new-key')?.focus();
  }
  return true;
}

/** True when the button was one of the keys' (copy, revoke). */
export async function clickKey(b: HTMLButtonElement, press: SecondPress, redraw: Redraw): Promise<boolean> {
  if (b.id === 'copy-key') {
    const input = $<HTMLInputElement>('#new-key')!;
    await navigator.clipboard?.writeText(input.value).catch(() => undefined);
    input.select();
    say('API key copied.', 'office-msg', 'ok');
    return true;
  }
  const id = b.dataset.revokeKey;
  if (!id) return false;
  try {
    const button = `button[data-revoke-key="${CSS.escape(id)}"]`;
    if (!(await press.confirmed(`revoke-key:${id}`, button, () => redraw({})))) return true;
    await call(await tenantApi(`/api-keys/${encodeURIComponent(id)}`), { method: 'DELETE' });
    await redraw({ msg: 'API key revoked: the REST API refuses it from now on.', kind: 'ok' });
  } catch (e) {
    say(refusal(e), 'office-msg', 'err');
  }
  return true;
}
