// The gate's page kept on the device for a reload with no connection (docs/gate.md, "Without
// signal"): which addresses, and the header the worker sends when it asks for the copy. No worker
// globals, so the rules are tested on their own.

/** The cache that holds the gate pages' copies, and nothing else. */
export const GATE_PAGE_CACHE = "gate-pages";

/**
 * The request header of the worker's own request for a gate page's copy. The server answers it
 * with the scanner and nothing else: no names, no attendee list, no conflicts.
 */
export const SAVED_COPY_HEADER = "X-Pitlane-Saved-Copy";

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const GATE_PAGE = new RegExp(`^/(?:members/gate/${ID}|admin/events/${ID}/checkin)$`);

/** A gate page: a gate worker's, or the organizer's Check-in tab; no query string. */
export function isGatePage(url: URL, origin: string) {
  return url.origin === origin && url.search === "" && GATE_PAGE.test(url.pathname);
}

/** The gate page whose data React Router asked for (`<page>.data`) when the app opened it without a page load. */
export function gatePageOfData(url: URL, origin: string) {
  if (url.origin !== origin || !url.pathname.endsWith(".data")) return null;
  const page = new URL(url.pathname.slice(0, -".data".length), origin);
  return isGatePage(page, origin) ? page.href : null;
}
