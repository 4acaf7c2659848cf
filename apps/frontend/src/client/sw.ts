/**
 * The field app's service worker (Workbox): precaches the field bundle and icons, and answers
 * every /field/ navigation from the network with the cached shell as the offline fallback (the
 * shell renders any job from IndexedDB). API calls are never cached here: the app keeps my jobs
 * in IndexedDB and queues changes itself.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const __PRECACHE__: { url: string; revision: string | null }[];
declare const self: {
  skipWaiting(): Promise<void>;
  addEventListener(t: string, fn: (e: { waitUntil(p: Promise<unknown>): void }) => void): void;
};

const SHELL = '/field/shell';
const SHELL_CACHE = 'field-shell';

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(__PRECACHE__);

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(SHELL_CACHE).then((c) => c.add(SHELL)));
});

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.pathname.startsWith('/field'),
  new NetworkFirst({
    cacheName: 'field-pages',
    networkTimeoutSeconds: 4,
    plugins: [
      {
        // Offline and never opened online: the shell renders it from IndexedDB all the same.
        handlerDidError: async () => (await caches.open(SHELL_CACHE)).match(SHELL),
      },
    ],
  }),
);
