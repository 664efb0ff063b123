import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bannerPartners } from "~/features/partners/partners.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { demoPartnersSeeder } from "./demo-partners.server";

const database = freshDatabasePerFile();

describe("demo partners", () => {
  it("puts six partners with stored logos in the banner, linking to example domains", async () => {
    const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-demo-partners-")), "media"));
    await demoPartnersSeeder.run(database().db, { storage });
    const shown = await bannerPartners(database().db);
    expect(shown).toHaveLength(6);
    for (const partner of shown) {
      expect(new URL(partner.url).hostname).toMatch(/\.example\.(com|org|net)$/);
      expect(await storage.exists(`partners/${partner.logo.hash}-320.webp`)).toBe(true);
    }
  });
});
