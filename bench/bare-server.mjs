// The site's build served by React Router alone: what rendering a page costs with nothing around
// it, for bench/edge.mjs to compare the real server with.
//
//   NODE_ENV=production PORT=3000 node --import tsx bench/bare-server.mjs
//
// It loads build/server/index.js, starts the app's runtime (database, jobs) and builds each
// request's load context as server.ts does, and answers with @react-router/express on a bare
// Express app: no compression, request log, security headers, origin check, metrics, static
// files or page cache. It reads the same environment as server.ts (PORT, HOST, DATA_DIR,
// DATABASE_URL…) and answers /readyz once the runtime is started. Not for real visitors.
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";

const buildFile = path.resolve(import.meta.dirname, "../build/server/index.js");
const build = await import(pathToFileURL(buildFile).href);
const entry = build.entry.module;
const runtime = await entry.startApp();

const app = express();
app.disable("x-powered-by");
app.get("/readyz", (_req, res) => {
  res.json({ status: "ready" });
});
app.use(
  createRequestHandler({
    build,
    mode: "production",
    // The page's inline scripts carry a nonce, as in server.ts, where a security header sets it.
    getLoadContext: (req) =>
      entry.createLoadContext(runtime, {
        nonce: randomBytes(16).toString("base64"),
        requestId: randomUUID(),
        ip: req.socket.remoteAddress ?? "",
      }),
  }),
);

const server = app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
server.keepAliveTimeout = 65_000;

async function stop() {
  server.close();
  server.closeAllConnections();
  await runtime.stop();
  process.exit(0);
}
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
