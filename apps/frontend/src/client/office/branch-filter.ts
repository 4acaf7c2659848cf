/**
 * The branch filter of the inbox and the dispatch board: a select shown when the company has two
 * branches or more, the chosen one kept in the address (`?branch=`) so a reload keeps it.
 */
import type { BranchView } from '@platform/contracts/branch.js';

import { call } from '../field/api.js';
import { h } from '../shared/dom.js';
import { tenantApi } from './settings-common.js';

export const chosenBranch = () => new URLSearchParams(location.search).get('branch') ?? '';

/** `&branch=<id>` for a list's query, or ''. */
export const branchQuery = () => (chosenBranch() ? `&branch=${encodeURIComponent(chosenBranch())}` : '');

export const loadBranches = async (): Promise<BranchView[]> =>
  (await call<{ items: BranchView[] }>(await tenantApi('/branches')).catch(() => ({ items: [] }))).items;

export function branchFilterHtml(branches: Pick<BranchView, 'id' | 'name'>[]): string {
  if (branches.length < 2) return '';
  const now = chosenBranch();
  const options = branches
    .map((b) => `<option value="${h(b.id)}"${b.id === now ? ' selected' : ''}>${h(b.name)}</option>`)
    .join('');
  return `<div class="row"><label for="branch-filter">Branch</label><select id="branch-filter" data-branch-filter="1" style="width:auto"><option value="">All branches</option>${options}</select></div>`;
}

/** Handles a change of the filter (true when it was the filter): the address keeps the choice. */
export function branchChanged(el: HTMLInputElement | HTMLSelectElement): boolean {
  if (!el.dataset.branchFilter) return false;
  const url = new URL(location.href);
  if (el.value) url.searchParams.set('branch', el.value);
  else url.searchParams.delete('branch');
  history.replaceState(null, '', url);
  return true;
}
