// Lighthouse scores of the public pages on the built server.
//
//   node bench/lighthouse.mjs [--desktop] [--runs 3] [--page /privacy] [--no-save]
//
// Starts the built server on a free port with a fresh database, runs Lighthouse in Debian's
// Chromium (CHROMIUM_PATH to use another) against every page of bench/pages.mjs (or only the
// --page ones), mobile form factor with Lighthouse's default simulated throttling unless
// --desktop, and prints the performance, accessibility, best-practices and SEO scores. For every
// category under its target it lists the audits that fail, so you know what to fix. With --runs
// N each page is measured N times and the run with the median performance score is reported.
// Writes the scores as JSON, and each page's full HTML report, to bench/results/.
//
// In the same run, and the same way, it measures a calibration page (bench/calibration/): a
// page of text served by a bare React Router app built from the site's own packages, with no
// styles, fonts or code of the site's. Its scores are what the framework alone gets on this
// machine today, so a slow or busy machine is told apart from a regression of the site.
// --no-calibration leaves it out.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, generateReport } from "lighthouse";
import {
  isMain,
  onCleanup,
  printTable,
  RESULTS_DIR,
  runCli,
  startCalibration,
  startServer,
  warnIfBusy,
  writeResult,
} from "./helpers.mjs";
import { PUBLIC_PAGES } from "./pages.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Lighthouse categories and the score (0–100) each page must reach. */
export const TARGETS = { performance: 98, accessibility: 100, "best-practices": 95, seo: 100 };

const METRICS = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
  ["speed-index", "SI"],
];

const score = (value) => (value === null || value === undefined ? null : Math.round(value * 100));

/** The audits of `category` that cost it points, worst first, with a few of the offending items. */
function failingAudits(lhr, category) {
  const failing = [];
  for (const ref of lhr.categories[category].auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || ["notApplicable", "manual", "informative"].includes(audit.scoreDisplayMode)) {
      continue;
    }
    const pass = audit.scoreDisplayMode === "binary" ? 1 : 0.9;
    if (audit.score >= pass) continue;
    // Some audits' details carry no list of items (or an object in its place).
    const items = (Array.isArray(audit.details?.items) ? audit.details.items : [])
      .slice(0, 3)
      .map((item) => item.node?.selector ?? item.node?.snippet ?? item.url ?? item.source?.url ?? item.label)
      .filter((item) => typeof item === "string");
    failing.push({
      id: ref.id,
      title: audit.title,
      score: score(audit.score),
      weight: ref.weight,
      displayValue: audit.displayValue,
      items,
    });
  }
  return failing.sort((a, b) => b.weight - a.weight || a.score - b.score);
}

function summarise(lhr) {
  const scores = Object.fromEntries(Object.keys(TARGETS).map((id) => [id, score(lhr.categories[id]?.score)]));
  const below = Object.keys(TARGETS).filter((id) => scores[id] === null || scores[id] < TARGETS[id]);
  return {
    scores,
    metrics: Object.fromEntries(METRICS.map(([id, label]) => [label, lhr.audits[id]?.displayValue ?? null])),
    below: Object.fromEntries(below.map((id) => [id, failingAudits(lhr, id)])),
    runWarnings: lhr.runWarnings,
  };
}

/** One Lighthouse run; tried again (twice at most) when the trace comes back unusable, as on a busy machine. */
async function audit(url, flags, config, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config);
    const error = result ? result.lhr.runtimeError : { code: "NO_RESULT", message: "Lighthouse returned nothing" };
    if (!error) return result.lhr;
    if (attempt >= attempts) throw new Error(`${url}: ${error.message}`);
    console.warn(`${url}: ${error.code}, trying again`);
  }
}

/**
 * Runs Lighthouse on `pages` of an already running site at `origin`; returns per page the
 * summary of the median run (by performance score) and the scores of every run.
 */
export async function runLighthouse(origin, { pages = PUBLIC_PAGES, desktop = false, runs = 1, onReport } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROME_FLAGS,
    handleSIGINT: false,
    logLevel: "silent",
  });
  const closeChrome = onCleanup(() => chrome.kill());
  const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: Object.keys(TARGETS) };
  const results = [];
  try {
    for (const page of pages) {
      const url = new URL(page.path, origin).href;
      const lhrs = [];
      for (let run = 0; run < runs; run++) {
        lhrs.push(await audit(url, flags, desktop ? desktopConfig : undefined));
      }
      const sorted = [...lhrs].sort((a, b) => a.categories.performance.score - b.categories.performance.score);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      onReport?.(page, median);
      results.push({
        path: page.path,
        url,
        ...summarise(median),
        runs: lhrs.map((lhr) => summarise(lhr).scores),
      });
    }
  } finally {
    await closeChrome();
  }
  return results;
}

