// Serves the calibration build (bench/calibration/build): static assets, then every other
// request to React Router. Answers /readyz for bench/helpers.mjs's startServer.
//
//   PORT=3000 node bench/calibration/server.mjs
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const buildDir = path.join(import.meta.dirname, "build");
const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);

const app = express();
app.disable("x-powered-by");
// Compressed like the site's own responses, so the two are compared on the same bytes.
app.use(compression());
app.get("/readyz", (_req, res) => {
  res.json({ status: "ready" });
});
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
app.use(createRequestHandler({ build, mode: "production" }));

const server = app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
