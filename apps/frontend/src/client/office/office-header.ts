/**
 * The office's header bar, above the nav on every office screen once signed in: who is signed in
 * (name, role) and for which company, the global search (a plain GET form to /office/search, so it
 * works from any screen) and Sign out.
 */
import type { Session } from '../field/types.js';
import { h } from '../shared/dom.js';

const ROLE_NAMES: Record<string, string> = {
  owner: 'Owner',
  admin: 'Admin',
  office: 'Office',
  technician: 'Technician',
};

export function showOfficeHeader(s: Session | undefined, onSignOut: () => void): void {
  let bar = document.getElementById('office-bar');
  if (!s) return void bar?.remove();
  if (!bar) {
    bar = document.createElement('div');
    bar.id = 'office-bar';
    bar.className = 'office-bar';
    document.querySelector('.office-nav')?.before(bar);
    bar.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('#sign-out')) onSignOut();
    });
  }
  const q = location.pathname === '/office/search' ? (new URLSearchParams(location.search).get('q') ?? '') : '';
  bar.innerHTML = `<p class="office-who">Signed in as <strong>${h(s.user.name || s.user.email)}</strong> (${h(
    ROLE_NAMES[s.user.role] ?? s.user.role,
  )}) · ${h(s.tenant.name)}</p>
<form id="office-search" role="search" aria-label="Search everything" action="/office/search" method="get" class="row nowrap"><label class="visually-hidden" for="office-q">Search customers, leads, quotes and jobs</label><input id="office-q" name="q" type="search" value="${h(
    q,
  )}" minlength="2" maxlength="100" required placeholder="Name, phone, email or order"><button class="btn secondary" type="submit">Search</button></form>
<button class="btn secondary" id="sign-out" type="button">Sign out</button>`;
}
