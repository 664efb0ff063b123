// The shape of the code, for before/after comparisons of a restructuring:
//   node bench/code-shape.mjs
// prints the number of import cycles (dependency-cruiser, the same configuration lint uses),
// the source files over 400 lines, and the median length of a route module.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

function filesUnder(dir, keep) {
  const found = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const relative = path.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) found.push(...filesUnder(relative, keep));
    else if (keep(relative)) found.push(relative);
  }
  return found;
}

const lines = (file) => readFileSync(path.join(root, file), "utf8").split("\n").length;
const source = (file) => /\.(ts|tsx|mjs)$/.test(file) && !/\.test\.ts$/.test(file);

const cruise = JSON.parse(
  execFileSync("npx", ["depcruise", "app", "db", "server.ts", "scripts", "--output-type", "json"], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
    // depcruise exits non-zero when a rule is broken; the JSON is still complete.
  }).toString(),
);
const cycles = new Set();
for (const module of cruise.modules) {
  for (const dependency of module.dependencies) {
    if (!dependency.circular) continue;
    const cycle = (dependency.cycle ?? []).map((step) => step.name ?? step);
    const members = [module.source, ...cycle].filter((name, index, all) => all.indexOf(name) === index).sort();
    cycles.add(members.join(" "));
  }
}

const sources = [...filesUnder("app", source), "server.ts", ...filesUnder("scripts", source)];
const long = sources.map((file) => [file, lines(file)]).filter(([, count]) => count > 400);
// Route modules are the files app/routes.ts names (form glue beside them is not one).
const routeFiles = [
  ...new Set(
    [...readFileSync(path.join(root, "app/routes.ts"), "utf8").matchAll(/"(routes\/[^"]+\.tsx?)"/g)].map(
      (match) => `app/${match[1]}`,
    ),
  ),
];
const routeLengths = routeFiles.map(lines).sort((a, b) => a - b);
const middle = Math.floor(routeLengths.length / 2);
const median = routeLengths.length % 2 ? routeLengths[middle] : (routeLengths[middle - 1] + routeLengths[middle]) / 2;

console.log(`import cycles: ${cycles.size}`);
console.log(`source files over 400 lines: ${long.length}`);
for (const [file, count] of long.sort((a, b) => b[1] - a[1])) console.log(`  ${count}  ${file}`);
console.log(`route modules: ${routeLengths.length}, median ${median} lines`);
