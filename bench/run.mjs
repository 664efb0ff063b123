// `npm run bench`: builds the site when needed, then measures first-load JavaScript, throughput
// against nginx and Lighthouse scores in turn, and prints a summary.
//
//   npm run bench -- [--build] [--only first-load-js,throughput,lighthouse]
//                    [--path /] [--duration 10] [--connections 50] [--desktop] [--runs 1]
//
// --build rebuilds even when the build is up to date. The other options go to the scripts of
// the same name (see bench/README.md). Exits 1 when a script fails or a page is over its
// JavaScript budget; Lighthouse scores under target are reported, not failed on.
import { parseArgs } from "node:util";
import * as firstLoadJs from "./first-load-js.mjs";
import { cleanUp, ensureBuild, kb, machineInfo, runCli } from "./helpers.mjs";
import * as lighthouse from "./lighthouse.mjs";
import * as throughput from "./throughput.mjs";

const STEPS = ["first-load-js", "throughput", "lighthouse"];

async function main() {
  const { values } = parseArgs({
    options: {
      build: { type: "boolean", default: false },
      only: { type: "string" },
      path: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      desktop: { type: "boolean", default: false },
      runs: { type: "string" },
    },
  });
  const only = values.only ? values.only.split(",").map((step) => step.trim()) : STEPS;
  const unknown = only.filter((step) => !STEPS.includes(step));
  if (unknown.length) throw new Error(`--only takes ${STEPS.join(", ")}; not ${unknown.join(", ")}`);
  const option = (name) => (values[name] === undefined ? [] : [`--${name}`, values[name]]);

  ensureBuild({ force: values.build });
  const summary = [];
  let failed = false;
  const step = async (name, run) => {
    if (!only.includes(name)) return;
    console.log(`\n=== ${name} ===\n`);
    try {
      summary.push(...(await run()));
    } catch (error) {
      failed = true;
      summary.push(`${name}: FAILED — ${error instanceof Error ? error.message.split("\n")[0] : error}`);
      console.error(error instanceof Error ? error.message : error);
      await cleanUp();
    }
  };

  await step("first-load-js", async () => {
    const { pages, over } = await firstLoadJs.main([]);
    if (over.length) failed = true;
    return [
      `first-load JS (gzip, budget ${kb(firstLoadJs.BUDGET_BYTES)}): ${pages
        .map((page) => `${page.path} ${kb(page.gzip)}${page.withinBudget ? "" : " OVER"}`)
        .join(", ")}`,
    ];
  });

  await step("throughput", async () => {
    const { results, ratio } = await throughput.main([
      ...option("path"),
      ...option("duration"),
      ...option("connections"),
    ]);
    const line = (r) => `${Math.round(r.requestsPerSecond)} req/s, p99 ${r.latencyMs.p99.toFixed(1)} ms`;
    return [
      `throughput GET ${values.path ?? "/"}: app ${line(results.app)}; nginx ${line(results.nginx)}; ` +
        `app/nginx ${(ratio.requestsPerSecond * 100).toFixed(1)}%`,
    ];
  });

  await step("lighthouse", async () => {
    const { formFactor, results } = await lighthouse.main([
      ...(values.desktop ? ["--desktop"] : []),
      ...option("runs"),
    ]);
    const order = Object.keys(lighthouse.TARGETS);
    return [
      `lighthouse ${formFactor} (${order.join(" / ")}; targets ${Object.values(lighthouse.TARGETS).join(" / ")}):`,
      ...results.map(
        (page) =>
          `  ${page.path} ${order.map((id) => page.scores[id] ?? "n/a").join(" / ")}` +
          (Object.keys(page.below).length ? `  under target: ${Object.keys(page.below).join(", ")}` : ""),
      ),
    ];
  });

  const machine = machineInfo();
  console.log(`\n=== summary (${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}) ===\n`);
  for (const line of summary) console.log(line);
  return failed ? 1 : 0;
}

runCli(main);
