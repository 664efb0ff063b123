import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import * as entry from "./entry.server";
import * as root from "./root";
import { authStep } from "./server/auth/session.server";
import { publicPageHeaders } from "./server/cache.server";
import { requestContext, runtimeContext } from "./server/context.server";
import { parseEnv, setEnv } from "./server/env.server";
import { flashCookieHeader } from "./server/flash.server";
import type { Runtime } from "./server/runtime.server";

// The site's root route and entry module answering a page's data (`.data`), as React Router runs
// them, with a public page below the root like /events.

const publicPage = {
  loader: () => ({ title: "Upcoming events" }),
  headers: () => publicPageHeaders(),
  default: () => null,
};

const build = {
  entry: { module: entry },
  routes: {
    root: { id: "root", path: "", module: root },
    "routes/events": { id: "routes/events", parentId: "root", path: "events", module: publicPage },
  },
  assets: {
    entry: { module: "/assets/entry.client.js", imports: [] },
    routes: {},
    url: "/assets/manifest.js",
    version: "test",
  },
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: { v8_middleware: true },
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

let env: ReturnType<typeof parseEnv>;
beforeAll(() => {
  env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-entry-")),
    AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
  });
  setEnv(env);
});

/** A visitor (not signed in) asks for /events.data, as a client-side navigation does. */
async function visitorData(cookie?: string) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, {
    env,
    storage: { publicBase: "/media/" },
    steps: { auth: authStep, cart: (_args: unknown, next: () => Promise<Response>) => next() },
  } as unknown as Runtime);
  context.set(requestContext, { ip: "192.0.2.10", nonce: "n", requestId: "r" });
  const handler = createRequestHandler(build, "production");
  const response = await handler(
    new Request("http://localhost:3000/events.data", { headers: cookie ? { cookie } : {} }),
    context,
  );
  return { response, body: await response.text() };
}

describe("a page's data", () => {
  it("is public for a visitor without a flash message, so a CDN may keep it", async () => {
    const { response, body } = await visitorData();
    expect(response.status).toBe(200);
    expect(body).toContain("Upcoming events");
    expect(response.headers.get("cache-control")).toContain("public");
  });

  it("is private when it carries a flash message, whatever the page says", async () => {
    const flash = (await flashCookieHeader({ kind: "success", message: "Your car is shared" })).split(";")[0];
    const { response, body } = await visitorData(flash);
    expect(response.status).toBe(200);
    expect(body).toContain("Your car is shared");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});
