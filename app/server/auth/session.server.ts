import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { requestContext, runtimeContext, type SessionUser, userContext } from "../context.server";
import { getLog } from "../log.server";
import { type Auth, SESSION_ABSOLUTE_SECONDS, sessionCookieName } from "./auth.server";
import type { KeptSignIn } from "./session-cache.server";

const ROLE_RANK = { member: 0, organizer: 1, admin: 2 } as const;
export type Role = keyof typeof ROLE_RANK;

function isRole(value: unknown): value is Role {
  return typeof value === "string" && value in ROLE_RANK;
}

export function hasRole(user: Pick<SessionUser, "role">, role: Role) {
  return ROLE_RANK[user.role] >= ROLE_RANK[role];
}

/** Headers for Better Auth calls: the browser's, with the client address the server saw. */
export function authHeaders(request: Request, context: Readonly<RouterContextProvider>) {
  const headers = new Headers(request.headers);
  headers.set("x-pitlane-client-ip", context.get(requestContext).ip);
  return headers;
}

function hasSessionCookie(header: string) {
  return /(?:^|;\s*)(?:__Host-)?pitlane\.session_token=/.test(header);
}

/**
 * The cookie the auth library reads the session from (`name=value`), when the browser sent it
 * exactly once: what a kept sign-in is found by. It must be that very cookie. A look-alike beside
 * it (`pitlane.session_token` next to the `__Host-` one, planted from a sibling subdomain) or the
 * name sent twice would otherwise let one cookie find a sign-in that another one made; then
 * nothing is kept or found, and the session is looked up as before.
 */
function keptSignInKey(header: string, name: string) {
  const found = header.split(";").filter((pair) => pair.trimStart().startsWith(`${name}=`));
  return found.length === 1 ? found[0]!.trim() : null;
}

/** Uploaded files are the same for every visitor: no session lookup, and their own year-long caching stands. */
function isSharedFile(url: URL) {
  return url.pathname.startsWith("/media/");
}

/**
 * The `auth` route step, which every page runs: loads the signed-in member into the router context.
 * A page read (GET or HEAD) may use the sign-in this server kept from a lookup of the last half
 * minute, which any change to the member's account or sessions drops on every server
 * (`SessionCache`); a form post always reads the session afresh. A session older than its absolute
 * lifetime is ended however active it was. Responses to signed-in visitors are never stored by
 * shared caches.
 */
export const authStep: MiddlewareFunction<Response> = async ({ request, context, url }, next) => {
  context.set(userContext, null);
  const header = request.headers.get("cookie") ?? "";
  if (!hasSessionCookie(header) || isSharedFile(url)) return next();

  const { auth, sessions, env } = context.get(runtimeContext);
  const key = keptSignInKey(header, sessionCookieName(env.SITE_URL));
  const reading = request.method === "GET" || request.method === "HEAD";
  let signIn = reading && key ? sessions.find(key) : undefined;
  if (!signIn) {
    const generation = sessions.generation;
    signIn = await lookUp(auth, authHeaders(request, context));
    if (signIn && key) sessions.keep(key, signIn, generation);
  }
  if (signIn && (Date.now() - signIn.user.signedInAt.getTime()) / 1000 > SESSION_ABSOLUTE_SECONDS) {
    if (key) sessions.forget(key);
    await auth.api
      .revokeSession({ headers: authHeaders(request, context), body: { token: signIn.token } })
      .catch(() => {});
    signIn = undefined;
  }
  if (signIn) context.set(userContext, signIn.user);
  const response = await next();
  if (signIn) {
    response.headers.set("Cache-Control", "private, no-store");
    response.headers.append("Vary", "Cookie");
  }
  return response;
};

/** The session and member a request's cookie names, read from the database; undefined when none. */
async function lookUp(auth: Auth, headers: Headers): Promise<KeptSignIn | undefined> {
  let result: Awaited<ReturnType<Auth["api"]["getSession"]>> = null;
  try {
    result = await auth.api.getSession({ headers });
  } catch (error) {
    getLog().warn({ err: error }, "session lookup failed");
  }
  if (!result) return undefined;
  const { user, session } = result;
  return {
    token: session.token,
    expiresAt: new Date(session.expiresAt),
    // Frozen: a kept sign-in serves many requests, so none of them may change it.
    user: Object.freeze({
      id: user.id,
      email: user.email,
      name: user.name,
      role: isRole(user.role) ? user.role : "member",
      emailVerified: user.emailVerified,
      handle: (user.handle as string | null | undefined) ?? null,
      image: user.image ?? null,
      onboarded: Boolean(user.onboardedAt),
      phoneNumber: (user.phoneNumber as string | null | undefined) ?? null,
      phoneVerified: Boolean(user.phoneNumberVerified),
      twoFactorEnabled: Boolean(user.twoFactorEnabled),
      sessionId: session.id,
      signedInAt: new Date(session.createdAt),
    }),
  };
}

/**
 * A path on this site to send the browser to after a form, or `fallback`. The target is resolved
 * the way a browser would (against `siteUrl`) and must stay on the site's origin; the answer is
 * only ever its path, query and fragment. Browsers drop tabs and line breaks from a URL and read a
 * backslash as a slash, so `/\t/evil.example` or `/\\evil.example` would leave the site: a target
 * with a control character or a backslash, or whose path (once decoded) starts with two slashes,
 * is refused outright.
 */
export function safeRedirect(
  target: FormDataEntryValue | string | null | undefined,
  siteUrl: string,
  fallback = "/",
): string {
  if (typeof target !== "string" || !target.startsWith("/") || hasUnsafeCharacter(target)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(target, siteUrl);
  } catch {
    return fallback;
  }
  if (resolved.origin !== new URL(siteUrl).origin) return fallback;
  const decoded = decodedPath(resolved.pathname);
  if (decoded === null || decoded.startsWith("//") || hasUnsafeCharacter(decoded)) return fallback;
  return resolved.pathname + resolved.search + resolved.hash;
}

/** A C0 control character, DEL or a backslash anywhere in `text`. */
function hasUnsafeCharacter(text: string) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

function decodedPath(pathname: string) {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

type GuardArgs = { context: Readonly<RouterContextProvider>; url: URL };

/** The signed-in member, or a redirect to /login that returns here afterwards. */
export function requireUser({ context, url }: GuardArgs): SessionUser {
  const user = context.get(userContext);
  if (!user) {
    const back = url.pathname + url.search;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

/**
 * The signed-in member with at least `role`; a 403 page otherwise (nothing of the page leaks).
 * Staff pages also need two-factor sign-in where the site requires it: a member of staff
 * without it is sent to set it up, and comes back here afterwards.
 */
export function requireRole(args: GuardArgs, role: Role): SessionUser {
  const user = requireUser(args);
  if (!hasRole(user, role)) throw data("You do not have access to this page", { status: 403 });
  const { env } = args.context.get(runtimeContext);
  if (env.STAFF_TWO_FACTOR === "required" && !user.twoFactorEnabled) {
    const back = args.url.pathname + args.url.search;
    throw redirect(`/settings/twoFactor?required=1&redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

/** Pages for signed-out visitors (login, sign-up) send a signed-in member on. */
export function redirectIfSignedIn({ context, url }: GuardArgs, siteUrl: string) {
  if (context.get(userContext)) throw redirect(safeRedirect(url.searchParams.get("redirectTo"), siteUrl, "/members"));
}
