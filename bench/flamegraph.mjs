// A V8 CPU profile (`node --cpu-prof`) read into folded stacks, a flame graph SVG and the top
// functions by self and inclusive time. No dependencies.
//
//   node bench/flamegraph.mjs profile.cpuprofile [--out graph.svg] [--title "…"] [--subtitle "…"] [--from µs --to µs]
//   node bench/flamegraph.mjs stacks.folded [--out graph.svg] [--title "…"] [--subtitle "…"]
//
// From a script: readProfile(file) → samplesOf(profile, window?) → foldedStacks(samples) →
// flameGraphSvg(folded, { title }) and topFunctions(samples).
//
// A sample is the stack the main thread was in when V8 looked (about every millisecond), with
// the time until the next look. "(idle)" samples (waiting for I/O) are not CPU time and are left
// out; "(program)" (V8 and Node's own native work) and "(garbage collector)" stay in. Work on
// other threads (gzip in libuv's pool, the GC's helper threads) is not in a profile at all.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { isMain, ROOT } from "./helpers.mjs";

export function readProfile(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** A short, stable label for a code location: the package, or the path under the project. */
export function locationOf(url) {
  if (!url) return "";
  let file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  const modules = file.lastIndexOf("/node_modules/");
  if (modules !== -1) return file.slice(modules + "/node_modules/".length);
  if (file.startsWith(`${ROOT}/`)) file = file.slice(ROOT.length + 1);
  return file;
}

/** Who a location belongs to: an npm package, the app's build, Node itself, or V8. */
export function ownerOf(url) {
  if (!url) return "(native)";
  if (url.startsWith("node:")) return "node";
  const location = locationOf(url);
  if (url.includes("/node_modules/")) {
    const parts = location.split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return location.startsWith("build/") ? "app (build)" : location;
}

function frameName(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || (url ? "(anonymous)" : "(native)");
  if (!url) return name;
  return `${name} ${locationOf(url)}:${lineNumber + 1}`;
}

/**
 * The samples of a profile as stacks of frame names (root first) with their duration in
 * microseconds, optionally only those taken between `from` and `to` (the profile's clock:
 * CLOCK_MONOTONIC in µs on Linux, the same as process.hrtime in any process on the machine).
 */
export function samplesOf(profile, { from = -Infinity, to = Infinity } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map();
  const stackOf = (id) => {
    let stack = stacks.get(id);
    if (stack) return stack;
    stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node.callFrame.functionName === "(root)" && !parent.has(at)) break;
      stack.push({ name: frameName(node), owner: ownerOf(node.callFrame.url), fn: node.callFrame.functionName });
    }
    stack.reverse();
    stacks.set(id, stack);
    return stack;
  };
  const samples = [];
  let time = profile.startTime;
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    time += deltas[i];
    // A sample lasts until the next one is taken.
    const duration = deltas[i + 1] ?? 0;
    if (time < from || time > to || duration <= 0) continue;
    const stack = stackOf(profile.samples[i]);
    if (stack.length === 1 && stack[0].fn === "(idle)") continue;
    samples.push({ stack, duration });
  }
  return samples;
}

/** `a;b;c <µs>` lines, one per distinct stack, heaviest first. */
export function foldedStacks(samples) {
  const totals = new Map();
  for (const { stack, duration } of samples) {
    const key = stack.map((frame) => frame.name.replaceAll(";", ",")).join(";");
    totals.set(key, (totals.get(key) ?? 0) + duration);
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([stack, us]) => `${stack} ${Math.round(us)}`);
}

/**
 * The heaviest functions: self time (the function itself was running) and inclusive time (it was
 * anywhere on the stack, counted once per sample however deep the recursion), plus the time per
 * owner (package) by self time. Times in microseconds.
 */
export function topFunctions(samples, limit = 25) {
  const self = new Map();
  const inclusive = new Map();
  const owners = new Map();
  let total = 0;
  for (const { stack, duration } of samples) {
    total += duration;
    const leaf = stack.at(-1);
    if (!leaf) continue;
    self.set(leaf.name, (self.get(leaf.name) ?? 0) + duration);
    owners.set(leaf.owner, (owners.get(leaf.owner) ?? 0) + duration);
    for (const name of new Set(stack.map((frame) => frame.name))) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + duration);
    }
  }
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({ name, us, share: total ? us / total : 0 }));
  return { totalUs: total, self: top(self), inclusive: top(inclusive), owners: top(owners) };
}

const escapeXml = (text) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A warm colour per frame, stable across graphs, greener for the app's own code. */
function colourOf(name) {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  const vary = (hash % 1000) / 1000;
  if (name.includes(" build/server/") || name.includes(" app/")) {
    return `rgb(${Math.round(80 + 60 * vary)},${Math.round(170 + 50 * vary)},${Math.round(80 + 40 * vary)})`;
  }
  if (name.startsWith("(")) return `rgb(${Math.round(170 + 40 * vary)},${Math.round(170 + 40 * vary)},190)`;
  return `rgb(${Math.round(205 + 50 * vary)},${Math.round(80 + 120 * vary)},${Math.round(40 + 30 * vary)})`;
}

