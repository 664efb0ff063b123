// Builds build/client/sw.js after the app build (react-router.config.ts calls it from buildEnd):
// workbox-build lists the files to precache, Vite bundles app/sw/service-worker.ts with that
// list and the Workbox runtime inlined, so the worker is one same-origin script that needs no
// importScripts (the CSP's 'strict-dynamic' would refuse it). docs/decisions/0005 says why.
import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "vite";
import { getManifest } from "workbox-build";

const root = path.resolve(import.meta.dirname, "..");

export async function buildServiceWorker(clientDirectory: string) {
  const { manifestEntries = [], warnings } = await getManifest({
    globDirectory: clientDirectory,
    // Hashed scripts, styles and fonts, the web-app icons and the SVG mark. Splash screens are
    // large and only read when the app is launched from the home screen, so they stay out.
    globPatterns: ["assets/**/*.{js,css,woff2}", "icons/*.png", "favicon.svg"],
    globIgnores: ["sw.js"],
    // Names under assets/ carry a content hash, so the URL is the revision.
    dontCacheBustURLsMatching: /^assets\//,
    maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
  });
  for (const warning of warnings) console.warn(`Service worker: ${warning}`);

  // The offline page is rendered by the server, so it is fetched when the worker installs.
  // It links to this build's assets: its revision follows them.
  const assetsRevision = createHash("sha256").update(JSON.stringify(manifestEntries)).digest("hex").slice(0, 16);
  const entries = [...manifestEntries, { url: "/offline", revision: assetsRevision }];

  await build({
    configFile: false,
    root,
    logLevel: "warn",
    publicDir: false,
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      "self.__WB_MANIFEST": JSON.stringify(entries),
    },
    build: {
      outDir: clientDirectory,
      emptyOutDir: false,
      target: "es2022",
      minify: true,
      rolldownOptions: {
        input: path.join(root, "app/sw/service-worker.ts"),
        output: { format: "iife", entryFileNames: "sw.js" },
      },
    },
  });
  const total = entries.length;
  console.log(`Service worker: ${path.relative(root, path.join(clientDirectory, "sw.js"))}, ${total} files precached`);
}
