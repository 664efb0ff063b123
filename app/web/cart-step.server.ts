import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { type CartOwner, type MergeAdjustment, mergeVisitorCartIntoMember } from "~/features/cart/cart.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { type Flash, flashCookieHeader } from "~/server/flash.server";
import { clearVisitorCookie, readVisitorToken } from "./visitor-cookie.server";

/** Set by the `cart` step when a merge had to change something; the root loader shows it. */
export const cartNoticeContext = createContext<{ flash: Flash; shown: boolean } | null>(null);

/** Whose cart this request is about: the signed-in member's, the visitor's cookie's, or nobody's yet. */
export function cartOwner(context: Readonly<RouterContextProvider>, request: Request): CartOwner | null {
  const user = context.get(userContext);
  if (user) return { userId: user.id };
  const token = readVisitorToken(request);
  return token ? { visitorToken: token } : null;
}

function mergeNotice(adjustments: MergeAdjustment[]): Flash | null {
  if (adjustments.length === 0) return null;
  const reasons = adjustments.map((adjustment) => adjustment.message).join(". ");
  return { kind: "info", message: `We added what you picked to your cart, with changes: ${reasons}.` };
}

/**
 * The `cart` route step, after `auth`. Every way of signing in (password, email link, social
 * account, a new account) ends with a request that carries both the new session and the visitor
 * cart's cookie, so this is the one place the visitor's cart joins the member's; the cookie is
 * then cleared. A visitor's pages show their own cart count, so they are never shared-cached.
 */
export const cartStep: MiddlewareFunction<Response> = async ({ request, context, url }, next) => {
  const token = readVisitorToken(request);
  if (!token || url.pathname.startsWith("/media/")) return next();
  const { db, env } = context.get(runtimeContext);
  const user = context.get(userContext);
  if (user) {
    const { adjustments } = await mergeVisitorCartIntoMember(db, {
      visitorToken: token,
      userId: user.id,
      now: new Date(),
    });
    const flash = mergeNotice(adjustments);
    if (flash) context.set(cartNoticeContext, { flash, shown: false });
  }
  const response = await next();
  if (user) {
    response.headers.append("Set-Cookie", clearVisitorCookie(env.SITE_URL));
    const notice = context.get(cartNoticeContext);
    // The page that answered did not show the notice (a redirect): the next page will.
    if (notice && !notice.shown) response.headers.append("Set-Cookie", await flashCookieHeader(notice.flash));
  } else {
    response.headers.set("Cache-Control", "private, no-store");
    response.headers.append("Vary", "Cookie");
  }
  return response;
};
