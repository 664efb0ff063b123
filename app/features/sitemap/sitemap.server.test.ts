import { describe, expect, it } from "vitest";
import { createTestDraw } from "~/features/draws/draws.test-support";
import { sitemapEntries } from "~/features/sitemap/sitemap.server";
import { freshDatabasePerFile } from "~/server/db/test-database";

const database = freshDatabasePerFile();

describe("the sitemap", () => {
  it("lists every public page kind, with draws that are public and never drafts", async () => {
    const { db } = database();
    const live = await createTestDraw(db, { status: "live" });
    const drawn = await createTestDraw(db, { status: "drawn" });
    const draft = await createTestDraw(db, { status: "draft" });

    const paths = (await sitemapEntries(db)).map((entry) => entry.path);
    for (const page of ["/", "/events", "/giveaways", "/responsible-play", "/community", "/shop", "/blog"]) {
      expect(paths).toContain(page);
    }
    expect(paths).toContain(`/giveaways/${live.slug}`);
    expect(paths).toContain(`/giveaways/${drawn.slug}`);
    expect(paths).not.toContain(`/giveaways/${draft.slug}`);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
