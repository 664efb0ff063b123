import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

// The built client's files, served by Express in production (Vite serves them in development).

/** Hashed assets never change: cached for a year, and never looked up as a folder's index. */
export function builtAssets(buildDir: string): RequestHandler {
  return express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false });
}

/**
 * The other public files (service worker, icons, splash screens) are known once built, so a page
 * or an API call goes on to the router without a look at the disk. They revalidate after an hour;
 * the service worker always does.
 */
export function builtPublicFiles(buildDir: string): RequestHandler {
  const publicFiles = filesUnder(path.join(buildDir, "client"), ["assets"]);
  const servePublic = express.static(path.join(buildDir, "client"), {
    maxAge: "1h",
    index: false,
    setHeaders(res, file) {
      // Browsers compare the service worker byte for byte on every check: always revalidate it.
      if (path.basename(file) === "sw.js") res.setHeader("Cache-Control", "no-cache");
    },
  });
  return (req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next());
}

/** The URL paths (`/icons/icon-64.png`) of the files under `dir`, leaving out the top-level folders `skip`. */
function filesUnder(dir: string, skip: string[]) {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (skip.includes(relative[0]!)) continue;
    found.add(`/${relative.join("/")}`);
  }
  return found;
}
