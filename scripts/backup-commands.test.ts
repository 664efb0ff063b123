import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, runMigrations } from "~/server/db/client.server";
import { queryRows } from "~/server/db/test-database";

/**
 * `npm run backup` and `npm run restore` as an operator runs them, on an embedded site that
 * signs with a generated DATA_DIR/auth-secret and has a member signed in: a backup without
 * BACKUP_PASSPHRASE is refused with a message, one with it is encrypted and lists no session,
 * and restoring it brings the member back signed out.
 */

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-backup-commands-"));
const dataDir = path.join(scratch, "site");
const authSecret = "generated-secret-of-the-site-0123456789";
const passphrase = "a long passphrase for the club's backups";

beforeAll(async () => {
  const site = await openPglite(dataDir);
  try {
    await runMigrations(site);
    await site.pglite!.exec(`
      insert into users (id, name, email, email_verified) values ('member-1', 'Ada', 'ada@example.com', true);
      insert into sessions (id, user_id, token, expires_at)
        values ('session-1', 'member-1', 'live-session-token-of-ada', now() + interval '7 days');
      insert into verifications (id, identifier, value, expires_at)
        values ('verification-1', 'reset-password:unused-reset-token', 'member-1', now() + interval '1 hour');`);
  } finally {
    await site.close();
  }
  writeFileSync(path.join(dataDir, "auth-secret"), authSecret, { mode: 0o600 });
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `npm run <script> -- …args` the way package.json does, with only the settings given. */
function run(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: scratch, ...env },
    timeout: 240_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A stack trace's frames, which an operator should never be shown for a refusal. */
const STACK_FRAME = /^\s+at /m;

describe("npm run backup and npm run restore", () => {
  it("refuses a backup that would hold the signing secret without BACKUP_PASSPHRASE, saying what to do", () => {
    const out = path.join(scratch, "refused.tar.gz");
    const { status, stdout, stderr } = run("backup", ["--out", out], { DATA_DIR: dataDir });
    expect(status).toBe(1);
    expect(stderr).toContain("must never be written in clear");
    expect(stderr).toContain("Set BACKUP_PASSPHRASE");
    expect(stderr + stdout).not.toMatch(STACK_FRAME);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  }, 240_000);

  it("writes an encrypted backup listing no session or token, which restores with everyone signed out", async () => {
    const out = path.join(scratch, "club.tar.gz");
    const backup = run("backup", ["--out", out], { DATA_DIR: dataDir, BACKUP_PASSPHRASE: passphrase });
    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain("encrypted with BACKUP_PASSPHRASE");

    const names = execFileSync("tar", ["-tzf", out], { encoding: "utf8" }).trim().split("\n");
    expect(names).toContain("tables/users.jsonl.age");
    expect(names).toContain("auth-secret.age");
    expect(names.filter((name) => /session|verification|token/.test(name))).toEqual([]);
    const raw = execFileSync("tar", ["-xzOf", out], { encoding: "latin1" });
    for (const secret of [authSecret, "ada@example.com", "live-session-token-of-ada"])
      expect(raw).not.toContain(secret);

    const restored = path.join(scratch, "restored");
    const locked = run("restore", [out], { DATA_DIR: restored });
    expect(locked.status).toBe(1);
    expect(locked.stderr).toContain("This backup is encrypted: set BACKUP_PASSPHRASE");
    expect(locked.stderr).not.toMatch(STACK_FRAME);

    const restore = run("restore", [out], { DATA_DIR: restored, BACKUP_PASSPHRASE: passphrase });
    expect(restore.stderr).toBe("");
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain("everyone signs in again");
    expect(readFileSync(path.join(restored, "auth-secret"), "utf8")).toBe(authSecret);
    const site = await openPglite(restored);
    try {
      expect(await queryRows(site, "select email from users")).toEqual([{ email: "ada@example.com" }]);
      expect(await queryRows(site, "select id from sessions")).toEqual([]);
      expect(await queryRows(site, "select id from verifications")).toEqual([]);
    } finally {
      await site.close();
    }
  }, 480_000);
});
