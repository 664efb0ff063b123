// A bare Node `http` server that answers saved pages from memory: the most Node itself can do
// for a page, with nothing looked up, rendered or compressed per request. bench/edge.mjs starts it
// beside nginx, so the page cache's hits are compared with Node's own floor as well as nginx's.
//
//   node bench/static-server.mjs <dir> <port>
//
// `<dir>` holds one file per page as bench/load.mjs writes them for nginx (`index.html` for `/`,
// `events.html` for `/events`), with its `.gz` beside it when the pages are to be sent
// precompressed; a request that accepts gzip gets that form.
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const [dir = "", port = ""] = process.argv.slice(2);
if (!dir || !port) throw new Error("usage: node bench/static-server.mjs <dir> <port>");

/** Every page under `root`, by the path it answers: `/` for index.html, `/events` for events.html. */
function pagesUnder(root, prefix = "") {
  const pages = new Map();
  for (const entry of readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) {
      for (const [url, page] of pagesUnder(root, relative)) pages.set(url, page);
      continue;
    }
    if (!entry.name.endsWith(".html")) continue;
    const file = path.join(root, relative);
    const url = relative === "index.html" ? "/" : `/${relative.slice(0, -".html".length)}`;
    let gzip;
    try {
      gzip = readFileSync(`${file}.gz`);
    } catch {
      gzip = undefined;
    }
    pages.set(url, { identity: readFileSync(file), gzip });
  }
  return pages;
}

const pages = pagesUnder(dir);
const server = createServer((request, response) => {
  const page = pages.get(request.url ?? "/");
  if (!page) {
    response.writeHead(404, { "Content-Length": 0 });
    response.end();
    return;
  }
  const gzip = page.gzip && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
  const body = gzip ? page.gzip : page.identity;
  response.writeHead(200, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": body.length,
    ...(page.gzip ? { Vary: "Accept-Encoding" } : {}),
    ...(gzip ? { "Content-Encoding": "gzip" } : {}),
  });
  response.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
