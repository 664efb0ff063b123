import { newQueueToken } from "./waiting-room.server";

/**
 * The queue cookie: a random token only the visitor's browser knows (the database keeps its
 * hash). It is what keeps a place without any script; HttpOnly so page scripts never see it,
 * Lax so it goes with a plain link back to the queue page.
 */
export const QUEUE_COOKIE = "pitlane.queue";
const QUEUE_COOKIE_DAYS = 30;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The visitor's queue token, or null when the cookie is missing or not one we could have set. */
export function readQueueToken(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === QUEUE_COOKIE) {
      const value = rest.join("=");
      return TOKEN.test(value) ? value : null;
    }
  }
  return null;
}

/** The visitor's token, or a new one with the Set-Cookie header that gives it to the browser. */
export function queueTokenFor(request: Request, siteUrl: string) {
  const existing = readQueueToken(request);
  if (existing) return { token: existing, header: null };
  const token = newQueueToken();
  const secure = siteUrl.startsWith("https://") ? "; Secure" : "";
  const maxAge = QUEUE_COOKIE_DAYS * 24 * 60 * 60;
  return { token, header: `${QUEUE_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}` };
}