/**
 * A flame graph (root at the bottom, callers below callees, width = time) of folded stacks, as a
 * self-contained SVG: hover a frame for its name, time and share.
 */
export function flameGraphSvg(folded, { title = "CPU flame graph", subtitle, width = 1200 } = {}) {
  const root = { name: "all", value: 0, children: new Map() };
  for (const line of folded) {
    const cut = line.lastIndexOf(" ");
    const value = Number(line.slice(cut + 1));
    let node = root;
    root.value += value;
    for (const name of line.slice(0, cut).split(";")) {
      let child = node.children.get(name);
      if (!child) {
        child = { name, value: 0, children: new Map() };
        node.children.set(name, child);
      }
      child.value += value;
      node = child;
    }
  }
  const frameHeight = 16;
  const pad = { top: 48, side: 10, bottom: 10 };
  const scale = (width - 2 * pad.side) / Math.max(root.value, 1);
  const rects = [];
  let depth = 0;
  const place = (node, x, level) => {
    const w = node.value * scale;
    // Narrower than a pixel: nothing to see or point at, and it would only add to the file.
    if (w < 1) return;
    depth = Math.max(depth, level);
    rects.push({ node, x, level, w });
    let childX = x;
    for (const child of [...node.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      place(child, childX, level + 1);
      childX += child.value * scale;
    }
  };
  place(root, pad.side, 0);
  const height = pad.top + (depth + 1) * frameHeight + pad.bottom;
  const y = (level) => height - pad.bottom - (level + 1) * frameHeight;
  const ms = (us) => `${(us / 1000).toFixed(1)} ms`;
  const body = rects
    .map(({ node, x, level, w }) => {
      const label = node.name === "all" ? `all (${ms(root.value)})` : node.name;
      const chars = Math.floor((w - 6) / 6.5);
      const text = chars >= 3 ? (label.length > chars ? `${label.slice(0, chars - 2)}..` : label) : "";
      const share = ((100 * node.value) / Math.max(root.value, 1)).toFixed(2);
      return (
        `<g><title>${escapeXml(`${node.name} — ${ms(node.value)}, ${share}%`)}</title>` +
        `<rect x="${x.toFixed(1)}" y="${y(level)}" width="${Math.max(w - 0.5, 0.1).toFixed(1)}" height="${frameHeight - 1}" fill="${node.name === "all" ? "rgb(200,200,200)" : colourOf(node.name)}" rx="2"/>` +
        (text ? `<text x="${(x + 3).toFixed(1)}" y="${y(level) + 11.5}">${escapeXml(text)}</text>` : "") +
        "</g>"
      );
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Verdana, sans-serif" font-size="11" role="img" aria-labelledby="flamegraph-title">
<title id="flamegraph-title">${escapeXml(title)}</title>
<style>text { fill: #000; pointer-events: none; } g:hover rect { stroke: #000; stroke-width: 0.7; }</style>
<rect width="100%" height="100%" fill="#fdfdf8"/>
<text x="${width / 2}" y="20" text-anchor="middle" font-size="15">${escapeXml(title)}</text>
<text x="${width / 2}" y="38" text-anchor="middle" font-size="11" fill="#555">${escapeXml(subtitle ?? `${ms(root.value)} sampled`)}</text>
${body}
</svg>
`;
}

/** Prints the top functions as plain text. */
export function formatTop(top, { perRequest } = {}) {
  const ms = (us) => (perRequest ? `${(us / 1000 / perRequest).toFixed(3)} ms/req` : `${(us / 1000).toFixed(1)} ms`);
  const lines = [];
  const section = (heading, rows) => {
    lines.push(heading);
    for (const row of rows) {
      lines.push(`  ${(100 * row.share).toFixed(1).padStart(5)}%  ${ms(row.us).padStart(14)}  ${row.name}`);
    }
    lines.push("");
  };
  section("By package (self time)", top.owners);
  section("Top functions by self time", top.self);
  section("Top functions by inclusive time", top.inclusive);
  return lines.join("\n");
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: "string" },
      title: { type: "string" },
      subtitle: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
    },
  });
  const file = positionals[0];
  if (!file) throw new Error("usage: node bench/flamegraph.mjs profile.cpuprofile|stacks.folded [--out graph.svg]");
  const out = values.out ?? `${file.replace(/\.(cpuprofile|folded)$/, "")}.svg`;
  const title = values.title ?? path.basename(file);
  const { subtitle } = values;
  if (file.endsWith(".folded")) {
    // Stacks already folded (by profile.mjs, or another tool): only drawn.
    const folded = readFileSync(file, "utf8").split("\n").filter(Boolean);
    writeFileSync(out, flameGraphSvg(folded, { title, subtitle }));
  } else {
    const samples = samplesOf(readProfile(file), {
      from: values.from ? Number(values.from) : undefined,
      to: values.to ? Number(values.to) : undefined,
    });
    writeFileSync(out, flameGraphSvg(foldedStacks(samples), { title, subtitle }));
    console.log(formatTop(topFunctions(samples)));
  }
  console.log(`Flame graph: ${out}`);
}

if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
