import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { createStaticHandler, isRouteErrorResponse, type RouteObject, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { methodNotAllowed, onlyMethods, postOnly, requireMethod } from "~/server/methods.server";
import routeConfig from "../routes";

// Every address whose route has an action and no page (no component) answers the methods it does
// not take with 405 and `Allow`, the list read from the route map itself: a route added without
// `postOnly` (app/server/methods.server.ts) fails here. The requests go through React Router's
// static handler (`queryRoute`, which the server calls for a route without a page; the route steps
// are left out): GET, HEAD and OPTIONS reach the loader, POST, PUT, PATCH and DELETE the action.

const APP = path.dirname(fileURLToPath(new URL("../root.tsx", import.meta.url)));
const FORM_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

type Module = { default?: unknown; ErrorBoundary?: unknown; loader?: unknown; action?: unknown };
type Walked = { id: string; url: string; module: Module };

/** The route map as React Router's handler takes it, with each route's module, and every route with its URL. */
async function routeTree() {
  const walked: Walked[] = [];
  async function toObjects(entries: RouteConfigEntry[], parentUrl: string): Promise<RouteObject[]> {
    return Promise.all(
      entries.map(async (entry) => {
        const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
        const module = (await import(path.join(APP, entry.file))) as Module;
        const url = joinUrl(parentUrl, entry.path);
        walked.push({ id, url, module });
        const handlers = { loader: module.loader, action: module.action } as Pick<RouteObject, "loader" | "action">;
        return entry.index
          ? { id, index: true, ...handlers }
          : { id, path: entry.path, ...handlers, children: await toObjects(entry.children ?? [], url) };
      }),
    );
  }
  const tree = [{ id: "root", path: "", children: await toObjects(routeConfig, "") }];
  return { handler: createStaticHandler(tree), walked };
}

/** A URL the path pattern matches: `:id` becomes `1`, a splat `x`, an optional segment is left out. */
function joinUrl(parent: string, pattern: string | undefined) {
  const segments = (pattern ?? "")
    .split("/")
    .filter((segment) => segment && !segment.endsWith("?"))
    .map((segment) => (segment === "*" ? "x" : segment.startsWith(":") ? "1" : segment));
  return [parent, ...segments].join("/").replace(/\/+/g, "/");
}

type Answer = { status: number; allow: string | null; type: string | null; text: string };

/** What React Router's handler answers `method` at `url` for the route `routeId` (thrown answers included). */
async function ask(
  handler: ReturnType<typeof createStaticHandler>,
  routeId: string,
  url: string,
  method: string,
): Promise<Answer> {
  const request = new Request(`http://localhost:3000${url || "/"}`, {
    method,
    ...(method === "GET" || method === "HEAD" ? {} : { body: new URLSearchParams({ intent: "preview" }) }),
  });
  let answer: unknown;
  try {
    answer = await handler.queryRoute(request, { routeId, requestContext: new RouterContextProvider() });
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) {
    const { status, headers } = answer;
    return { status, allow: headers.get("Allow"), type: headers.get("Content-Type"), text: await answer.text() };
  }
  if (isRouteErrorResponse(answer))
    return { status: answer.status, allow: null, type: null, text: String(answer.data) };
  return { status: 0, allow: null, type: null, text: String(answer) };
}

/**
 * Whether a route with an action and no page answers every method it does not take with 405 and
 * `Allow`: what is wrong, empty when nothing is. A route whose loader answers GET with anything
 * but a 405 has a GET of its own (a redirect, say) and is not one of them: `null`.
 */
async function methodProblems(
  handler: ReturnType<typeof createStaticHandler>,
  route: Walked,
): Promise<string[] | null> {
  const { id, url, module } = route;
  const get = await ask(handler, id, url, "GET");
  if (module.loader && get.status !== 405) return null;
  const where = `${url || "/"} (${id})`;
  if (get.status !== 405 || !get.allow)
    return [`${where}: GET answered ${get.status} ${get.text.split("\n")[0]}, not 405 with Allow`];
  const allowed = get.allow.split(",").map((method) => method.trim());
  const problems: string[] = [];
  if (allowed.some((method) => !(FORM_METHODS as readonly string[]).includes(method)))
    problems.push(`${where}: Allow lists ${get.allow}, not only form methods`);
  const expected = methodNotAllowed(allowed as (typeof FORM_METHODS)[number][]);
  const expectedText = await expected.text();
  if (get.text !== expectedText || get.type !== expected.headers.get("Content-Type"))
    problems.push(`${where}: GET answered ${JSON.stringify(get.text)} (${get.type}), not the plain message`);
  const refused = ["HEAD", "OPTIONS", ...FORM_METHODS.filter((method) => !allowed.includes(method))];
  for (const method of refused) {
    const answer = await ask(handler, id, url, method);
    if (answer.status !== 405 || answer.allow !== get.allow)
      problems.push(
        `${where}: ${method} answered ${answer.status} with Allow ${answer.allow}, not 405 with ${get.allow}`,
      );
  }
  // What Allow lists reaches the action (which, with no one signed in and no database, goes no further).
  for (const method of allowed) {
    const answer = await ask(handler, id, url, method);
    if (answer.status === 405) problems.push(`${where}: ${method} answered 405, though Allow lists it`);
  }
  return problems;
}

// The walk imports every route module of the site, which takes a while the first time a worker
// transforms them all on a busy machine.
describe("routes with an action and no page", { timeout: 120_000 }, () => {
  it("answer every method they do not take with 405, Allow and a plain message", async () => {
    const { handler, walked } = await routeTree();
    const covered: string[] = [];
    const problems: string[] = [];
    for (const route of walked) {
      const { action, default: page, ErrorBoundary } = route.module;
      if (!action || page || ErrorBoundary) continue;
      const found = await methodProblems(handler, route);
      if (found === null) continue;
      covered.push(route.url);
      problems.push(...found);
    }
    expect(problems).toEqual([]);
    // The walk found the routes: the article editor's helpers are one of them.
    expect(covered).toContain("/admin/articles/editor");
  });
});

describe("the walk", () => {
  const guarded = ({ request }: { request: Request }) => {
    requireMethod(request, "POST");
    return Response.json({ ok: true });
  };
  const unguarded = () => Response.json({ ok: true });

  async function problemsOf(module: Module) {
    const handler = createStaticHandler([{ id: "added", path: "/added", ...module } as RouteObject]);
    return methodProblems(handler, { id: "added", url: "/added", module });
  }

  it("fails a route added with an action and no loader", async () => {
    expect(await problemsOf({ action: unguarded })).toEqual([
      expect.stringMatching(/^\/added \(added\): GET answered 400 .*, not 405 with Allow$/),
    ]);
  });

  it("fails a route whose action takes the methods its Allow leaves out", async () => {
    const problems = await problemsOf({ loader: postOnly, action: unguarded });
    expect(problems).toEqual([
      "/added (added): PUT answered 200 with Allow null, not 405 with POST",
      "/added (added): PATCH answered 200 with Allow null, not 405 with POST",
      "/added (added): DELETE answered 200 with Allow null, not 405 with POST",
    ]);
  });

  it("passes a route with both halves, and lists every method the action takes", async () => {
    expect(await problemsOf({ loader: postOnly, action: guarded })).toEqual([]);
    const both = ({ request }: { request: Request }) => {
      requireMethod(request, "POST", "DELETE");
      return Response.json({ ok: true });
    };
    expect(await problemsOf({ loader: onlyMethods("POST", "DELETE"), action: both })).toEqual([]);
    expect(await problemsOf({ loader: onlyMethods("POST", "DELETE"), action: guarded })).toEqual([
      "/added (added): PUT answered 405 with Allow POST, not 405 with POST, DELETE",
      "/added (added): PATCH answered 405 with Allow POST, not 405 with POST, DELETE",
      "/added (added): DELETE answered 405, though Allow lists it",
    ]);
  });

  it("leaves out a route whose loader answers GET itself", async () => {
    const redirectHome = () => new Response(null, { status: 302, headers: { Location: "/" } });
    expect(await problemsOf({ loader: redirectHome, action: unguarded })).toBeNull();
  });
});
