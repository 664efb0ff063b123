import { newVisitorToken, VISITOR_CART_DAYS } from "~/features/cart/cart.server";

/**
 * The visitor cart's cookie: a random token only the visitor's browser knows (the database keeps
 * its hash). HttpOnly so page scripts never see it, Lax so it goes with a plain link to /cart.
 */
export const VISITOR_CART_COOKIE = "pitlane.cart";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The visitor's cart token, or null when the cookie is missing or not one we could have set. */
export function readVisitorToken(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === VISITOR_CART_COOKIE) {
      const value = rest.join("=");
      return TOKEN.test(value) ? value : null;
    }
  }
  return null;
}

function attributes(siteUrl: string, maxAge: number) {
  const secure = siteUrl.startsWith("https://") ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** A new token and the Set-Cookie header that gives it to the browser. */
export function newVisitorCookie(siteUrl: string) {
  const token = newVisitorToken();
  const header = `${VISITOR_CART_COOKIE}=${token}; ${attributes(siteUrl, VISITOR_CART_DAYS * 24 * 60 * 60)}`;
  return { token, header };
}

export function clearVisitorCookie(siteUrl: string) {
  return `${VISITOR_CART_COOKIE}=; ${attributes(siteUrl, 0)}`;
}
