// `npm start`: build the site when the sources are newer than the last build, then serve it.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildOutput = path.join(root, "build/server/index.js");
const inputs = [
  "app",
  "db",
  "public",
  "scripts/build-icons.ts",
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

const builtAt = newestMtime(buildOutput);
const changedAt = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));
if (!builtAt || changedAt > builtAt) {
  console.log(builtAt ? "Sources changed since the last build: building…" : "Building the site (first start)…");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// React's production build: the development one renders at half the speed.
const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
