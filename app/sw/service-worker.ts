// The service worker served at /sw.js (root scope). scripts/build-service-worker.ts bundles it
// after the app build and defines self.__WB_MANIFEST as the list of files to precache.
// an offline page, and signed-in pages and money flows never come from the cache,
// so no page (navigation) response is stored but two: the signed-in member's own card, kept in
// this browser for use offline (./member-card.ts), and the gate's scanner (./gate-page.ts). Otherwise only hashed assets, icons, the
// offline page and public media images are.
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim, type RouteHandlerCallbackOptions, type WorkboxPlugin } from "workbox-core";
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
import { GATE_PAGE_CACHE, gatePageOfData, isGatePage, SAVED_COPY_HEADER } from "./gate-page";
import {
  CARD_NETWORK_WAIT_MS,
  cardAnswer,
  cardFiles,
  deletesAccount,
  isMemberCardData,
  isMemberCardPage,
  MEMBER_CARD_CACHE,
  MEMBER_CARD_PATH,
  savedCopyOf,
  signInEnding,
} from "./member-card";

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

// The member card (docs/membership.md, "The member's pages"). Its page is sent `private,
// no-store`, which keeps every other signed-in page out of these caches (`storableOnly`); the card
// is kept on purpose, because a member must be able to show it at a gate with no signal. The copy
// is this browser's own (cache storage is never shared), sits in a cache of its own under its one
// address, is written only from a 200 page that is a card, and goes when this browser signs out.
const cardAddress = new URL(MEMBER_CARD_PATH, self.location.origin).href;

/** Counts forgettings, so a copy asked for before a sign-out is never written after it. */
let forgotten = 0;
/** The card cache's writes, one at a time in the order asked. */
let cardWrites: Promise<unknown> = Promise.resolve();

function inTurn(write: () => Promise<unknown>) {
  const turn = cardWrites.then(write);
  cardWrites = turn.catch(() => undefined);
  return turn;
}

function forgetCard() {
  forgotten += 1;
  return inTurn(() => caches.delete(MEMBER_CARD_CACHE));
}

function savedCard() {
  return caches.match(cardAddress, { cacheName: MEMBER_CARD_CACHE, ignoreVary: true });
}

/** A file the copy needs, from a cache (a precached stylesheet or font) or else the network; null if neither. */
async function cardFile(url: string) {
  try {
    const response = (await caches.match(url, { ignoreVary: true })) ?? (await fetch(url));
    return response.status === 200 ? response : null;
  } catch {
    return null;
  }
}

/** Keeps, replaces or forgets the copy after the server answered the card page asked for at `askedAt`. */
async function readCardAnswer(response: Response, askedAt: number) {
  const answer = cardAnswer(response);
  if (answer === "forget") return forgetCard();
  if (answer !== "read") return;
  const copy = savedCopyOf(await response.text());
  if (copy === null) return forgetCard();
  const files = cardFiles(copy, cardAddress);
  const fetched = await Promise.all(files.map(cardFile));
  const headers = new Headers(response.headers);
  // The copy is decoded text of a new length, and is matched by its address alone.
  for (const name of ["Content-Length", "Content-Encoding", "Vary"]) headers.delete(name);
  return inTurn(async () => {
    if (forgotten !== askedAt) return;
    const cache = await caches.open(MEMBER_CARD_CACHE);
    const kept = new Set([cardAddress]);
    for (const [index, file] of fetched.entries()) {
      if (!file) continue;
      await cache.put(files[index]!, file);
      kept.add(files[index]!);
    }
    await cache.put(cardAddress, new Response(copy, { status: 200, statusText: "OK", headers }));
    for (const key of await cache.keys()) if (!kept.has(key.url)) await cache.delete(key);
  });
}

const wait = (ms: number) => new Promise<"slow">((resolve) => setTimeout(() => resolve("slow"), ms));

