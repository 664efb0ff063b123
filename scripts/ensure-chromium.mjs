// Makes sure a Chromium is there for the end-to-end tests: CHROMIUM_PATH or Debian's package if
// present; otherwise Debian's package when running as root, else Playwright's own installer.
import { spawnSync } from "node:child_process";
import { chromiumPath } from "./chromium-path.mjs";

function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

if (chromiumPath()) process.exit(0);

if (process.getuid?.() === 0) {
  console.log("Chromium is missing: installing Debian's package.");
  if (
    run("apt-get", ["install", "-y", "-q", "chromium"]) ||
    (run("apt-get", ["update", "-q"]) && run("apt-get", ["install", "-y", "-q", "chromium"]))
  ) {
    process.exit(0);
  }
  console.error("Could not install Chromium with apt-get.");
  process.exit(1);
}

console.log("Chromium is missing and this is not root: using Playwright's installer.");
process.exit(run("npx", ["playwright", "install", "chromium"]) ? 0 : 1);
