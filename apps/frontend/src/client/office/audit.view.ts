/**
 * Settings → Audit log as HTML: the filters (person, action, from and to dates) and one page of
 * entries as a table (when, who, action, target, IP) that stacks into labelled rows on a phone.
 */
import type { AuditEntryView } from '@platform/contracts/console-settings.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { when } from './settings-common.js';

export interface AuditFilters {
  actor: string;
  action: string;
  /** yyyy-mm-dd, local dates (both days included). */
  from: string;
  to: string;
}

export interface AuditPage {
  items: AuditEntryView[];
  page: number;
  pageSize: number;
  total: number;
}

export interface Person {
  id: string;
  label: string;
}

const ACTORS: Record<string, string> = {
  portal: 'Customer (portal link)',
  system: 'The platform',
  operator: 'Operator',
};

const who = (e: AuditEntryView) =>
  e.actor.kind === 'user' ? (e.actor.name ?? 'A former member') : (ACTORS[e.actor.kind] ?? e.actor.kind);
const UUID = /^[0-9a-f]{8}-[0-9a-f-]{27}$/i;
/** A member by name; another record by its type and id, a uuid cut to its first 8 characters. */
function target(e: AuditEntryView): string {
  if (!e.target) return '—';
  const type = e.target.type.replace(/_/g, ' ');
  if (e.target.name) return `${type} ${e.target.name}`;
  const id = e.target.id ?? '';
  return `${type} ${UUID.test(id) ? `${id.slice(0, 8)}…` : id}`;
}

const options = (items: [string, string][], selected: string, any: string) =>
  `<option value="">${any}</option>${items
    .map(([v, l]) => `<option value="${h(v)}"${v === selected ? ' selected' : ''}>${h(l)}</option>`)
    .join('')}`;

export const auditFiltersHtml = (f: AuditFilters, people: Person[], actions: string[]) =>
  `<form id="audit-filters" class="card" novalidate><h2 style="margin-top:0">Filter</h2><div class="row">
<div><label for="audit-actor">Person</label><select id="audit-actor">${options(
    people.map((p) => [p.id, p.label]),
    f.actor,
    'Anyone',
  )}</select></div>
<div><label for="audit-action">Action</label><select id="audit-action">${options(
    actions.map((a) => [a, a]),
    f.action,
    'Any action',
  )}</select></div>
<div><label for="audit-from">From</label><input id="audit-from" type="date" value="${h(f.from)}" data-field="from" aria-describedby="audit-from-err"></div>
<div><label for="audit-to">To</label><input id="audit-to" type="date" value="${h(f.to)}" data-field="to" aria-describedby="audit-to-err"></div>
</div>${errSlot('audit-from', 'from')}${errSlot('audit-to', 'to')}
<div class="row" style="margin-top:.5rem"><button class="btn" type="submit">Show</button><button class="btn secondary" type="button" id="audit-clear">Clear filters</button></div></form>`;

const rowHtml = (e: AuditEntryView) =>
  `<tr><td data-label="When">${h(when(e.at))}</td><td data-label="Who" class="wrap-any">${h(who(e))}</td><td data-label="Action"><code>${h(e.action)}</code></td><td data-label="Target" class="wrap-any">${h(target(e))}</td><td data-label="IP">${h(e.ip ?? '—')}</td></tr>`;

export function auditTableHtml(p: AuditPage): string {
  if (!p.items.length) return '<p class="card muted">No entries match these filters.</p>';
  const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
  return `<table class="lines"><caption class="visually-hidden">Audit log, page ${p.page} of ${pages}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">IP</th></tr></thead>
<tbody>${p.items.map(rowHtml).join('')}</tbody></table>
<div class="row"><button class="btn secondary" type="button" data-audit-page="${p.page - 1}"${p.page <= 1 ? ' disabled' : ''}>Newer</button><span>Page ${p.page} of ${pages} · ${p.total} entr${p.total === 1 ? 'y' : 'ies'}</span><button class="btn secondary" type="button" data-audit-page="${p.page + 1}"${p.page >= pages ? ' disabled' : ''}>Older</button></div>`;
}
