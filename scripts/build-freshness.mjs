// Whether the build is older than the sources it is made from (npm start and the benchmarks
// rebuild only then).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const BUILD_OUTPUT = path.join(root, "build/server/index.js");
const BUILD_INPUTS = [
  "app",
  "db",
  "public",
  "scripts/build-icons.ts",
  "scripts/build-service-worker.ts",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

function newestMtime(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** "missing", "stale" or "fresh". */
export function buildState() {
  const builtAt = newestMtime(BUILD_OUTPUT);
  if (!builtAt) return "missing";
  const changedAt = Math.max(...BUILD_INPUTS.map((input) => newestMtime(path.join(root, input))));
  return changedAt > builtAt ? "stale" : "fresh";
}
