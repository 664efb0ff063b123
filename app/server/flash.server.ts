import { createCookie, redirect } from "react-router";
import { getEnv } from "./env.server";

export type Flash = {
  kind: "success" | "info" | "error";
  message: string;
  /** A follow-up link shown with the message ("View cart"); a same-site path. */
  link?: { href: string; label: string };
};

let flashCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  const env = getEnv();
  flashCookie ??= createCookie("pitlane.flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.SITE_URL.startsWith("https://"),
    secrets: [env.AUTH_SECRET],
    maxAge: 60,
  });
  return flashCookie;
}

/** A redirect that shows `message` once on the next page (after a form succeeded). */
export async function redirectWithFlash(url: string, flash: Flash, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookieHeader(flash));
  return redirect(url, { ...init, headers });
}

/** The Set-Cookie value that shows `flash` on the next page, for responses that are not redirects. */
export function flashCookieHeader(flash: Flash): Promise<string> {
  return cookie().serialize(flash);
}

/** Whether the request brings a flash message: the page or data answering it is this visitor's own. */
export function bringsFlash(request: Request) {
  return /(?:^|;)\s*pitlane\.flash=/.test(request.headers.get("cookie") ?? "");
}

/** Reads the flash message, if any, and the header that clears it. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; headers?: HeadersInit }> {
  const header = request.headers.get("cookie");
  if (!header?.includes("pitlane.flash=")) return { flash: null };
  const value = (await cookie().parse(header)) as Flash | null;
  const clear = await cookie().serialize("", { maxAge: 0 });
  const valid = value && typeof value.message === "string" && ["success", "info", "error"].includes(value.kind);
  if (!valid) return { flash: null, headers: { "Set-Cookie": clear } };
  const link =
    value.link && typeof value.link.label === "string" && /^\/(?![/\\])/.test(String(value.link.href))
      ? { href: value.link.href, label: value.link.label }
      : undefined;
  return { flash: { kind: value.kind, message: value.message, link }, headers: { "Set-Cookie": clear } };
}