/** Offline, a file the card's copy needs comes from the card's cache when no other cache has it. */
const cardFilesOffline: WorkboxPlugin = {
  handlerDidError: async ({ request }) => caches.match(request, { cacheName: MEMBER_CARD_CACHE, ignoreVary: true }),
};

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const origin = self.location.origin;
  if (request.method === "GET" && isMemberCardData(new URL(request.url), origin)) {
    // The app showed the card without a page load, so this worker saw no page: it asks for the
    // page itself (with this browser's cookies) to keep the copy fresh.
    const askedAt = forgotten;
    const page = fetch(cardAddress, {
      credentials: "same-origin",
      redirect: "manual",
      headers: { Accept: "text/html" },
    });
    event.waitUntil(page.then((response) => readCardAnswer(response, askedAt)).catch(() => undefined));
    return;
  }
  const gatePage = request.method === "GET" ? gatePageOfData(new URL(request.url), origin) : null;
  if (gatePage) {
    // The app opened a gate page without a page load: the worker keeps its copy all the same.
    event.waitUntil(refreshGateCopy(gatePage).catch(() => undefined));
    return;
  }
  const ending = signInEnding(request, origin);
  if (ending === "sign-out") event.waitUntil(Promise.all([forgetCard(), caches.delete(GATE_PAGE_CACHE)]));
  if (ending === "settings") {
    const form = request.clone();
    event.waitUntil(
      deletesAccount(form).then(
        (deleting) => (deleting ? Promise.all([forgetCard(), caches.delete(GATE_PAGE_CACHE)]) : undefined),
        () => undefined,
      ),
    );
  }
});

const network = new NetworkOnly();

/**
 * A page kept on the device (the member card, a gate page): the network first, so the page is
 * fresh, with `keep` told of every answer (a copy of it) to keep or forget the saved page; the
 * saved page when the network fails, the server fails, or it keeps someone waiting at a gate.
 */
async function networkOrSaved(
  options: RouteHandlerCallbackOptions,
  keep: (response: Response) => Promise<unknown>,
  saved: () => Promise<Response | undefined>,
) {
  const fromNetwork = network.handle(options);
  options.event.waitUntil(fromNetwork.then((response) => keep(response.clone())).catch(() => undefined));
  const answered = fromNetwork.then(
    (response) => response,
    () => null,
  );
  const first = await Promise.race([answered, wait(CARD_NETWORK_WAIT_MS)]);
  if (first === "slow") {
    const copy = await saved();
    if (copy) return copy;
  }
  const response = first === "slow" ? await answered : first;
  if (response && cardAnswer(response) !== "fall-back") return response;
  return (await saved()) ?? response ?? (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
}

// The card page: the network first, so a lapsed membership shows lapsed; its saved copy when the
// network fails, the server fails, or it keeps the member waiting at the gate. Registered before
// the other pages' route, which would answer with the offline page.
registerRoute(
  ({ request, url }) => request.mode === "navigate" && isMemberCardPage(url, self.location.origin),
  (options) => {
    const askedAt = forgotten;
    return networkOrSaved(options, (response) => readCardAnswer(response, askedAt), savedCard);
  },
);

// The gate's pages (docs/gate.md, "Without signal"): a steward whose phone reloads the page at a
// field with no signal must still be able to scan. Whenever a gate page loads from the network,
// the worker asks the server for the page's copy to keep (the scanner alone, with nobody's name:
// `SAVED_COPY_HEADER`) and keeps it with its scripts, which are precached; with no connection, or
// a server too slow at the gate, the copy answers and the device decides scans from its own list.
// Refused (taken off the gate, signed out) forgets the copy.
async function keepGatePage(address: string, response: Response) {
  const answer = cardAnswer(response);
  if (answer === "forget") return (await caches.open(GATE_PAGE_CACHE)).delete(address);
  if (answer === "read") return refreshGateCopy(address);
}

/** Asks the server for a gate page's copy and keeps it, or forgets it when the server refuses. */
async function refreshGateCopy(address: string) {
  const copy = await fetch(address, {
    credentials: "same-origin",
    redirect: "manual",
    headers: { Accept: "text/html", [SAVED_COPY_HEADER]: "1" },
  });
  const cache = await caches.open(GATE_PAGE_CACHE);
  const answer = cardAnswer(copy);
  if (answer === "forget") return cache.delete(address);
  if (answer !== "read") return;
  const headers = new Headers(copy.headers);
  for (const name of ["Content-Length", "Content-Encoding", "Vary"]) headers.delete(name);
  const body = await copy.arrayBuffer();
  return cache.put(address, new Response(body, { status: 200, statusText: "OK", headers }));
}

registerRoute(
  ({ request, url }) => request.mode === "navigate" && isGatePage(url, self.location.origin),
  (options) => {
    const address = options.url.href;
    return networkOrSaved(
      options,
      (response) => keepGatePage(address, response),
      () => caches.match(address, { cacheName: GATE_PAGE_CACHE, ignoreVary: true }),
    );
  },
);

// Pages always come from the network; with no connection the cached offline page answers.
// Registered before the precache so /offline itself is fetched live when online.
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
      cardFilesOffline,
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
      cardFilesOffline,
    ],
  }),
);
