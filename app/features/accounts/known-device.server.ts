import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Auth } from "~/server/auth/auth.server";

// A device cookie (OWASP "Slow down online guessing attacks with device cookies"): a browser
// that has signed in to an account before carries a token bound to that account, and signs in
// to it even while strangers' failures have locked the address out of new devices.

const COOKIE = "pitlane.device";
const SECURE_COOKIE = "__Host-pitlane.device";
const KNOWN_DEVICE_SECONDS = 365 * 24 * 60 * 60;

async function signingKey(auth: Auth) {
  const context = await auth.$context;
  return { secret: context.secret, https: context.baseURL.startsWith("https://") };
}

function signature(secret: string, userId: string, nonce: string) {
  return createHmac("sha256", secret).update(`known-device:${userId}.${nonce}`).digest("base64url");
}

/** The Set-Cookie header that makes this browser a known device of the account. */
export async function knownDeviceCookie(auth: Auth, userId: string) {
  const { secret, https } = await signingKey(auth);
  const nonce = randomBytes(16).toString("base64url");
  const value = `${userId}.${nonce}.${signature(secret, userId, nonce)}`;
  const name = https ? SECURE_COOKIE : COOKIE;
  return `${name}=${value}; Max-Age=${KNOWN_DEVICE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${https ? "; Secure" : ""}`;
}

/** Whether the browser that sent `headers` has signed in to this account before. */
export async function isKnownDevice(auth: Auth, headers: Headers, userId: string) {
  const cookies = headers.get("cookie") ?? "";
  const match = /(?:^|;\s*)(?:__Host-)?pitlane\.device=([^;]+)/.exec(cookies);
  const [cookieUser, nonce, signed] = (match?.[1] ?? "").split(".");
  if (!cookieUser || !nonce || !signed || cookieUser !== userId) return false;
  const { secret } = await signingKey(auth);
  const expected = Buffer.from(signature(secret, userId, nonce));
  const given = Buffer.from(signed);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
