/**
 * The measuring screen's events (measure.ts does the work): save a window, edit, remove, clear, send
 * to office, a product's options, a window's photo, and the live price as the size is typed. Each
 * change goes through the app's one `queue` (main.ts), like every other change.
 */
import { $, uuid } from '../shared/dom.js';
import { resizePhoto } from '../shared/photo.js';
import { clearForm, editWindow, productChanged, repriceForm, saveChange } from './measure.js';
import { getMeasure, getSession, ownerOf, queuedFor } from './store.js';
import type { Change } from './types.js';

async function measureOf(jobId: string) {
  const session = await getSession();
  return session ? getMeasure(ownerOf(session), jobId) : undefined;
}

async function queuedOf(jobId: string) {
  const session = await getSession();
  return session ? queuedFor(ownerOf(session), jobId) : [];
}

export function wireMeasuring(
  app: HTMLElement,
  jobOnScreen: () => string | undefined,
  queue: (jobId: string, c: Change) => Promise<void>,
): void {
  app.addEventListener('submit', async (e) => {
    const jobId = jobOnScreen();
    if (!jobId || (e.target as HTMLElement).id !== 'measure-form') return;
    e.preventDefault();
    const c = saveChange(app, uuid);
    if (typeof c === 'string') return void ($('#mf-msg')!.textContent = c);
    clearForm(app, await measureOf(jobId));
    await queue(jobId, c);
  });
  app.addEventListener('click', async (e) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('button');
    const jobId = jobOnScreen();
    if (!t || !jobId) return;
    if (t.dataset.measureEdit) editWindow(app, await measureOf(jobId), await queuedOf(jobId), t.dataset.measureEdit);
    if (t.dataset.measureRemove) await queue(jobId, { kind: 'measure-remove', id: t.dataset.measureRemove });
    if (t.id === 'mf-cancel') clearForm(app, await measureOf(jobId));
    if (t.id === 'measure-send') await queue(jobId, { kind: 'measure-send' });
  });
  app.addEventListener('change', async (e) => {
    const input = e.target as HTMLInputElement;
    const jobId = jobOnScreen();
    if (!jobId) return;
    if (input.id === 'mf-product') productChanged(app, await measureOf(jobId));
    const file = input.files?.[0];
    if (file && input.dataset.measurePhoto) {
      const blob = await resizePhoto(file);
      await queue(jobId, {
        kind: 'upload',
        uploadKind: 'photo_before',
        blob,
        contentType: 'image/jpeg',
        measurementId: input.dataset.measurePhoto,
      });
    }
  });
  // The window's price follows what is typed, flagged on the spot when the product cannot be made so.
  app.addEventListener('input', async (e) => {
    const jobId = jobOnScreen();
    if (jobId && (e.target as HTMLElement).closest('#measure-form')) repriceForm(app, await measureOf(jobId));
  });
}
