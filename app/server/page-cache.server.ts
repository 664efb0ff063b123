import { createHash } from "node:crypto";
import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The page cache for anonymous visitors (docs/page-cache.md). It sits in front of the whole app,
 * at the level of Node's request listener: a hit is answered from memory before Express, logging
 * or the router do any work.
 *
 * - Only GET and HEAD of pages (and their `.data` twins) from visitors without a session, cart or
 *   flash cookie are looked up; the app itself marks a response as storable (`x-page-cache:
 *   public`, or a public Cache-Control on data), and only a 200 without Set-Cookie is kept.
 * - A page is fresh for `freshMs` after its render began, and never served older than
 *   `maxStaleMs`: figures such as places left are at most that stale. Between the two, visitors
 *   get the stored copy while one render refreshes it in the background; past `maxStaleMs`,
 *   every visitor waits for one render. A rush of misses renders each page once.
 * - Purges (an edit, a sale, a draw result, a moderation decision) drop the pages under the given
 *   paths at once; a render that began before the purge is served to those waiting for it, but is
 *   not kept as fresh.
 * - Stored pages carry no CSP nonce: the inline scripts and styles that carried it are allowed by
 *   hash instead, and any others taken out, so the bytes (and their gzip and brotli forms, made
 *   once) are the same for everyone.
 * - Memory is bounded by `maxBytes`, least recently used pages going first.
 */
export type PageCacheOptions = {
  maxBytes: number;
  freshMs?: number;
  maxStaleMs?: number;
  /** How long visitors wait on another visitor's render before rendering themselves. */
  waitMs?: number;
  now?: () => number;
  onEvent?: (event: CacheEvent) => void;
  onError?: (error: unknown) => void;
};

export type CacheEvent = "hit" | "stale" | "miss" | "wait" | "bypass" | "pass" | "not-modified";

type Variant = {
  body: Buffer;
  headers: OutgoingHttpHeaders;
  /** The headers with X-Cache, as the flat list `writeHead` sends without storing them one by one. */
  raw?: Partial<Record<ServedAs, string[]>>;
};
type ServedAs = "HIT" | "STALE" | "MISS";

type Entry = {
  key: string;
  path: string;
  /** When the render that made it began: its figures are at least this old. */
  renderedAt: number;
  etag: string;
  /** The headers every form of the page is sent with. */
  common: OutgoingHttpHeaders;
  compressible: boolean;
  identity: Variant;
  /** The compressed forms made so far: each is made once, when a visitor first asks for it. */
  encoded: Partial<Record<Encoding, Variant>>;
  encoding: Partial<Record<Encoding, Promise<unknown>>>;
  notModified: OutgoingHttpHeaders;
  bytes: number;
};

type Render = Promise<Entry | null>;
type Rendered = { entry: Entry | null; captured: Captured | null };

/**
 * Cookies that make a page someone's own: the session (and Better Auth's others), the cart, the
 * flash. Not the known-device cookie, read only when signing in, nor the queue cookie that
 * browsers may still hold from when a waiting-room place was kept in one (nothing reads it now).
 */
const PERSONAL_COOKIE = /(?:^|;)\s*(?:__(?:Host|Secure)-)?pitlane\.(?!(?:device|queue)=)[^=;]*=/;
/** Paths never looked up: staff and members' pages, the API, development tools, health and metrics. */
const UNCACHED_PREFIXES = ["/admin", "/members", "/api/", "/dev/", "/healthz", "/readyz", "/metrics", "/assets/"];
/** The response header by which the app marks a rendered document as the same for every anonymous visitor. */
export const STORABLE_HEADER = "x-page-cache";
const DROPPED_HEADERS = new Set([
  STORABLE_HEADER,
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "x-request-id",
]);
const MIN_COMPRESSED = 1024;
const PURGES_REMEMBERED = 512;

type Encoding = "gzip" | "br";
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/**
 * Levels that cost a few milliseconds on a 90 kB page (on the thread pool, not the event loop):
 * brotli 5 is within 1% of its level 6 for half the time; its levels 9 and 11 cost 20 to 100 times
 * more for 1% to 9% less.
 */
const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  gzip: (body) => gzip(body, { level: 6 }),
  br: (body) =>
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
};

