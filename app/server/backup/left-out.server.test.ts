import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, queryRows, type TestDatabase } from "../db/test-database";
import { localStorage } from "../storage/storage.server";
import { createArchive } from "./archive.server";
import { createBackup, type Manifest, openBackup, restoreBackup } from "./backup.server";
import { authOn, createSiteWithKeys, type SiteWithKeys, signIn, TEST_SEAL, whoIs } from "./site-with-keys.test-support";
import { connect, dumpTable, listTables } from "./tables.server";

/**
 * Backups hold no keys to the house (docs/backup.md, "What a backup leaves out"): whoever holds
 * a backup, or the site restored from it, finds no session to take over and no reset or sign-in
 * link still waiting to be used. Everyone signs in again, with their password.
 */

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-left-out-"));
const cleanups: (() => Promise<void>)[] = [];
let site: SiteWithKeys;
let backupFile: string;

beforeAll(async () => {
  site = await createSiteWithKeys();
  cleanups.push(site.cleanup);
  backupFile = path.join(scratch, "site.tar.gz");
  await createBackup(
    {
      database: site.database,
      storage: site.storage,
      mediaName: "local",
      authSecret: site.authSecret,
      seal: TEST_SEAL,
    },
    backupFile,
  );
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** What `tar -tzf` shows of an archive. */
const listing = (file: string) => execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n");

async function restoredSite(file: string) {
  const target = await createTestDatabase({ migrate: false });
  cleanups.push(() => target.cleanup());
  const storage = localStorage(mkdtempSync(path.join(scratch, "media-")));
  const backup = await openBackup(file, TEST_SEAL.passphrase);
  try {
    await restoreBackup(backup, { database: target, storage });
  } finally {
    await backup.close();
  }
  return target;
}

/** A restored site signing with the backup's secret: who the member's browsers are, and whether the reset link works. */
async function keysThatStillWork(target: TestDatabase) {
  const auth = authOn(target, site.authSecret);
  const signedIn = await Promise.all(site.cookies.map((cookie) => whoIs(auth, cookie)));
  const reset = await auth.api
    .resetPassword({ body: { token: site.resetToken, newPassword: "a password the thief chose" } })
    .then(() => "reset")
    .catch((error: Error) => error.message);
  return { auth, signedIn, reset };
}

describe("a backup", () => {
  it("leaves out sessions and unused sign-in links: tar -tzf lists no sessions or tokens", async () => {
    const names = listing(backupFile);
    expect(names).toContain("tables/users.jsonl.age");
    expect(names).toContain("tables/accounts.jsonl.age");
    expect(names.filter((name) => /session|verification|token/.test(name))).toEqual([]);

    const backup = await openBackup(backupFile, TEST_SEAL.passphrase);
    try {
      expect(backup.manifest.tables.map((table) => table.name)).not.toContain("sessions");
      expect(backup.manifest.tables.map((table) => table.name)).not.toContain("verifications");
      expect(backup.manifest.leftOut).toEqual(["sessions", "verifications"]);
      const everything = backup.manifest.tables
        .map((table) => readFileSync(path.join(backup.folder, table.file), "utf8"))
        .join("\n");
      expect(everything).toContain(site.email);
      const sessions = await queryRows<{ token: string }>(site.database, "select token from sessions");
      expect(sessions).toHaveLength(2);
      for (const { token } of sessions) expect(everything).not.toContain(token);
      expect(everything).not.toContain(site.resetToken);
      // A federated sign-in's tokens, and the link in an email sent a minute ago, are blanked;
      // an email sent two days ago keeps its text.
      for (const providerToken of site.providerTokens) expect(everything).not.toContain(providerToken);
      expect(everything).not.toContain(site.recentLink);
      expect(everything).toContain(site.oldText);
    } finally {
      await backup.close();
    }
  });
});

describe("a restore", () => {
  it("brings the site back with everyone signed out and no reset link usable: they sign in again", async () => {
    // On the backed-up site, both browsers are signed in and the reset link is waiting.
    const before = authOn(site.database, site.authSecret);
    expect(await Promise.all(site.cookies.map((cookie) => whoIs(before, cookie)))).toEqual([site.email, site.email]);

    const target = await restoredSite(backupFile);
    const { auth, signedIn, reset } = await keysThatStillWork(target);
    expect(signedIn).toEqual([null, null]);
    expect(reset).toMatch(/invalid token/i);
    expect(await queryRows(target, "select id from sessions")).toEqual([]);
    expect(await queryRows(target, "select id from verifications")).toEqual([]);

    // The member and their password came back: signing in again works.
    expect(await whoIs(auth, await signIn(auth, site.email))).toBe(site.email);
    const [draw] = await queryRows<{ seed: string }>(target, "select seed from draws where status = 'live'");
    expect(draw!.seed).toBe(site.drawSeed);
  }, 120_000);

  it("leaves no session or token from a backup made before they were left out (format 1)", async () => {
    // The archive an earlier release wrote: the same files, in clear, with the sessions and
    // verifications tables, the provider tokens and the mailbox's text as they were.
    const opened = await openBackup(backupFile, TEST_SEAL.passphrase);
    const old = path.join(scratch, "format-1.tar.gz");
    try {
      const manifest: Manifest = { ...opened.manifest, version: 1, tables: [...opened.manifest.tables] };
      delete manifest.leftOut;
      const connection = await connect(site.database);
      try {
        await connection.query("begin");
        for (const table of await listTables(connection)) {
          if (!["sessions", "verifications", "accounts", "outbound_messages"].includes(table.name)) continue;
          const file = `tables/${table.name}.jsonl`;
          const rows = await dumpTable(connection, table, path.join(opened.folder, file));
          manifest.tables = manifest.tables.filter((entry) => entry.name !== table.name);
          manifest.tables.push({
            name: table.name,
            file,
            columns: table.columns.map((column) => column.name),
            ...rows,
          });
        }
        await connection.query("commit");
      } finally {
        connection.release();
      }
      const archive = await createArchive(old, null);
      for (const entry of [...manifest.tables, ...manifest.media]) {
        await archive.addBytes(entry.file, readFileSync(path.join(opened.folder, entry.file)));
      }
      await archive.addBytes("auth-secret", readFileSync(path.join(opened.folder, "auth-secret")));
      await archive.addBytes("manifest.json", Buffer.from(JSON.stringify(manifest)));
      await archive.finish();
    } finally {
      await opened.close();
    }
    expect(listing(old)).toContain("tables/sessions.jsonl");

    const target = await restoredSite(old);
    const { signedIn, reset } = await keysThatStillWork(target);
    expect(signedIn).toEqual([null, null]);
    expect(reset).toMatch(/invalid token/i);
    const [account] = await queryRows<Record<string, string | null>>(
      target,
      "select access_token, refresh_token, id_token from accounts where provider_id = 'google'",
    );
    expect(account).toEqual({ access_token: null, refresh_token: null, id_token: null });
    const texts = (await queryRows<{ text: string | null }>(target, "select text from outbound_messages")).map(
      (row) => row.text,
    );
    expect(texts).not.toContainEqual(expect.stringContaining(site.recentLink));
    expect(texts).toContain(site.oldText);
  }, 120_000);
});
