import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError } from "../env.server";
import { siteSettings } from "./site.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-site-settings-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the settings npm run backup reads", () => {
  it("take BACKUP_PASSPHRASE exactly as typed, spaces included", () => {
    const settings = siteSettings({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: "  our club's backups  " });
    expect(settings.backupPassphrase).toBe("  our club's backups  ");
    expect(siteSettings({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: "" }).backupPassphrase).toBeNull();
    expect(siteSettings({ DATA_DIR: dataDir }).backupPassphrase).toBeNull();
  });

  it("refuse a passphrase shorter than 12 characters, saying so", () => {
    expect(() => siteSettings({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: "club2027" })).toThrow(EnvError);
    expect(() => siteSettings({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: "club2027" })).toThrow(
      "BACKUP_PASSPHRASE must be at least 12 characters",
    );
  });
});
