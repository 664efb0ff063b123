import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { gateStaffOf } from "~/features/gate/gate-staff.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import * as checkin from "./checkin";

// Who works an event's gate, on its check-in tab: organizers and admins add members by email as
// stewards or supervisors and remove them; members and visitors cannot.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "gate-staff" });

const path = (eventId: string) => `/admin/events/${eventId}/checkin`;

describe("gate staff on the check-in tab", () => {
  it("lists them for organizers and admins; visitors sign in and members get the 403 page", async () => {
    const { eventId } = await createTestEvent(database().db, { types: [{ name: "Day ticket" }] });
    const params = { eventId };
    expect(await statusOf(() => checkin.loader(site.args(null, { path: path(eventId), params })))).toMatch(
      /^302 \/login/,
    );
    expect(await statusOf(() => checkin.loader(site.args("member", { path: path(eventId), params })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => checkin.loader(site.args(who, { path: path(eventId), params })));
      expect(page.data).toMatchObject({ staff: [], screen: { role: "supervisor" } });
    }
  });

  it("adds a member by email, changes their role, removes them; audited; bad input gets its message", async () => {
    const { db } = database();
    const { eventId } = await createTestEvent(db, { types: [{ name: "Day ticket" }] });
    const volunteer = await testAccount(db, "member", "Val Unteer");
    const params = { eventId };
    const post = (who: Parameters<typeof site.args>[0], body: Record<string, string>) =>
      answerOf(() => checkin.action(site.args(who, { path: path(eventId), params, body })));

    expect((await post(null, { intent: "staff-add", email: volunteer.email, role: "steward" })).status).toBe(302);
    expect((await post("member", { intent: "staff-add", email: volunteer.email, role: "steward" })).status).toBe(403);
    expect(await gateStaffOf(db, eventId)).toEqual([]);

    expect(await post("organizer", { intent: "staff-add", email: "not an email", role: "steward" })).toMatchObject({
      status: 400,
      data: { staffErrors: { email: ["Enter an email address like name@example.com"] } },
    });
    expect(await post("organizer", { intent: "staff-add", email: volunteer.email, role: "boss" })).toMatchObject({
      status: 400,
      data: { staffErrors: { role: ["Choose steward or supervisor"] } },
    });
    expect(
      await post("organizer", { intent: "staff-add", email: "nobody@club.example", role: "steward" }),
    ).toMatchObject({
      status: 400,
      data: { staffErrors: { email: ["No account has this email: ask them to sign up first"] } },
    });

    const added = await post("organizer", {
      intent: "staff-add",
      email: volunteer.email.toUpperCase(),
      role: "steward",
    });
    expect(added.status).toBe(302);
    expect(added.location).toBe(`${path(eventId)}#gate-staff`);
    expect(await gateStaffOf(db, eventId)).toMatchObject([{ userId: volunteer.id, role: "steward" }]);

    expect((await post("admin", { intent: "staff-add", email: volunteer.email, role: "supervisor" })).status).toBe(302);
    expect(await gateStaffOf(db, eventId)).toMatchObject([{ userId: volunteer.id, role: "supervisor" }]);

    expect((await post("member", { intent: "staff-remove", userId: volunteer.id })).status).toBe(403);
    expect((await post("organizer", { intent: "staff-remove", userId: volunteer.id })).status).toBe(302);
    expect(await gateStaffOf(db, eventId)).toEqual([]);
    expect(await post("admin", { intent: "staff-remove", userId: volunteer.id })).toMatchObject({
      status: 404,
      data: { staffErrors: { "": ["They were not on this gate."] } },
    });
  });

  it("turns re-entry on and off for organizers and admins; members cannot; the gate then scans exits", async () => {
    const { db } = database();
    const { eventId } = await createTestEvent(db, { types: [{ name: "Day ticket" }] });
    const params = { eventId };
    const post = (who: Parameters<typeof site.args>[0], body: Record<string, string>) =>
      answerOf(() => checkin.action(site.args(who, { path: path(eventId), params, body })));
    const reentry = async () =>
      (
        (await answerOf(() => checkin.loader(site.args("admin", { path: path(eventId), params })))).data as {
          screen: { reentry: boolean };
        }
      ).screen.reentry;

    expect((await post(null, { intent: "reentry", reentry: "on" })).status).toBe(302);
    expect((await post("member", { intent: "reentry", reentry: "on" })).status).toBe(403);
    expect(await reentry()).toBe(false);
    const on = await post("organizer", { intent: "reentry", reentry: "on" });
    expect(on).toMatchObject({ status: 302, location: `${path(eventId)}#reentry` });
    expect(await reentry()).toBe(true);
    expect((await post("admin", { intent: "reentry" })).status).toBe(302);
    expect(await reentry()).toBe(false);
  });
});
