import { createCookie, redirect } from "react-router";
import { getEnv } from "./env.server";

export type Flash = { kind: "success" | "info" | "error"; message: string };

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
  headers.append("Set-Cookie", await cookie().serialize(flash));
  return redirect(url, { ...init, headers });
}

/** Reads the flash message, if any, and the header that clears it. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; headers?: HeadersInit }> {
  const header = request.headers.get("cookie");
  if (!header?.includes("pitlane.flash=")) return { flash: null };
  const value = (await cookie().parse(header)) as Flash | null;
  const clear = await cookie().serialize("", { maxAge: 0 });
  const valid = value && typeof value.message === "string" && ["success", "info", "error"].includes(value.kind);
  return { flash: valid ? value : null, headers: { "Set-Cookie": clear } };
}
