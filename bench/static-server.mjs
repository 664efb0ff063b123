// A bare Node `http` server that answers saved pages from memory: the most Node itself can do
// for a page, with nothing looked up, rendered or compressed per request. bench/edge.mjs starts it
// beside nginx, so the page cache's hits are compared with Node's own floor as well as nginx's.
//
//   node bench/static-server.mjs <pages.json> <port>
//
// `<pages.json>` lists `{ path, file, gzip }` as bench/load.mjs's startStaticNode writes it: each
// page's path, its HTML file and, when the pages are sent precompressed, its gzip file; a request
// that accepts gzip gets that form.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [list = "", port = ""] = process.argv.slice(2);
if (!list || !port) throw new Error("usage: node bench/static-server.mjs <pages.json> <port>");

const pages = new Map(
  JSON.parse(readFileSync(list, "utf8")).map(({ path, file, gzip }) => [
    path,
    { identity: readFileSync(file), gzip: gzip ? readFileSync(gzip) : undefined },
  ]),
);

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
