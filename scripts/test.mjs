// `npm test`: every check the project has, in the order that fails fastest.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const steps = [
  ["lint", "npm", ["run", "-s", "lint"]],
  ["typecheck", "npm", ["run", "-s", "typecheck"]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  // Built with the end-to-end fixtures (app/fixtures), which a plain build leaves out.
  ["production build", "npm", ["run", "-s", "build"], { ENABLE_TEST_FIXTURES: "1" }],
  ["first-load JavaScript budget", "node", ["bench/first-load-js.mjs", "--budget"]],
  ["end-to-end tests", "npm", ["run", "-s", "test:e2e"]],
];

for (const [name, command, args, env = {}] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
console.log("\nAll checks passed.");
