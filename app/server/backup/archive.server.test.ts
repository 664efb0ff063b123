import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createArchive, KEY_MEMBER, readArchive, type Seal } from "./archive.server";
import { createBackup } from "./backup.server";
import { createSiteWithKeys, TEST_SEAL } from "./site-with-keys.test-support";

/** The backup file as standard tools see it: `tar` lists and unpacks it, `age` opens its members. */

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-archive-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LONG_NAME = `media/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(100)}.webp`;
const MEMBERS: [string, Buffer][] = [
  [LONG_NAME, Buffer.from("long")],
  ["short.txt", Buffer.alloc(513, 7)],
  ["tables/big.jsonl", Buffer.alloc(200_000, "x")],
];

async function writeArchive(file: string, seal: Seal | null) {
  const archive = await createArchive(file, seal);
  for (const [name, bytes] of MEMBERS.slice(0, 2)) await archive.addBytes(name, bytes);
  const big = path.join(scratch, "big.jsonl");
  writeFileSync(big, MEMBERS[2]![1]);
  await archive.addFile(MEMBERS[2]![0], big, MEMBERS[2]![1].length);
  await archive.finish();
}

async function readBack(file: string, passphrase: string | null) {
  const read: [string, Buffer][] = [];
  await readArchive(file, passphrase, async (name, pieces) => {
    const chunks: Uint8Array[] = [];
    for await (const piece of pieces) chunks.push(piece);
    read.push([name, Buffer.concat(chunks)]);
  });
  return read;
}

const listing = (file: string) => execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n");

describe("the archive", () => {
  it("keeps names longer than a tar header holds, and tar lists them", async () => {
    const file = path.join(scratch, "plain.tar.gz");
    await writeArchive(file, null);
    expect(await readBack(file, null)).toEqual(MEMBERS);
    expect(listing(file)).toEqual(MEMBERS.map(([name]) => name));
  });

  it("sealed, lists each member as <name>.age after its key, and reads back only with the passphrase", async () => {
    const file = path.join(scratch, "sealed.tar.gz");
    await writeArchive(file, TEST_SEAL);
    expect(listing(file)).toEqual([KEY_MEMBER, ...MEMBERS.map(([name]) => `${name}.age`)]);
    expect(await readBack(file, TEST_SEAL.passphrase)).toEqual(MEMBERS);
    await expect(readBack(file, null)).rejects.toThrow(/encrypted: set BACKUP_PASSPHRASE/);
    await expect(readBack(file, "not the passphrase")).rejects.toThrow(/does not open this backup/);
  });
});

/** `script` gives age the terminal it reads a passphrase from; the passphrase is typed on its input. */
function ageWithPassphrase(args: string[], cwd: string) {
  const command = ["age", ...args].map((arg) => `'${arg}'`).join(" ");
  return spawnSync("script", ["-qec", command, "/dev/null"], {
    cwd,
    input: `${TEST_SEAL.passphrase}\n`,
    encoding: "utf8",
    timeout: 60_000,
  });
}

const hasTool = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
const standardTools = hasTool("age") && hasTool("script") && hasTool("tar");

describe.skipIf(!standardTools)("a backup opened by hand (skipped unless age, script and tar are installed)", () => {
  it("opens with tar and the standard age tool: the key with the passphrase, then any member", async () => {
    const site = await createSiteWithKeys();
    try {
      const file = path.join(scratch, "site.tar.gz");
      await createBackup(
        {
          database: site.database,
          storage: site.storage,
          mediaName: "local",
          authSecret: site.authSecret,
          seal: TEST_SEAL,
        },
        file,
      );
      const folder = path.join(scratch, "by-hand");
      mkdirSync(folder);
      execFileSync("tar", ["-xzf", file, "-C", folder]);

      const key = ageWithPassphrase(["-d", "-o", "key.txt", KEY_MEMBER], folder);
      expect(key.status, key.stdout + key.stderr).toBe(0);
      const open = (member: string) => execFileSync("age", ["-d", "-i", "key.txt", member], { cwd: folder });
      const manifest = JSON.parse(open("manifest.json.age").toString("utf8"));
      expect(manifest.format).toBe("pitlane-backup");
      expect(open("auth-secret.age").toString("utf8")).toBe(site.authSecret);
      expect(open("tables/draws.jsonl.age").toString("utf8")).toContain(site.drawSeed);
      expect(open(`media/${site.photo.key}.age`).equals(site.photo.bytes)).toBe(true);

      // The passphrase-protected key works as age's identity file directly too.
      const direct = ageWithPassphrase(["-d", "-i", KEY_MEMBER, "-o", "users.jsonl", "tables/users.jsonl.age"], folder);
      expect(direct.status, direct.stdout + direct.stderr).toBe(0);
      expect(readFileSync(path.join(folder, "users.jsonl"), "utf8")).toContain(site.email);
    } finally {
      await site.cleanup();
    }
  }, 120_000);
});
