import { describe, expect, it } from "vitest";
import { readCalendar } from "~/features/events/calendar.test-support";
import { calendarFeedToken, resetCalendarFeed } from "~/features/events/calendar-feeds.server";
import { memberCalendarScenario } from "~/features/events/calendar-feeds.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { answerOf, routeTestSite } from "~/web/route-calls.test-support";
import * as calendarFeed from "./calendar-feed";

// A member's secret calendar address, fetched as calendar apps fetch it (no session) and by each
// role: the address alone decides whose dates come back.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "calendar-feed" });
const WHO = [null, "member", "organizer", "admin"] as const;

const fetchFeed = (who: (typeof WHO)[number], file: string) =>
  answerOf(() => calendarFeed.loader(site.args(who, { path: `/members/calendar/${file}`, params: { file } })));

describe("/members/calendar/:token.ics", () => {
  it("gives anyone with the address exactly that member's dates, never cached, and 404 for anything else", async () => {
    const { db } = database();
    const scenario = await memberCalendarScenario(db);
    await resetCalendarFeed(db, scenario.member.id, { secret: site.env.AUTH_SECRET, now: new Date() });
    const file = `${await calendarFeedToken(db, scenario.member.id, site.env.AUTH_SECRET)}.ics`;
    expect(file).toMatch(/^[A-Za-z0-9_-]{43}\.ics$/);
    for (const who of WHO) {
      const fetched = await fetchFeed(who, file);
      expect(fetched.status).toBe(200);
      expect(fetched.headers?.get("Cache-Control")).toBe("private, no-store");
      expect(fetched.headers?.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      const uids = readCalendar(fetched.text ?? "").entries.map((entry) => entry.uid.split("@")[0]);
      // The long-past event is in or out depending on today's date: the rest is exact.
      expect(uids.filter((uid) => uid !== scenario.stale).sort()).toEqual(scenario.expected);

      for (const wrong of [file.replace(/\.ics$/, ""), `${"A".repeat(43)}.ics`, "nonsense.ics", `${file}.ics`]) {
        const missing = await fetchFeed(who, wrong);
        expect(missing.status).toBe(404);
        expect(missing.headers?.get("Cache-Control")).toBe("private, no-store");
        expect(missing.text).toMatch(/^There is no calendar at this address/);
      }
    }

    await resetCalendarFeed(db, scenario.member.id, { secret: site.env.AUTH_SECRET, now: new Date() });
    for (const who of WHO) expect((await fetchFeed(who, file)).status).toBe(404);
  });
});
