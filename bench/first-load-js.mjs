// First-load JavaScript per public page, in gzip bytes, computed from the production build.
//
//   node bench/first-load-js.mjs            table per page and per file, JSON in bench/results/
//   node bench/first-load-js.mjs --budget   also exits 1 when a page is over the budget
//   node bench/first-load-js.mjs --no-save  do not write the JSON result
//
// A page's first load is what its server-rendered HTML makes the browser fetch before it is
// interactive: the client entry and its imports, then, for every route from the root down to the
// page's route (root, layouts, the page), the route module and its static imports. React Router
// lists exactly these in the `assets` export of build/server/index.js (they become the page's
// <link rel="modulepreload"> tags); this script follows the chunks' own static imports as well,
// in case a chunk imports one the manifest left out. Each file counts once per page, compressed
// with gzip level 9. Lazily imported chunks (import()) do not count. A page whose route opts out of
// scripts (`handle = { hydrate: false }`) counts none.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { assertBuilt, BUILD_DIR, isMain, kb, printTable, runCli, writeResult } from "./helpers.mjs";
import { PUBLIC_PAGES } from "./pages.mjs";

/** The most first-load JavaScript a public page may ship, in gzip bytes. */
export const BUDGET_BYTES = 125 * 1024;

// Static `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"`; not import().
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/** The route ids from the root down to `routeId`. */
function routeChain(routes, routeId) {
  const chain = [];
  for (let id = routeId; id; id = routes[id]?.parentId) {
    if (!routes[id]) throw new Error(`unknown route id "${id}"`);
    chain.unshift(id);
  }
  return chain;
}

/**
 * Measures the first-load JavaScript of each page from the build in `buildDir`.
 * Returns, per page, the files with their raw and gzip sizes and the totals, and whether the
 * page is within `budget` gzip bytes.
 */
export async function measureFirstLoadJs({ buildDir = BUILD_DIR, pages = PUBLIC_PAGES, budget = BUDGET_BYTES } = {}) {
  const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  const { assets, publicPath = "/", routes } = build;
  const clientDir = path.join(buildDir, "client");
  const sizes = new Map();

  const fileOf = (url) => path.join(clientDir, url.startsWith(publicPath) ? url.slice(publicPath.length) : url);
  const measure = (url) => {
    let size = sizes.get(url);
    if (!size) {
      const source = readFileSync(fileOf(url));
      size = { raw: source.length, gzip: gzipSync(source, { level: 9 }).length, source: source.toString("utf8") };
      sizes.set(url, size);
    }
    return size;
  };

  return pages.map(({ path: pagePath, routeId }) => {
    if (!assets.routes[routeId]) {
      throw new Error(
        `${pagePath}: no route "${routeId}" in the build (bench/pages.mjs). Route ids: ${Object.keys(assets.routes).join(", ")}`,
      );
    }
    const chain = routeChain(assets.routes, routeId);
    // A route whose handle says `hydrate: false` sends its page as HTML and CSS alone: no scripts.
    const scriptless = chain.some((id) => routes?.[id]?.module?.handle?.hydrate === false);
    const listed = scriptless ? [] : [assets.entry.module, ...assets.entry.imports];
    if (!scriptless)
      for (const id of chain) listed.push(assets.routes[id].module, ...(assets.routes[id].imports ?? []));

    // Deduplicate, then follow static imports the manifest did not list.
    const files = [...new Set(listed)];
    const seen = new Set(files);
    const unlisted = [];
    for (let i = 0; i < files.length; i++) {
      for (const match of measure(files[i]).source.matchAll(STATIC_IMPORT)) {
        const url = new URL(match[1], `http://x${files[i]}`).pathname;
        if (!seen.has(url)) {
          seen.add(url);
          files.push(url);
          unlisted.push(url);
        }
      }
    }

    const rows = files.map((url) => ({ file: url, raw: measure(url).raw, gzip: measure(url).gzip }));
    const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
    return {
      path: pagePath,
      routeId,
      routes: chain,
      files: rows,
      unlisted,
      raw: rows.reduce((sum, row) => sum + row.raw, 0),
      gzip,
      budget,
      withinBudget: gzip <= budget,
    };
  });
}

/** Prints the per-page table and the per-file breakdown. */
export function printFirstLoadJs(pages) {
  printTable(
    ["page", "route", "files", "raw", "gzip", "of budget"],
    pages.map((page) => [
      page.path,
      page.routeId,
      page.files.length,
      kb(page.raw),
      kb(page.gzip),
      `${Math.round((page.gzip / page.budget) * 100)}%${page.withinBudget ? "" : "  OVER"}`,
    ]),
    "llrrrr",
  );
  const files = new Map();
  for (const page of pages) {
    for (const file of page.files) {
      const entry = files.get(file.file) ?? { ...file, pages: [] };
      entry.pages.push(page.path);
      files.set(file.file, entry);
    }
  }
  console.log("");
  printTable(
    ["file", "raw", "gzip", "pages"],
    [...files.values()]
      .sort((a, b) => b.gzip - a.gzip)
      .map((file) => [
        file.file,
        kb(file.raw),
        kb(file.gzip),
        file.pages.length === pages.length ? "all" : file.pages.join(" "),
      ]),
    "lrrl",
  );
  for (const page of pages) {
    if (page.unlisted.length) {
      console.log(
        `\nnote: ${page.path} also statically imports ${page.unlisted.join(", ")} (not in the route manifest)`,
      );
    }
  }
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { budget: { type: "boolean", default: false }, "no-save": { type: "boolean", default: false } },
  });
  assertBuilt();
  const pages = await measureFirstLoadJs();
  console.log(`First-load JavaScript per page (gzip -9; budget ${kb(BUDGET_BYTES)})\n`);
  printFirstLoadJs(pages);
  if (!values["no-save"]) {
    console.log(`\nresult: ${writeResult("first-load-js", { budgetBytes: BUDGET_BYTES, pages })}`);
  }
  const over = pages.filter((page) => !page.withinBudget);
  for (const page of over) {
    const message = `over budget: ${page.path} ships ${kb(page.gzip)} of JavaScript on first load (budget ${kb(BUDGET_BYTES)})`;
    if (values.budget) console.error(message);
    else console.log(message);
  }
  return { pages, over, exitCode: values.budget && over.length ? 1 : 0 };
}

if (isMain(import.meta.url)) runCli(() => main().then((result) => result.exitCode));
