import { describe, expect, it } from "vitest";
import { insertCar, insertMember } from "~/features/community/cars.test-support";
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
    for (const page of [
      "/",
      "/events",
      "/giveaways",
      "/responsible-play",
      "/community",
      "/shop",
      "/membership",
      "/blog",
    ]) {
      expect(paths).toContain(page);
    }
    expect(paths).toContain(`/giveaways/${live.slug}`);
    expect(paths).toContain(`/giveaways/${drawn.slug}`);
    expect(paths).not.toContain(`/giveaways/${draft.slug}`);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("lists the profile of a member with a public car, and leaves quiet members out", async () => {
    const { db } = database();
    const sharing = await insertMember(db, { handle: "map_sharer" });
    const shared = await insertCar(db, sharing.id);
    const quiet = await insertMember(db, { handle: "map_quiet" });
    await insertCar(db, quiet.id, { visibility: "members" });
    await insertCar(db, quiet.id, { visibility: "private" });
    const hidden = await insertCar(db, quiet.id, { hidden: true });

    const paths = (await sitemapEntries(db)).map((entry) => entry.path);
    expect(paths).toContain("/community/map_sharer");
    expect(paths).toContain(`/community/cars/${shared.id}`);
    expect(paths.filter((path) => path.includes("map_quiet"))).toEqual([]);
    expect(paths).not.toContain(`/community/cars/${hidden.id}`);
  });
});