export function createPageCache(options: PageCacheOptions) {
  const freshMs = options.freshMs ?? 1000;
  const maxStaleMs = options.maxStaleMs ?? 2000;
  const waitMs = options.waitMs ?? 15_000;
  const now = options.now ?? Date.now;
  const maxEntryBytes = Math.max(256 * 1024, Math.floor(options.maxBytes / 8));
  const onEvent = options.onEvent ?? (() => {});
  const entries = new Map<string, Entry>();
  const renders = new Map<string, Render>();
  let bytes = 0;
  /** The latest purges, numbered, so a render can tell whether one touched its page meanwhile. */
  let purges = 0;
  const recentPurges: { seq: number; paths: readonly string[] }[] = [];

  function store(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) {
      bytes -= previous.bytes;
      entries.delete(entry.key);
    }
    if (entry.bytes > maxEntryBytes) return;
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const [key, oldest] of entries) {
      if (bytes <= options.maxBytes) break;
      entries.delete(key);
      bytes -= oldest.bytes;
    }
  }

  /**
   * Whether a purge of `path` came after purge number `seq`. Purges of other pages (a sale purges
   * the shop while an article renders) do not count; when too many came to tell, it did.
   */
  function purgedSince(seq: number, path: string) {
    if (purges === seq) return false;
    const oldest = recentPurges[0]?.seq ?? purges + 1;
    if (oldest > seq + 1) return true;
    return recentPurges.some(
      (purge) => purge.seq > seq && purge.paths.some((purged) => purged === "*" || underPath(path, purged)),
    );
  }

  /** Makes a compressed form of a page in the background; until it is ready, visitors get another. */
  function encodeLater(entry: Entry, encoding: Encoding) {
    entry.encoding[encoding] ??= encode(entry, encoding).then(
      (added) => {
        if (entries.get(entry.key) === entry) bytes += added;
      },
      (error: unknown) => options.onError?.(error),
    );
  }

  /**
   * Renders the page through the app and keeps it when the app says it may be shared. Resolves
   * with the stored page, or with what the app answered when that may not be kept.
   */
  function render(key: string, req: IncomingMessage, res: ServerResponse, app: Listener) {
    const startedAt = now();
    const purgesAtStart = purges;
    const previous = entries.get(key);
    const rendering = capture(req, res, app).then(async (captured): Promise<Rendered> => {
      if (!captured) return { entry: null, captured: null };
      if (!isStorable(req, captured)) return { entry: null, captured };
      const entry = makeEntry(key, captured, startedAt, previous);
      // The visitor who waited for the render gets it in the form they asked for.
      const wanted = preferredEncoding(req.headers["accept-encoding"]);
      if (wanted && entry.compressible && !entry.encoded[wanted]) {
        const encoding = encode(entry, wanted);
        entry.encoding[wanted] = encoding;
        await encoding;
      }
      // A purge while it rendered: serve it to whoever waited, but keep nothing that may predate it.
      if (!purgedSince(purgesAtStart, entry.path)) store(entry);
      else entry.renderedAt = Number.NEGATIVE_INFINITY;
      return { entry, captured };
    });
    const settled: Render = rendering.then(
      ({ entry }) => entry,
      () => null,
    );
    renders.set(key, settled);
    void settled.then(() => {
      if (renders.get(key) === settled) renders.delete(key);
    });
    return rendering;
  }

  /**
   * The request listener: answers from the cache when it can, else hands the request to `app`.
   * `app` is the whole site (Express), which the cache never needs to know more of.
   */
  function handle(req: IncomingMessage, res: ServerResponse, app: Listener) {
    const key = lookupKey(req);
    if (!key) {
      onEvent("bypass");
      return app(req, res);
    }
    const entry = entries.get(key);
    const age = entry ? now() - entry.renderedAt : Number.POSITIVE_INFINITY;
    if (entry && age < freshMs) {
      touch(entry);
      return serve(req, res, entry, "HIT");
    }
    const inFlight = renders.get(key);
    if (entry && age < maxStaleMs) {
      touch(entry);
      serve(req, res, entry, "STALE");
      if (!inFlight && req.method === "GET") revalidate(key, req, app);
      return;
    }
    if (inFlight) {
      onEvent("wait");
      waitFor(inFlight)
        .then((fresh) => {
          if (fresh) serve(req, res, fresh, "HIT");
          else app(req, res);
        })
        .catch((error: unknown) => fail(res, error));
      return;
    }
    if (req.method === "HEAD") {
      onEvent("pass");
      return app(req, res);
    }
    onEvent("miss");
    render(key, req, res, app)
      .then(({ entry: fresh, captured }) => {
        if (fresh) serve(req, res, fresh, "MISS");
        else if (captured) sendUnstored(req, res, captured);
      })
      .catch((error: unknown) => fail(res, error));
  }

  function fail(res: ServerResponse, error: unknown) {
    options.onError?.(error);
    if (res.writableEnded || res.destroyed) return;
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("Error");
  }

  /**
   * Renders the page again for the cache alone: the visitor who asked was already answered with
   * the kept copy, so the app writes into a response that no connection reads.
   */
  function revalidate(key: string, req: IncomingMessage, app: Listener) {
    render(key, req, new ServerResponse(req), app).catch((error: unknown) => options.onError?.(error));
  }

  function waitFor(rendering: Render) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(resolve, waitMs, null);
    });
    return Promise.race([rendering, timeout]).finally(() => clearTimeout(timer));
  }

  function touch(entry: Entry) {
    // A Map keeps insertion order: moving the entry to the end makes the first the least recent.
    entries.delete(entry.key);
    entries.set(entry.key, entry);
  }

  function serve(req: IncomingMessage, res: ServerResponse, entry: Entry, state: ServedAs) {
    if (res.writableEnded || res.destroyed) return;
    const match = req.headers["if-none-match"];
    if (match && matchesEtag(match, entry.etag)) {
      onEvent("not-modified");
      res.writeHead(304, entry.notModified);
      res.end();
      return;
    }
    if (state !== "MISS") onEvent(state === "HIT" ? "hit" : "stale");
    const variant = pickVariant(req.headers["accept-encoding"], entry, encodeLater);
    res.writeHead(200, rawHeaders(variant, state));
    res.end(req.method === "HEAD" ? undefined : variant.body);
  }

  return {
    handle,
    /**
     * Drops every stored page under one of `paths` (a path matches itself, its sub-paths, its
     * `.data` twin and any query); "/" is the home page alone, "*" everything.
     */
    purge(paths: readonly string[]) {
      if (paths.length === 0) return;
      purges++;
      recentPurges.push({ seq: purges, paths });
      if (recentPurges.length > PURGES_REMEMBERED) recentPurges.shift();
      if (paths.includes("*")) {
        entries.clear();
        bytes = 0;
        return;
      }
      for (const [key, entry] of entries) {
        if (paths.some((path) => underPath(entry.path, path))) {
          entries.delete(key);
          bytes -= entry.bytes;
        }
      }
    },
    /** Pages kept and the memory they hold. */
    stats() {
      return { pages: entries.size, bytes, maxBytes: options.maxBytes };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The key of a request the cache may answer, or null when it must go to the app. */
export function lookupKey(req: IncomingMessage) {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const url = req.url ?? "";
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  const cookie = req.headers.cookie;
  if (cookie && PERSONAL_COOKIE.test(cookie)) return null;
  if (req.headers.authorization) return null;
  const path = pathOf(url);
  if (UNCACHED_PREFIXES.some((prefix) => path.startsWith(prefix))) return null;
  // Pages and their data; files (assets, media, feeds with their own handling) are not looked up.
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (last.includes(".") && !last.endsWith(".data")) return null;
  return url;
}

function pathOf(url: string) {
  const mark = url.indexOf("?");
  return mark === -1 ? url : url.slice(0, mark);
}

/** The page a key shows: `/events.data` is `/events`, `/_root.data` the home page. */
function pagePath(url: string) {
  const path = pathOf(url);
  if (path === "/_root.data") return "/";
  return path.endsWith(".data") ? path.slice(0, -".data".length) : path;
}

export function underPath(page: string, path: string) {
  if (path === "/") return page === "/";
  const base = path.endsWith("/") ? path.slice(0, -1) : path;
  return page === base || page.startsWith(`${base}/`);
}

function matchesEtag(header: string, etag: string) {
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}

function rawHeaders(variant: Variant, state: ServedAs) {
  variant.raw ??= {};
  let raw = variant.raw[state];
  if (!raw) {
    raw = [];
    for (const [name, value] of Object.entries(variant.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) raw.push(name, String(one));
    }
    raw.push("x-cache", state);
    variant.raw[state] = raw;
  }
  return raw;
}

function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const accepted = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  if (!accepted) return null;
  if (accepts(accepted, "br")) return "br";
  if (accepts(accepted, "gzip")) return "gzip";
  return null;
}

const ACCEPTS: Record<Encoding, RegExp> = {
  br: /\bbr\b(?!;q=0(?:\.0*)?\b)/,
  gzip: /\bgzip\b(?!;q=0(?:\.0*)?\b)/,
};

function accepts(accepted: string, encoding: Encoding) {
  return ACCEPTS[encoding].test(accepted);
}

function pickVariant(
  acceptEncoding: string | string[] | undefined,
  entry: Entry,
  encodeLater: (entry: Entry, encoding: Encoding) => void,
) {
  if (!entry.compressible) return entry.identity;
  const wanted = preferredEncoding(acceptEncoding);
  if (!wanted) return entry.identity;
  const variant = entry.encoded[wanted];
  if (variant) return variant;
  encodeLater(entry, wanted);
  const accepted = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  if (wanted === "br" && entry.encoded.gzip && accepts(accepted, "gzip")) return entry.encoded.gzip;
  return entry.identity;
}

type Captured = {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  nonce: string | undefined;
};

/**
 * Runs the request through the app while holding back what it writes, uncompressed: the caller
 * decides whether to keep it, then answers. The app's own compression sees no Accept-Encoding (so
 * leaves the bytes alone), and no validators (so renders a whole page rather than a 304).
 * Resolves null when the app gave up on the request.
 */
function capture(req: IncomingMessage, res: ServerResponse, app: Listener) {
  return new Promise<Captured | null>((resolve) => {
    const acceptEncoding = req.headers["accept-encoding"];
    const ifNoneMatch = req.headers["if-none-match"];
    delete req.headers["accept-encoding"];
    delete req.headers["if-none-match"];
    delete req.headers["if-modified-since"];
    const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
    const chunks: Buffer[] = [];
    const restore = () => {
      Object.assign(res, original);
      if (acceptEncoding !== undefined) req.headers["accept-encoding"] = acceptEncoding;
      if (ifNoneMatch !== undefined) req.headers["if-none-match"] = ifNoneMatch;
    };
    const push = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array),
      );
    };
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      this.statusCode = status;
      const headers = rest.find((value) => typeof value === "object" && value !== null);
      if (Array.isArray(headers)) {
        for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(String(headers[i]), headers[i + 1]);
      } else if (headers) {
        for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value);
      }
      return this;
    } as ServerResponse["writeHead"];
    res.flushHeaders = () => {};
    res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      push(chunk, encoding);
      const done = [encoding, callback].find((value) => typeof value === "function") as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as ServerResponse["write"];
    res.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
      push(chunk, encoding);
      restore();
      const done = [chunk, encoding, callback].find((value) => typeof value === "function") as (() => void) | undefined;
      const headers = res.getHeaders();
      for (const name of Object.keys(headers)) res.removeHeader(name);
      resolve({
        status: res.statusCode,
        headers,
        body: Buffer.concat(chunks),
        nonce: (res as ServerResponse & { locals?: { nonce?: string } }).locals?.nonce,
      });
      if (done) process.nextTick(done);
      return this;
    } as ServerResponse["end"];
    res.once("close", () => {
      if (!res.writableEnded) {
        restore();
        resolve(null);
      }
    });
    app(req, res);
  });
}

