// What the browser's main thread does while a public page loads on a slow phone.
//
//   node bench/main-thread.mjs [--page /privacy]… [--throttle 4] [--calibration] [--no-save]
//
// Starts the built server with a fresh database, then loads each page of bench/pages.mjs (or
// the --page ones) in Debian's Chromium with its CPU slowed down --throttle times (4 by default,
// as Lighthouse's mobile run), in a new browser context each time (no cache, no service
// worker), recording a Chromium trace and a JavaScript CPU profile. For each page it prints:
//
// - the blocking time: every main-thread task after the first contentful paint, less 50 ms,
//   added up (what Lighthouse calls Total Blocking Time, measured rather than simulated);
// - the long tasks (over 50 ms) with what each spent its time on (script, style and layout,
//   parsing, paint, other);
// - JavaScript time per file (chunk hashes stripped) and the functions that took longest by
//   themselves. Time spent in built-ins, such as the first use of `Intl` (tens of milliseconds
//   to load locale data), counts to the function that called them.
//
// With --calibration it measures, last and the same way, the calibration page of
// bench/calibration (a bare React Router app built from the site's own packages): what the
// framework alone costs the main thread.
//
// Writes the figures as JSON to bench/results/.
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { isMain, printTable, runCli, startCalibration, startServer, warnIfBusy, writeResult } from "./helpers.mjs";
import { PUBLIC_PAGES } from "./pages.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LONG_TASK_MS = 50;
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "loading",
  "blink",
  "v8.execute",
  "toplevel",
];

/** Each trace event's name, to the kind of work it is. */
const KINDS = [
  [/^(FunctionCall|EvaluateScript|v8\.|V8\.|RunMicrotasks|TimerFire|EventDispatch|FireAnimationFrame)/, "script"],
  [/^(ParseHTML|ParseAuthorStyleSheet|CSSParser|HTMLDocumentParser)/, "parse"],
  [/(Style|Layout|recalcStyle|performLayout|UpdateLayoutTree|ShapeText|RuleSet)/, "style & layout"],
  [/(Paint|Composit|Raster|Layerize|PrePaint|Commit$)/, "paint"],
];
const kindOf = (name) => KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? "other";

const fileOf = (url) => {
  const name = url.split("?")[0].split("/").pop() || url;
  return name.replace(/-[A-Za-z0-9_-]{8}\.js$/, ".js");
};

/** The page's renderer main thread: the one that parsed HTML from `origin`. */
function pageThread(events, origin) {
  const parse = events.find((event) => event.name === "ParseHTML" && event.args?.beginData?.url?.startsWith(origin));
  return parse ? `${parse.pid}:${parse.tid}` : null;
}

/** Self time of every event under `task`, by kind of work. */
function breakdown(task, events) {
  const end = task.ts + task.dur;
  const inside = events.filter((event) => event !== task && event.ts >= task.ts && event.ts < end);
  const self = new Map();
  const stack = [];
  for (const event of inside) {
    while (stack.length && stack.at(-1).ts + (stack.at(-1).dur ?? 0) <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (event.dur ?? 0));
    self.set(event.name, (self.get(event.name) ?? 0) + (event.dur ?? 0));
    stack.push(event);
  }
  const kinds = {};
  let counted = 0;
  for (const [name, micros] of self) {
    if (micros <= 0) continue;
    const kind = kindOf(name);
    kinds[kind] = (kinds[kind] ?? 0) + micros / 1000;
    counted += micros / 1000;
  }
  kinds.other = (kinds.other ?? 0) + Math.max(0, task.dur / 1000 - counted);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return { kinds, top: top.map(([name, micros]) => `${name} ${Math.round(micros / 1000)}`) };
}

