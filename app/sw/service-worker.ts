// The service worker served at /sw.js (root scope). scripts/build-service-worker.ts bundles it
// after the app build and defines self.__WB_MANIFEST as the list of files to precache.
// an offline page, and signed-in pages and money flows never come from the cache,
// so no page (navigation) response is ever stored; only hashed assets, icons, the offline page
// and public media images are.
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim, type WorkboxPlugin } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import * as navigationPreload from "workbox-navigation-preload";
import {
  addPlugins,
  cleanupOutdatedCaches,
  matchPrecache,
  type PrecacheEntry,
  precacheAndRoute,
} from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkOnly, StaleWhileRevalidate } from "workbox-strategies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const OFFLINE_PAGE = "/offline";

/** Requests that always go to the network untouched: APIs, tools, page data, admin and money flows. */
function neverCached(url: URL) {
  const path = url.pathname;
  return (
    url.origin !== self.location.origin ||
    path.startsWith("/api/") ||
    path.startsWith("/dev/") ||
    path.endsWith(".data") ||
    path.startsWith("/admin") ||
    ["/cart", "/return", "/success"].some((flow) => path === flow || path.startsWith(`${flow}/`))
  );
}

/**
 * Precached files are fetched without cookies: the offline page must be the signed-out one,
 * whoever was signed in when this worker installed.
 */
const withoutCredentials: WorkboxPlugin = {
  requestWillFetch: async ({ request }) => new Request(request, { credentials: "omit" }),
};

/** A response the server marked private or no-store stays out of the runtime caches. */
const storableOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => {
    const cacheControl = response.headers.get("Cache-Control") ?? "";
    return /\b(no-store|private)\b/i.test(cacheControl) ? null : response;
  },
};

// The update prompt decides when a new version takes over; the first install takes control
// of open pages at once.
self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});
clientsClaim();
navigationPreload.enable();

// Pages always come from the network; with no connection the cached offline page answers.
// Registered before the precache so /offline itself is fetched live when online.
const network = new NetworkOnly();
registerRoute(
  ({ request }) => request.mode === "navigate",
  async (options) => {
    try {
      return await network.handle(options);
    } catch {
      return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
    }
  },
);

addPlugins([withoutCredentials]);
precacheAndRoute(self.__WB_MANIFEST);
// Drops precaches left behind by older Workbox releases.
cleanupOutdatedCaches();

// Hashed file names never change content; anything under /assets not precached is kept once fetched.
registerRoute(
  ({ url }) => !neverCached(url) && url.pathname.startsWith("/assets/"),
  new CacheFirst({
    cacheName: "assets",
    plugins: [
      storableOnly,
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 100, purgeOnQuotaError: true }),
    ],
  }),
);

// Uploaded images: show the stored copy at once and refresh it in the background.
registerRoute(
  ({ request, url }) => request.destination === "image" && !neverCached(url) && url.pathname.startsWith("/media/"),
  new StaleWhileRevalidate({
    cacheName: "media",
    plugins: [
      storableOnly,
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);
