/**
 * /office/settings/domains: the tenant's domains (GET /api/tenants/{id}/domains) with the CNAME to set
 * and each one's live state; add one, make one primary (POST with is_primary on the existing name),
 * check again, remove (a second press confirms).
 */
import { call, postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { clearFieldErrors, errSlot, say, showFieldErrors } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, SecondPress, sendForm, settingsHead, tenantApi, when } from './settings-common.js';

interface DomainView {
  id: string;
  domain: string;
  domain_type: 'subdomain' | 'custom';
  is_primary: boolean;
  state: 'awaiting_dns' | 'issuing_certificate' | 'active' | 'failed';
  ssl_status: 'pending' | 'active' | 'failed';
  cname_target: string | null;
  last_checked_at: string | null;
  check_error: string | null;
  verify_deadline_at: string | null;
  failure_reason: string | null;
}

const STATE_TEXT: Record<DomainView['state'], string> = {
  awaiting_dns: 'Waiting for the CNAME record',
  issuing_certificate: 'CNAME seen: the certificate is being obtained',
  active: 'Serving your site',
  failed: 'Failed',
};

const press = new SecondPress();

function domainHtml(d: DomainView): string {
  const custom = d.domain_type === 'custom';
  const cname =
    custom && d.ssl_status !== 'active' && d.cname_target
      ? `<p>At your DNS provider set: <code class="wrap-any">${h(d.domain)}. CNAME ${h(d.cname_target)}.</code></p>`
      : '';
  const detail = [
    d.state === 'failed' ? d.failure_reason : d.check_error,
    custom ? `last checked ${when(d.last_checked_at)}` : '',
    d.ssl_status === 'pending' && d.verify_deadline_at ? `gives up ${when(d.verify_deadline_at)}` : '',
  ].filter(Boolean);
  const remove = press.armed === d.id ? 'Confirm: remove' : 'Remove';
  return `<li class="card"><h3 style="margin-top:0" class="wrap-any">${h(d.domain)}${d.is_primary ? ' <span class="pill">primary</span>' : ''}</h3>
<div><span class="pill">${h(d.ssl_status)}</span> ${custom ? h(STATE_TEXT[d.state]) : 'The platform’s subdomain (always on)'}</div>
${detail.length ? `<div class="muted">${h(detail.join(' · '))}</div>` : ''}${cname}
<div class="row" style="margin-top:.5rem">${d.is_primary ? '' : `<button class="btn secondary" type="button" data-primary="${h(d.domain)}">Make primary<span class="visually-hidden"> ${h(d.domain)}</span></button>`}${
    custom && d.ssl_status !== 'active'
      ? `<button class="btn secondary" type="button" data-check="${h(d.id)}">Check again<span class="visually-hidden"> ${h(d.domain)}</span></button>`
      : ''
  }${custom ? `<button class="btn${press.armed === d.id ? '' : ' secondary'}" type="button" data-remove="${h(d.id)}">${remove}<span class="visually-hidden"> ${h(d.domain)}</span></button>` : ''}</div></li>`;
}

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const r = await call<{ items: DomainView[] }>(await tenantApi('/domains?page_size=100'));
  app.innerHTML = `${settingsHead('Domains')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<p>Your site and office answer on each active domain. A custom domain needs a CNAME record pointing at the platform; the check runs by itself every few minutes.</p>
<h2>Your domains</h2><ul class="plain">${r.items.map(domainHtml).join('')}</ul>
<form id="domain-form" class="card" novalidate><h2 style="margin-top:0">Add a custom domain</h2>
<label for="domain-name">Domain (for example www.yourcompany.com)</label><input id="domain-name" data-field="domain" aria-describedby="domain-name-err" required maxlength="253" autocomplete="off">${errSlot('domain-name', 'domain')}
<label class="check"><input type="checkbox" id="domain-primary"> Make it the primary domain</label>
<button class="btn" type="submit" style="margin-top:.5rem">Add domain</button></form>`;
}

export const domainsPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'domain-form') return;
    const domain = $<HTMLInputElement>('#domain-name', form)!.value.trim();
    const isPrimary = $<HTMLInputElement>('#domain-primary', form)!.checked;
    if (!domain) {
      clearFieldErrors(form);
      showFieldErrors(form, [{ field: 'domain', message: 'Type the domain first.' }]);
      return $<HTMLInputElement>('#domain-name', form)!.focus();
    }
    const ok = await sendForm(form, async () => {
      await postJson(await tenantApi('/domains'), { domain, ...(isPrimary ? { is_primary: true } : {}) });
    });
    if (ok) await draw(app, `${domain} added: set its CNAME record as shown.`, 'ok');
  },
  async click(b, app) {
    const { primary, check, remove } = b.dataset;
    try {
      if (primary) {
        await postJson(await tenantApi('/domains'), { domain: primary, is_primary: true });
        press.armed = '';
        return draw(app, `${primary} is now the primary domain.`, 'ok');
      }
      if (check) {
        await postJson(await tenantApi(`/domains/${encodeURIComponent(check)}/check`), {});
        return draw(app, 'Checking again: the DNS check looks at it on its next pass.', 'ok');
      }
      if (remove) {
        if (!(await press.confirmed(remove, `button[data-remove="${CSS.escape(remove)}"]`, () => draw(app)))) return;
        await call(await tenantApi(`/domains/${encodeURIComponent(remove)}`), { method: 'DELETE' });
        return draw(app, 'Domain removed.', 'ok');
      }
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