/** The main-thread figures of one trace. */
export function summariseTrace(traceEvents, origin) {
  const thread = pageThread(traceEvents, origin);
  if (!thread) throw new Error(`no main thread parsed ${origin} in the trace`);
  const events = traceEvents
    .filter((event) => `${event.pid}:${event.tid}` === thread && event.ph === "X")
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = events.filter((event) => event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask");
  // Nested RunTask events belong to the outer one.
  const topLevel = [];
  for (const task of tasks) {
    const last = topLevel.at(-1);
    if (!last || task.ts >= last.ts + last.dur) topLevel.push(task);
  }
  const [pid] = thread.split(":").map(Number);
  const fcp = traceEvents.find((event) => event.name === "firstContentfulPaint" && event.pid === pid);
  const start = topLevel[0]?.ts ?? 0;
  const afterFcp = fcp ? topLevel.filter((task) => task.ts >= fcp.ts) : topLevel;
  const blockingMs = afterFcp.reduce((sum, task) => sum + Math.max(0, task.dur / 1000 - LONG_TASK_MS), 0);
  const longTasks = topLevel
    .filter((task) => task.dur / 1000 > LONG_TASK_MS)
    .map((task) => ({
      atMs: Math.round((task.ts - start) / 1000),
      ms: Math.round(task.dur / 1000),
      afterFcp: fcp ? task.ts >= fcp.ts : true,
      ...breakdown(task, events),
    }));
  return {
    fcpMs: fcp ? Math.round((fcp.ts - start) / 1000) : null,
    blockingMs: Math.round(blockingMs),
    mainThreadMs: Math.round(topLevel.reduce((sum, task) => sum + task.dur / 1000, 0)),
    longTasks,
  };
}

/** JavaScript time per file and the functions that took longest by themselves, from a CPU profile. */
export function summariseProfile(profile, origin) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByFunction = new Map();
  const selfByFile = new Map();
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index + 1] ?? 0;
    const { functionName, url, lineNumber, columnNumber } = nodes.get(id).callFrame;
    if (!url.startsWith(origin)) return;
    const file = fileOf(url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + micros);
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + micros);
  });
  const ms = (entries, count) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => ({ name, ms: Math.round(micros / 1000) }));
  return { files: ms(selfByFile, 12), functions: ms(selfByFunction, 8) };
}

export async function measurePage(browser, origin, pagePath, throttle) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
  await cdp.send("Profiler.start");
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.goto(new URL(pagePath, origin).href, { waitUntil: "load" });
  // Let hydration, lazy chunks and route discovery finish.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const { profile } = await cdp.send("Profiler.stop");
  await context.close();
  return { ...summariseTrace(trace.traceEvents ?? trace, origin), script: summariseProfile(profile, origin) };
}

function printPage(pagePath, result) {
  console.log(
    `\n${pagePath}: blocking ${result.blockingMs} ms after first paint (at ${result.fcpMs} ms), main thread ${result.mainThreadMs} ms`,
  );
  if (result.longTasks.length) {
    printTable(
      ["at ms", "task ms", "after FCP", "script", "style & layout", "parse", "paint", "other", "most"],
      result.longTasks.map((task) => [
        task.atMs,
        task.ms,
        task.afterFcp ? "yes" : "no",
        ...["script", "style & layout", "parse", "paint", "other"].map((kind) => Math.round(task.kinds[kind] ?? 0)),
        task.top.join(", "),
      ]),
      "rrlrrrrrl",
    );
  }
  console.log(`  JavaScript by file: ${result.script.files.map((file) => `${file.name} ${file.ms}`).join(", ")}`);
  for (const fn of result.script.functions) console.log(`    ${String(fn.ms).padStart(5)} ms  ${fn.name}`);
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      page: { type: "string", multiple: true },
      throttle: { type: "string", default: "4" },
      calibration: { type: "boolean", default: false },
      "no-save": { type: "boolean", default: false },
    },
  });
  const throttle = Number(values.throttle);
  const pages = values.page ?? PUBLIC_PAGES.map((page) => page.path);
  warnIfBusy();
  console.log("Starting the app…");
  const app = await startServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  const results = {};
  try {
    console.log(`Main thread with the CPU ${throttle}× slower, on ${pages.length} pages…`);
    for (const pagePath of pages) {
      results[pagePath] = await measurePage(browser, app.origin, pagePath, throttle);
      printPage(pagePath, results[pagePath]);
    }
    await app.stop();
    if (values.calibration) {
      const calibration = await startCalibration();
      const label = "calibration: bare React Router /";
      results[label] = await measurePage(browser, calibration.origin, "/", throttle);
      printPage(label, results[label]);
      await calibration.stop();
    }
  } finally {
    await browser.close();
  }
  printTable(
    ["page", "blocking ms", "main thread ms", "long tasks"],
    Object.entries(results).map(([pagePath, result]) => [
      pagePath,
      result.blockingMs,
      result.mainThreadMs,
      result.longTasks.length,
    ]),
    "lrrr",
  );
  if (!values["no-save"]) console.log(`result: ${writeResult("main-thread", { throttle, pages: results })}`);
}

if (isMain(import.meta.url)) runCli(main);
