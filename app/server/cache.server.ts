/**
 * Cache-Control for public pages: browsers revalidate, a CDN may keep the page's data (`.data`)
 * for a minute and serve it stale for ten while it refetches. The page's HTML itself is never
 * shared (`documentCacheControl`). Signed-in responses are made private by the auth middleware
 * whatever a route says.
 */
export const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

export function publicPageHeaders() {
  return { "Cache-Control": PUBLIC_PAGE_CACHE };
}

/**
 * The Cache-Control of a page's HTML. The HTML carries its response's CSP nonce: a shared cache
 * keeping it would hand one nonce to every visitor for minutes, and a script injected into the
 * page could then carry it. So HTML is kept by the browser alone, and revalidated.
 */
export function documentCacheControl(cacheControl: string | null) {
  if (cacheControl && /\b(private|no-store)\b/i.test(cacheControl)) return cacheControl;
  return "private, no-cache";
}
