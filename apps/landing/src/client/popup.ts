/**
 * The L2 popup: opens on the first of its triggers (popup.config.ts), appends the trigger to the
 * page's template value, and honours the suppression keys and Global Privacy Control. On LP v2
 * pages (mode "cta") it has no triggers and opens only from the page's CTA buttons.
 */
import { type PopupOpener, popupSuffix, type PopupTrigger } from '@platform/attribution/form-source.vocabulary.js';
import { loadCaptcha } from '@platform/web/captcha-client.js';

import { POPUP_CONFIG as C } from './popup.config.js';
import { get, remove, set } from './storage.js';

const gpc = (): boolean => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

export function isSuppressed(now = Date.now()): boolean {
  if (get('session', C.submittedKey) !== null) return true;
  const at = Number(get('local', C.dismissedKey));
  if (!at) return false;
  if (now - at < C.dismissTtlMs) return true;
  remove('local', C.dismissedKey);
  return false;
}

export function markSubmitted(): void {
  set('session', C.submittedKey, '1');
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

function controller(dialog: HTMLDialogElement) {
  let returnTo: HTMLElement | null = null;
  const form = dialog.querySelector<HTMLFormElement>('form');

  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null);
    if (!items.length) return;
    const first = items[0]!,
      last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
  // Escape (the dialog's cancel), the close button and a click on the backdrop all count as dismissal.
  dialog.addEventListener('close', () => {
    if (get('session', C.submittedKey) === null) set('local', C.dismissedKey, String(Date.now()));
    document.documentElement.classList.remove('popup-open');
    returnTo?.focus();
  });
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog || (e.target as Element).closest('[data-close-popup]')) dialog.close();
  });

  return (opener: PopupOpener | null): void => {
    if (dialog.open) return;
    // forms.ts appends this to the template value (`<page>_popup`) when the form is submitted.
    if (form) form.dataset.sourceSuffix = opener ? popupSuffix(opener) : '';
    returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    document.documentElement.classList.add('popup-open');
    dialog.dataset.trigger = opener ?? 'cta';
    dialog.querySelector<HTMLElement>('input:not([type=hidden])')?.focus();
    loadCaptcha().catch(() => undefined);
  };
}

function armTriggers(fire: (t: PopupTrigger) => void): void {
  let fired = false;
  const cleanups: (() => void)[] = [];
  const once = (t: PopupTrigger): void => {
    if (fired) return;
    fired = true;
    cleanups.forEach((f) => f());
    if (!isSuppressed() && !gpc()) fire(t);
  };

  const onScroll = (): void => {
    const el = document.documentElement;
    const scrollable = el.scrollHeight - window.innerHeight;
    if (scrollable > 0 && window.scrollY / scrollable >= C.scrollDepth) once('scroll');
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  cleanups.push(() => window.removeEventListener('scroll', onScroll));

  const timer = setTimeout(() => once('dwell'), C.dwellMs);
  cleanups.push(() => clearTimeout(timer));

  if (window.matchMedia(C.exitIntentMedia).matches) {
    const onOut = (e: MouseEvent): void => {
      if (!e.relatedTarget && e.clientY <= 0) once('exit');
    };
    document.addEventListener('mouseout', onOut);
    cleanups.push(() => document.removeEventListener('mouseout', onOut));
  }

  // A visitor already typing into an inline form is not interrupted: triggers stand down for this page view.
  const onFocus = (e: FocusEvent): void => {
    const t = e.target as Element | null;
    if (t?.closest?.('form[data-endpoint]') && !t.closest('#estimate-popup')) {
      fired = true;
      cleanups.forEach((f) => f());
    }
  };
  document.addEventListener('focusin', onFocus);
  cleanups.push(() => document.removeEventListener('focusin', onFocus));

  const footers = document.querySelectorAll(C.footerSelectors);
  if (footers.length && 'IntersectionObserver' in window) {
    // The first report is the state at load: a footer already in view (a short article) has not
    // "entered", and counting it would open the popup the moment the page shows.
    let initial = true;
    const io = new IntersectionObserver((entries) => {
      if (!initial && entries.some((en) => en.isIntersecting)) once('footer');
      initial = false;
    });
    footers.forEach((f) => io.observe(f));
    cleanups.push(() => io.disconnect());
  }
}

export function initPopup(): void {
  const dialog = document.getElementById('estimate-popup');
  if (!(dialog instanceof HTMLDialogElement)) return;
  const open = controller(dialog);
  const forced = new URLSearchParams(location.search).get(C.forceParam) === C.forceValue;

  if (dialog.dataset.mode === 'cta') {
    // LP v2: no automatic triggers. Under GPC the CTA keeps its plain link to the hero form.
    document.querySelectorAll<HTMLAnchorElement>('[data-open-popup]').forEach((a) =>
      a.addEventListener('click', (e) => {
        if (gpc()) return;
        e.preventDefault();
        open(null);
      }),
    );
    if (forced && !gpc()) open(null);
    return;
  }
  // GPC wins over everything, QA force included; force only overrides the suppression keys.
  if (gpc()) return;
  if (forced) return open('force');
  if (isSuppressed()) return;
  armTriggers(open);
}
