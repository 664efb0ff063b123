import { describe, expect, it } from "vitest";
import { readCalendar } from "~/features/events/calendar.test-support";
import { feedEvent } from "~/features/events/calendar-feeds.test-support";
import { PUBLIC_PAGE_CACHE } from "~/server/cache.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { answerOf, routeTestSite } from "~/web/route-calls.test-support";
import * as eventFile from "./calendar";
import * as feed from "./feed";

// /events.ics and an event's own calendar file, fetched by a visitor and each role: the same
// public file for all of them.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "events-feed" });
const WHO = [null, "member", "organizer", "admin"] as const;

const uidsOf = (text: string | undefined) => readCalendar(text ?? "").entries.map((entry) => entry.uid.split("@")[0]);

describe("/events.ics", () => {
  it("gives everyone the public events as a cacheable calendar", async () => {
    const { db } = database();
    const show = await feedEvent(db, { title: "Feed show", type: "show", days: 400 });
    const draft = await feedEvent(db, { title: "Feed draft", type: "show", days: 400, status: "draft" });
    for (const who of WHO) {
      const answer = await answerOf(() => feed.loader(site.args(who, { path: "/events.ics" })));
      expect(answer.status).toBe(200);
      expect(answer.headers?.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      expect(answer.headers?.get("Cache-Control")).toBe(PUBLIC_PAGE_CACHE);
      const uids = uidsOf(answer.text);
      expect(uids).toContain(show.eventId);
      expect(uids).not.toContain(draft.eventId);
      expect(answer.text).toContain("X-WR-CALNAME:Pitlane events");
      expect(answer.text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT6H");
    }
  });

  it("filters by type, and answers an unknown type with a plain 400", async () => {
    const { db } = database();
    const show = await feedEvent(db, { title: "Filtered show", type: "show", days: 401 });
    const track = await feedEvent(db, { title: "Filtered track day", type: "track_day", days: 402 });
    const meet = await feedEvent(db, { title: "Filtered meet", days: 403 });
    for (const who of WHO) {
      const answer = await answerOf(() =>
        feed.loader(site.args(who, { path: "/events.ics?type=show&type=track-day" })),
      );
      const uids = uidsOf(answer.text);
      expect(uids).toEqual(expect.arrayContaining([show.eventId, track.eventId]));
      expect(uids).not.toContain(meet.eventId);

      const refused = await answerOf(() => feed.loader(site.args(who, { path: "/events.ics?type=rally" })));
      expect(refused.status).toBe(400);
      expect(refused.headers?.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(refused.text).toBe('There is no event type "rally". The types are: meet, show, track-day, cruise.');
    }
  });
});

describe("/events/:id/calendar.ics", () => {
  it("gives everyone a public event's file with the event's UID, and nobody a draft's", async () => {
    const { db } = database();
    const show = await feedEvent(db, { title: "File show", type: "show", days: 404 });
    const draft = await feedEvent(db, { title: "File draft", days: 404, status: "draft" });
    for (const who of WHO) {
      const answer = await answerOf(() =>
        eventFile.loader(
          site.args(who, { path: `/events/${show.eventId}/calendar.ics`, params: { id: show.eventId } }),
        ),
      );
      expect(answer.status).toBe(200);
      expect(uidsOf(answer.text)).toEqual([show.eventId]);
      const hidden = await answerOf(() =>
        eventFile.loader(
          site.args(who, { path: `/events/${draft.eventId}/calendar.ics`, params: { id: draft.eventId } }),
        ),
      );
      expect(hidden.status).toBe(404);
    }
  });
});