const COMPRESSIBLE = /^(text\/|application\/(json|xml|atom\+xml|javascript)|image\/svg)/;

/** A page that may not be kept goes out as the app made it, compressed when the visitor can take it. */
function sendUnstored(req: IncomingMessage, res: ServerResponse, captured: Captured) {
  if (res.writableEnded || res.destroyed) return;
  let body = captured.body;
  const headers = { ...captured.headers };
  delete headers[STORABLE_HEADER];
  const accepted = String(req.headers["accept-encoding"] ?? "");
  if (
    body.length >= MIN_COMPRESSED &&
    !headers["content-encoding"] &&
    COMPRESSIBLE.test(String(headers["content-type"] ?? "")) &&
    /\bgzip\b/.test(accepted)
  ) {
    body = zlib.gzipSync(body, { level: 6 });
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = body.length;
  headers.vary = "Accept-Encoding, Cookie";
  delete headers["transfer-encoding"];
  res.writeHead(captured.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

function isStorable(req: IncomingMessage, captured: Captured) {
  if (req.method !== "GET" || captured.status !== 200) return false;
  if (captured.headers["set-cookie"]) return false;
  if (captured.headers[STORABLE_HEADER] === "public") return true;
  const cacheControl = String(captured.headers["cache-control"] ?? "");
  return /\bpublic\b/.test(cacheControl) && !/\b(private|no-store)\b/.test(cacheControl);
}

function makeEntry(key: string, captured: Captured, renderedAt: number, previous: Entry | undefined): Entry {
  const { body, csp } = withoutNonce(
    captured.body,
    captured.nonce,
    captured.headers["content-security-policy"],
    captured.headers["content-type"],
  );
  const etag = `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
  if (previous && previous.etag === etag) {
    // The same bytes as before: only the time moves on, the compressed forms are kept.
    return { ...previous, renderedAt };
  }
  const common: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(captured.headers)) {
    if (!DROPPED_HEADERS.has(name) && value !== undefined) common[name] = value;
  }
  if (csp) common["content-security-policy"] = csp;
  common.etag = etag;
  common.vary = "Accept-Encoding, Cookie";
  const notModified: OutgoingHttpHeaders = {};
  for (const name of ["cache-control", "etag", "vary", "content-security-policy", "x-content-type-options"]) {
    if (common[name] !== undefined) notModified[name] = common[name];
  }
  return {
    key,
    path: pagePath(key),
    renderedAt,
    etag,
    common,
    compressible: body.length >= MIN_COMPRESSED,
    identity: { body, headers: { ...common, "content-length": body.length } },
    encoded: {},
    encoding: {},
    notModified,
    bytes: body.length + key.length * 2 + 2048,
  };
}

/** Adds a compressed form to the entry; resolves to the bytes it added. */
async function encode(entry: Entry, encoding: Encoding) {
  const body = await COMPRESS[encoding](entry.identity.body);
  entry.encoded[encoding] = {
    body,
    headers: { ...entry.common, "content-encoding": encoding, "content-length": body.length },
  };
  entry.bytes += body.length;
  return body.length;
}

/**
 * An inline script or style element as the browser reads it: the open tag, the text, and the
 * first end tag of the same name (`</script` followed by a space, `/` or `>` ends it, whatever
 * comes between).
 */
const INLINE_BLOCK = /(<(script|style)(?=[\s/>])([^>]*)>)([\s\S]*?)(<\/\2(?=[\s/>])[^>]*>)/gi;

/**
 * The stored page is the same for everyone, so it cannot carry a per-response nonce. Its CSP
 * allows by SHA-256 hash only the inline scripts and styles that carried this response's nonce:
 * the nonce is new for every render, so only the server's own markup can have it, never text a
 * member wrote. Every other script and style element (one that an injection bug let through) is
 * taken out of the kept page: the hash would let it run for every visitor, and a `<script src>`
 * of this site would ride on the 'self' these pages allow in place of 'strict-dynamic'. A page's
 * data (`.data`) is not HTML and is kept as it was sent.
 */
export function withoutNonce(
  body: Buffer,
  nonce: string | undefined,
  csp: OutgoingHttpHeaders[string],
  contentType: OutgoingHttpHeaders[string],
) {
  if (typeof csp !== "string") return { body, csp: undefined };
  if (!nonce) return { body, csp };
  if (!/^text\/html\b/i.test(String(contentType ?? ""))) return { body, csp: withoutNonceSource(csp, nonce, [], []) };
  const marked = ` nonce="${nonce}"`;
  const hashes = { script: new Set<string>(), style: new Set<string>() };
  const kept = body
    .toString("utf8")
    .replace(INLINE_BLOCK, (_block, open: string, tag: string, attributes: string, content: string, close: string) => {
      if (!attributes.includes(marked)) return "";
      if (!/\ssrc=/i.test(attributes) && content !== "") {
        hashes[tag.toLowerCase() === "script" ? "script" : "style"].add(
          `'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`,
        );
      }
      return `${open}${content}${close}`;
    })
    .replaceAll(marked, "");
  return {
    body: Buffer.from(kept, "utf8"),
    csp: withoutNonceSource(csp, nonce, [...hashes.script], [...hashes.style]),
  };
}

function withoutNonceSource(csp: string, nonce: string, scripts: string[], styles: string[]) {
  return csp
    .split(";")
    .map((directive) => {
      const trimmed = directive.trim();
      const nonceSource = `'nonce-${nonce}'`;
      if (!trimmed.includes(nonceSource)) return trimmed;
      const name = trimmed.split(/\s+/, 1)[0];
      const hashes = name === "script-src" ? scripts : name === "style-src" ? styles : [];
      // 'strict-dynamic' trusts only what a nonce or hash lets in; without a nonce, the page's
      // module preloads come from this site, so 'self' (which it would switch off) does instead.
      return trimmed
        .split(/\s+/)
        .filter((source) => source !== nonceSource && source !== "'strict-dynamic'")
        .concat(hashes)
        .join(" ");
    })
    .join("; ");
}