/** Prints the score table, then what fails on every page under a target. */
export function printLighthouse(results) {
  const cell = (value, target) => (value === null ? "n/a" : `${value}${value < target ? " ✗" : ""}`);
  printTable(
    ["page", ...Object.keys(TARGETS), ...METRICS.map(([, label]) => label)],
    results.map((page) => [
      page.path,
      ...Object.entries(TARGETS).map(([id, target]) => cell(page.scores[id], target)),
      ...METRICS.map(([, label]) => page.metrics[label] ?? "n/a"),
    ]),
    "lrrrrrrrrr",
  );
  console.log(
    `targets: ${Object.entries(TARGETS)
      .map(([id, target]) => `${id} ${target}`)
      .join(", ")}`,
  );
  for (const page of results) {
    for (const [category, audits] of Object.entries(page.below)) {
      console.log(`\n${page.path}: ${category} ${page.scores[category]} < ${TARGETS[category]}`);
      if (!audits.length) console.log("  (no single audit fails: the metrics add up under the target)");
      for (const audit of audits) {
        const value = audit.displayValue ? ` — ${audit.displayValue}` : "";
        console.log(
          `  - ${audit.title}${value} [score ${audit.score}${audit.weight ? `, weight ${audit.weight}` : ""}]`,
        );
        for (const item of audit.items) console.log(`      ${item}`);
      }
    }
    for (const warning of page.runWarnings ?? []) console.log(`\n${page.path}: Lighthouse warning: ${warning}`);
  }
}

export const CALIBRATION_LABEL = "calibration: bare React Router";

/** Lighthouse on the calibration page, the same way as on the site's pages. */
export async function runCalibration({ desktop = false, runs = 1 } = {}) {
  const calibration = await startCalibration();
  try {
    const [result] = await runLighthouse(calibration.origin, { pages: [{ path: "/" }], desktop, runs });
    return { ...result, path: CALIBRATION_LABEL };
  } finally {
    await calibration.stop();
  }
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      desktop: { type: "boolean", default: false },
      runs: { type: "string", default: "1" },
      page: { type: "string", multiple: true },
      "no-save": { type: "boolean", default: false },
      "no-calibration": { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs is a whole number, 1 or more");
  const pages = values.page
    ? values.page.map((pagePath) => PUBLIC_PAGES.find((page) => page.path === pagePath) ?? { path: pagePath })
    : PUBLIC_PAGES;
  const formFactor = values.desktop ? "desktop" : "mobile";
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const reports = [];

  warnIfBusy();
  console.log("Starting the app…");
  const app = await startServer();
  console.log(`Lighthouse (${formFactor}, ${runs} run${runs > 1 ? "s" : ""} per page) on ${pages.length} pages…\n`);
  const results = await runLighthouse(app.origin, {
    pages,
    desktop: values.desktop,
    runs,
    onReport(page, lhr) {
      if (values["no-save"]) return;
      const slug = page.path.replace(/^\/|\/$/g, "").replace(/[^a-z0-9]+/gi, "-") || "home";
      const file = path.join(RESULTS_DIR, `lighthouse-${stamp}-${formFactor}-${slug}.html`);
      mkdirSync(RESULTS_DIR, { recursive: true });
      writeFileSync(file, generateReport(lhr, "html"));
      reports.push(file);
    },
  });
  await app.stop();
  const calibration = values["no-calibration"] ? null : await runCalibration({ desktop: values.desktop, runs });

  printLighthouse(calibration ? [...results, calibration] : results);
  if (!values["no-save"]) {
    const file = writeResult(`lighthouse-${formFactor}`, {
      formFactor,
      runs,
      targets: TARGETS,
      pages: results,
      calibration,
    });
    console.log(`\nresult: ${file}`);
    console.log(`reports: ${path.relative(process.cwd(), path.dirname(reports[0]))}/lighthouse-${stamp}-*.html`);
  }
  return { formFactor, results, calibration };
}

if (isMain(import.meta.url)) runCli(() => main().then(() => 0));
