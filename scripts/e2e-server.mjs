// Starts the built server for end-to-end tests on a fresh embedded database: the DATA_DIR is
// wiped first, so every run starts from the same demo content.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set for the end-to-end server");
rmSync(dataDir, { recursive: true, force: true });

// The suite needs the fixture pages, which only a build made with ENABLE_TEST_FIXTURES holds: the
// server build's route list (build/server/index.js) names their module then.
const serverBuild = path.join(root, "build", "server", "index.js");
if (!existsSync(serverBuild) || !readFileSync(serverBuild, "utf8").includes("fixtures/fixture-route")) {
  console.error("The build has no test fixtures: run `ENABLE_TEST_FIXTURES=1 npm run build` first (npm test does).");
  process.exit(1);
}

const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
