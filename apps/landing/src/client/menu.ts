/**
 * The phone Menu button opens the nav list as a native popover (no script needed); this only keeps
 * the button's aria-expanded in step for assistive technology that does not derive it.
 */
export function initMenu(): void {
  const menu = document.getElementById('site-menu');
  const button = document.querySelector('[popovertarget="site-menu"]');
  menu?.addEventListener('toggle', (e) =>
    button?.setAttribute('aria-expanded', String((e as Event & { newState?: string }).newState === 'open')),
  );
}
