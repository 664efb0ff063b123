import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDraw } from "~/features/draws/draws.test-support";
import { DiscoverArticles, LiveCompetitions, LogoBanner } from "~/features/home/below-the-fold-sections";
import { PUBLIC_PAGE_CACHE } from "~/server/cache.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { routeTestSite } from "~/web/route-calls.test-support";
import { partners } from "../../../db/schema";
import { headers, loader } from "./home";

// The home page's loader, as React Router calls it, for every kind of visitor.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "home" });
const { accounts } = site;
const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-home-")), "media"));

function load(who: keyof typeof accounts | null) {
  const context = site.contextFor(who, { storage });
  const url = new URL("http://localhost/");
  return loader({ request: new Request(url), url, params: {}, context, unstable_pattern: "/" } as never);
}

describe("the home page", () => {
  it("has nothing to show on an empty site, and each empty section draws nothing", async () => {
    const page = await load(null);
    expect(page).toMatchObject({ headline: null, upcoming: [], draws: [], articles: [], featured: [], partners: [] });
    expect(LiveCompetitions({ draws: [], now: 0 })).toBeNull();
    expect(DiscoverArticles({ articles: [] })).toBeNull();
    expect(LogoBanner({ partners: [], mediaBase: "/media/" })).toBeNull();
  });

  it("shows the same live competitions and active partners to visitors, members and staff", async () => {
    const { db } = database();
    const now = Date.now();
    const soon = await createTestDraw(db, {
      title: "Closes first",
      opensAt: new Date(now - 86_400_000),
      closesAt: new Date(now + 3_600_000),
    });
    await createTestDraw(db, {
      title: "Closes later",
      opensAt: new Date(now - 86_400_000),
      closesAt: new Date(now + 7 * 86_400_000),
    });
    await createTestDraw(db, {
      title: "Not open yet",
      opensAt: new Date(now + 86_400_000),
      closesAt: new Date(now + 9 * 86_400_000),
    });
    await createTestDraw(db, {
      title: "Closes third",
      opensAt: new Date(now - 86_400_000),
      closesAt: new Date(now + 2 * 86_400_000),
    });
    await createTestDraw(db, {
      title: "Closes fourth",
      opensAt: new Date(now - 86_400_000),
      closesAt: new Date(now + 8 * 86_400_000),
    });
    await db.insert(partners).values([
      {
        name: "Apex Tyres",
        url: "https://apex.example.com/",
        logo: { hash: "a".repeat(32), color: "#d9480f", alt: "Apex Tyres" },
        position: 1,
      },
      {
        name: "Hidden Partner",
        url: "https://hidden.example.com/",
        logo: { hash: "b".repeat(32), color: "#000000", alt: "Hidden" },
        active: false,
        position: 0,
      },
      { name: "No Logo Yet", url: "https://nologo.example.com/", position: 2 },
    ]);

    for (const who of [null, "member", "organizer", "admin"] as const) {
      const page = await load(who);
      expect(page.draws.map((draw) => draw.title)).toEqual(["Closes first", "Closes third", "Closes later"]);
      expect(page.draws[0]?.slug).toBe(soon.slug);
      expect(page.partners).toEqual([
        { id: expect.any(String), name: "Apex Tyres", url: "https://apex.example.com/", logoHash: "a".repeat(32) },
      ]);
    }
  });

  it("sends the public pages' cache headers", () => {
    const sent = new Headers(headers({} as never) as HeadersInit);
    expect(sent.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE);
  });
});
