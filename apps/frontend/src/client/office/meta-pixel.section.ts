/**
 * Settings → Integrations, "Meta pixel": the site's own pixel id (on the tenant's public pages only)
 * and its Conversions API token, sealed by the control plane and never shown again
 * (GET/PUT /api/tenants/{id}/website/tracking; docs/website.md).
 */
import type { WebsiteTrackingView } from '@platform/contracts/website.js';

import { call } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { sendForm, tenantApi } from './settings-common.js';

export const metaTracking = async () => call<WebsiteTrackingView>(await tenantApi('/website/tracking'));

export function metaPixelHtml(t: WebsiteTrackingView): string {
  const state = t.meta_pixel_id
    ? `Your site loads Meta pixel ${t.meta_pixel_id}${t.meta_capi_token_set ? ' and sends conversions with your Conversions API token' : ''}.`
    : 'No Meta pixel: your site loads no Meta tracking.';
  return `<section class="card" aria-labelledby="meta-h"><h2 id="meta-h" style="margin-top:0">Meta pixel</h2>
<p id="meta-state">${h(state)}</p>
<form id="meta-form" novalidate>
<label for="meta-pixel">Pixel id (digits; empty removes it)</label><input id="meta-pixel" data-field="meta_pixel_id" aria-describedby="meta-pixel-err" inputmode="numeric" autocomplete="off" value="${h(t.meta_pixel_id ?? '')}">${errSlot('meta-pixel', 'meta_pixel_id')}
<label for="meta-token">Conversions API token${t.meta_capi_token_set ? ' (leave empty to keep the current one)' : ''}</label><input id="meta-token" type="password" data-field="meta_capi_token" aria-describedby="meta-token-err" autocomplete="new-password">${errSlot('meta-token', 'meta_capi_token')}
${t.meta_capi_token_set ? '<label class="check"><input type="checkbox" id="meta-token-remove"> Remove the stored token</label>' : ''}
<button class="btn" type="submit" style="margin-top:.5rem">Save Meta pixel</button></form></section>`;
}

/** Sends the form; true when saved. */
export async function saveMetaPixel(form: HTMLFormElement): Promise<boolean> {
  const pixel = $<HTMLInputElement>('#meta-pixel', form)!.value.trim();
  const token = $<HTMLInputElement>('#meta-token', form)!.value.trim();
  const remove = $<HTMLInputElement>('#meta-token-remove', form)?.checked;
  const body = {
    meta_pixel_id: pixel || null,
    ...(remove ? { meta_capi_token: null } : token ? { meta_capi_token: token } : {}),
  };
  return sendForm(form, async () => {
    await call(await tenantApi('/website/tracking'), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  });
}
