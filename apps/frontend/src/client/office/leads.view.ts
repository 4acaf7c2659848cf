/** The leads inbox as HTML: each lead with its source, attribution and callback flag, and what to do next. */
import { h } from '../shared/dom.js';

export interface Lead {
  id: number;
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  street?: string | null;
  city?: string | null;
  zip?: string | null;
  source: string | null;
  /** The ERP's tags; with structured attribution off (the default) the origin is only here (`SITE: …`, `LP: …`). */
  tags?: string[];
  stage: { id: number; name: string } | null;
  type: string;
  callback: boolean;
  attribution: Record<string, string | null>;
  create_date: string | null;
  /** The branch that serves its ZIP, when the company has branches. */
  branch?: { id: string; name: string } | null;
}

export interface Stage {
  id: number;
  name: string;
}

const attributionLine = (a: Record<string, string | null>) =>
  Object.entries(a)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');

/** Where the lead came from: its form source, else its origin tag, which every web lead carries. */
const originOf = (l: Lead) => l.source ?? l.tags?.find((t) => /^(SITE|LP): /.test(t)) ?? 'unknown source';

export function leadsView(leads: Lead[], stages: Stage[], msg = '', filter = ''): string {
  const rows = leads.map((l) => {
    const tel = (l.phone ?? '').replace(/[^+\d]/g, '');
    const options = stages
      .map((s) => `<option value="${s.id}" ${l.stage?.id === s.id ? 'selected' : ''}>${h(s.name)}</option>`)
      .join('');
    // Where the lead stands (a sent quote moves it to Proposition, an accepted one to Won).
    const stage = `<span class="pill" data-stage-of="${l.id}">${h(l.stage?.name ?? 'No stage')}</span>`;
    return `<li class="card"><div class="row" style="justify-content:space-between"><strong>${h(l.contact_name ?? l.name)}</strong><span>${stage}${
      l.callback ? ' <span class="pill">Call back</span>' : ''
    }${l.branch ? ` <span class="pill" data-branch-of="${l.id}">${h(l.branch.name)}</span>` : ''}</span></div><div>${h(l.name)}</div><div class="muted">${h(originOf(l))}${l.create_date ? ` · ${h(l.create_date.slice(0, 16).replace('T', ' '))}` : ''}</div>
<div class="muted">${h(attributionLine(l.attribution))}</div>
<div class="row" style="margin-top:.5rem">${tel ? `<a class="btn secondary" href="tel:${h(tel)}">Call ${h(l.phone)}</a>` : ''}${
      l.email ? `<a class="btn secondary" href="mailto:${h(l.email)}">Email</a>` : ''
    }<a class="btn secondary" href="/office/quotes/new?lead=${l.id}">Quote<span class="visually-hidden"> for ${h(l.contact_name ?? l.name)}</span></a><label class="visually-hidden" for="stage-${l.id}">Stage of ${h(l.contact_name ?? l.name)}</label><select id="stage-${l.id}" data-lead-stage="${l.id}" style="width:auto">${options}</select>${
      l.type === 'lead'
        ? `<button class="btn" type="button" data-convert="${l.id}">Convert to opportunity</button>`
        : '<span class="pill">Opportunity</span>'
    }</div></li>`;
  });
  return `<h1>Leads inbox</h1>${filter}<p id="office-msg" role="status">${h(msg)}</p>${rows.length ? `<ul class="plain">${rows.join('')}</ul>` : '<p>No leads.</p>'}`;
}
