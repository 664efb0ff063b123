import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import * as calendarFeed from "./calendar-feed";
import * as settings from "./settings";

// The Calendar section of /settings for a visitor and each role: the secret link is shown once
// made, and "Reset link" replaces it, ending the old address at once.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "settings-calendar" });

const calendarUrlOf = async (who: Awaited<ReturnType<typeof testAccount>>) => {
  const answer = await answerOf(() => settings.loader(site.args(who, { path: "/settings" })));
  expect(answer.status).toBe(200);
  return (answer.data as { calendarUrl: string | null }).calendarUrl;
};

const fetchFeed = async (url: string) => {
  const file = url.split("/").at(-1)!;
  return answerOf(() => calendarFeed.loader(site.args(null, { path: `/members/calendar/${file}`, params: { file } })));
};

describe("the Calendar section of the settings", () => {
  it("sends a visitor to sign in, to see or to make a link", async () => {
    expect(await statusOf(() => settings.loader(site.args(null, { path: "/settings" })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    const body = { intent: "calendar-link" };
    expect(await statusOf(() => settings.action(site.args(null, { path: "/settings", body })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
  });

  for (const role of ["member", "organizer", "admin"] as const) {
    it(`lets ${role === "admin" ? "an" : "a"} ${role} make their link, then reset it so the old one stops`, async () => {
      const { db } = database();
      const who = await testAccount(db, role, `Calendar ${role}`);
      expect(await calendarUrlOf(who)).toBeNull();

      const made = await answerOf(() =>
        settings.action(site.args(who, { path: "/settings", body: { intent: "calendar-link" } })),
      );
      expect(made.status).toBe(302);
      expect(made.location).toBe("/settings#calendar");
      expect(made.headers?.get("Set-Cookie")).toBeTruthy();
      const first = (await calendarUrlOf(who))!;
      expect(first).toMatch(new RegExp(`^${site.env.SITE_URL}/members/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
      // The link stays the same each time the page is opened.
      expect(await calendarUrlOf(who)).toBe(first);
      expect((await fetchFeed(first)).status).toBe(200);

      const reset = await answerOf(() =>
        settings.action(site.args(who, { path: "/settings", body: { intent: "calendar-link" } })),
      );
      expect(reset.location).toBe("/settings#calendar");
      const second = (await calendarUrlOf(who))!;
      expect(second).not.toBe(first);
      expect((await fetchFeed(first)).status).toBe(404);
      expect((await fetchFeed(second)).status).toBe(200);
    });
  }

  it("leaves another member's link alone when one member resets theirs", async () => {
    const { db } = database();
    const [one, two] = [await testAccount(db, "member", "One"), await testAccount(db, "member", "Two")];
    for (const who of [one, two])
      await settings.action(site.args(who, { path: "/settings", body: { intent: "calendar-link" } }));
    const twosLink = (await calendarUrlOf(two))!;
    await settings.action(site.args(one, { path: "/settings", body: { intent: "calendar-link" } }));
    expect(await calendarUrlOf(two)).toBe(twosLink);
    expect((await fetchFeed(twosLink)).status).toBe(200);
  });
});
