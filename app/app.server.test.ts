import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { demoSignIns, startApp } from "./app.server";
import { parseEnv, setEnv } from "./server/env.server";

// Start-up as the server runs it, on embedded databases of its own.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function site(siteUrl: string, dataDir: string, extra: Record<string, string> = {}) {
  setEnv(
    parseEnv({
      NODE_ENV: "test",
      SITE_URL: siteUrl,
      DATA_DIR: dataDir,
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
      PAYMENTS: "test",
      ...extra,
    }),
  );
}

function newDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "pitlane-start-"));
  dirs.push(dir);
  return dir;
}

describe("start-up", () => {
  it("gives a new embedded database on a public address no demo accounts", { timeout: 120_000 }, async () => {
    site("https://club.example", newDataDir());
    const runtime = await startApp({ work: false });
    try {
      expect(await demoSignIns(runtime.db)).toEqual([]);
    } finally {
      await runtime.stop();
    }
  });

  it("refuses to serve demo accounts on a public address unless SEED_DEMO=1 asks for them", {
    timeout: 180_000,
  }, async () => {
    const dataDir = newDataDir();
    site("http://localhost:3000", dataDir);
    const local = await startApp({ work: false });
    expect((await demoSignIns(local.db)).map((account) => account.email)).toContain("admin@pitlane.test");
    await local.stop();

    site("https://club.example", dataDir);
    await expect(startApp({ work: false })).rejects.toThrow(
      /demo accounts, whose passwords are public, and https:\/\/club\.example is not a local address[\s\S]*DELETE FROM users[\s\S]*SEED_DEMO=1/,
    );

    site("https://club.example", dataDir, { SEED_DEMO: "1" });
    const demo = await startApp({ work: false });
    try {
      expect(await demoSignIns(demo.db)).toHaveLength(3);
    } finally {
      await demo.stop();
    }
  });
});
