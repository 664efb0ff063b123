import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDraw } from "~/features/draws/draws.test-support";
import { DiscoverArticles, LiveCompetitions, LogoBanner } from "~/features/home/below-the-fold-sections";
import { PUBLIC_PAGE_CACHE } from "~/server/cache.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { routeTestSite } from "~/web/route-calls.test-support";
import { partners } from "../../../db/schema";
import { headers, loader } from "./home";

// The home page's loader, as React Router calls it, for every kind of visitor.
const database = freshDatabasePerFile();
const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-home-")), "media"));
const site = routeTestSite(database, { name: "home", runtime: () => ({ storage }) });

const load = (who: TestRole | null) => loader(site.args(who, { path: "/" }));

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
    const DAY = 86_400_000;
    // Each draw's title, and when it opens and closes from now.
    const schedule: [string, number, number][] = [
      ["Closes first", -DAY, 3_600_000],
      ["Closes later", -DAY, 7 * DAY],
      ["Not open yet", DAY, 9 * DAY],
      ["Closes third", -DAY, 2 * DAY],
      ["Closes fourth", -DAY, 8 * DAY],
    ];
    const created = [];
    for (const [title, opens, closes] of schedule) {
      created.push(
        await createTestDraw(db, { title, opensAt: new Date(now + opens), closesAt: new Date(now + closes) }),
      );
    }
    const soon = created[0]!;
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
