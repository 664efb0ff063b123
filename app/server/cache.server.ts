/**
 * Cache-Control for public pages: browsers revalidate, a CDN may keep the page for a minute
 * and serve it stale for ten while it refetches. Signed-in responses are made private by the
 * auth middleware whatever a route says.
 */
export const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

export function publicPageHeaders() {
  return { "Cache-Control": PUBLIC_PAGE_CACHE };
}
