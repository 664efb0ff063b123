import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { joinInOrder } from "~/features/waiting-lists/waiting-lists.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, type FormFields, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, events, ticketTypes, waitingListEntries } from "../../../../db/schema";
import * as eventDetailRoute from "../../events/detail";
import * as myTicketsRoute from "../../members/events";
import * as route from "./waiting-list";

// The waiting lists' routes called as React Router calls them, by every role: the organizer's tab,
// the event page's "Join the waiting list", and the member's "Buy my places" and "Leave the list".
// Bad input gets its message and a 400, never a 500.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "waiting-lists" });

/** A published event whose one ticket type (2 places) is sold out. */
async function soldOutEvent() {
  const { db } = database();
  const made = await createTestEvent(db, {
    startsAt: new Date(Date.now() + 30 * 24 * 3_600_000),
    endsAt: new Date(Date.now() + 31 * 24 * 3_600_000),
    types: [{ name: "Paddock", capacity: 2, maxPerOrder: 4 }],
  });
  await db.update(ticketTypes).set({ sold: 2 }).where(eq(ticketTypes.id, made.typeIds[0]!));
  const [event] = await db.select({ slug: events.slug }).from(events).where(eq(events.id, made.eventId));
  return { ...made, slug: event!.slug, typeId: made.typeIds[0]! };
}

const tab = (eventId: string) => `/admin/events/${eventId}/waiting-list`;

describe("the organizer's waiting-list tab", () => {
  it("sends visitors to sign in, gives members the 403 page, and lets organizers and admins see and change it", async () => {
    const { eventId } = await soldOutEvent();
    const params = { eventId };
    const settings: FormFields = { intent: "settings", enabled: "on", offerHours: "12", closesHours: "48" };
    expect(await statusOf(() => route.loader(site.args(null, { path: tab(eventId), params })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => route.loader(site.args("member", { path: tab(eventId), params })))).toBe(403);
    expect(await statusOf(() => route.action(site.args(null, { path: tab(eventId), params, body: settings })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(
      await statusOf(() => route.action(site.args("member", { path: tab(eventId), params, body: settings }))),
    ).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      expect(await statusOf(() => route.loader(site.args(who, { path: tab(eventId), params })))).toBe("ok");
      expect(await statusOf(() => route.action(site.args(who, { path: tab(eventId), params, body: settings })))).toBe(
        `302 ${tab(eventId)}`,
      );
    }
    const [saved] = await database()
      .db.select({ hours: events.waitingListOfferHours, closes: events.waitingListClosesHours })
      .from(events)
      .where(eq(events.id, eventId));
    expect(saved).toEqual({ hours: 12, closes: 48 });
    expect(
      await statusOf(() =>
        route.loader(site.args("admin", { path: "/admin/events/x/waiting-list", params: { eventId: "x" } })),
      ),
    ).toBe(404);
  });

  it("answers hostile settings and moves with their messages, and audits a move with its reason", async () => {
    const { db } = database();
    const { eventId, typeId } = await soldOutEvent();
    const params = { eventId };
    const bad = await answerOf(() =>
      route.action(
        site.args("organizer", {
          path: tab(eventId),
          params,
          body: { intent: "settings", offerHours: "1", closesHours: "<script>" },
        }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      intent: "settings",
      errors: { offerHours: ["Enter at least 2"], closesHours: [expect.stringMatching(/whole number/)] },
    });

    const members = await createBuyers(db, 3);
    const entries = await joinInOrder(db, typeId, members);
    const page = await answerOf(() => route.loader(site.args("organizer", { path: tab(eventId), params })));
    expect(page.data).toMatchObject({ couldSell: 3 });
    const move = (body: FormFields) =>
      answerOf(() => route.action(site.args("organizer", { path: tab(eventId), params, body })));
    expect(await move({ intent: "move", entryId: entries[2]!.id, position: "1", reason: "" })).toMatchObject({
      status: 400,
      data: { entryId: entries[2]!.id, errors: { reason: [expect.stringMatching(/Say why/)] } },
    });
    expect(await move({ intent: "move", entryId: entries[0]!.id, position: "1", reason: "Nothing" })).toMatchObject({
      status: 400,
      data: { errors: { position: [expect.stringMatching(/already number 1/)] } },
    });
    expect(await move({ intent: "move", entryId: "not-an-id", position: "1", reason: "x" })).toMatchObject({
      status: 400,
    });
    expect(
      await move({ intent: "move", entryId: "7d2c3a1e-5b4f-4c6d-8e9f-0a1b2c3d4e5f", position: "1", reason: "x" }),
    ).toMatchObject({ status: 404 });
    expect(await move({ intent: "move", entryId: entries[2]!.id, position: "1", reason: "Marshal" })).toMatchObject({
      status: 302,
    });
    const [audit] = await db
      .select({ actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "waiting_list.move"), eq(auditLog.subjectId, entries[2]!.id)));
    expect(audit).toMatchObject({
      actorId: site.accounts.organizer.id,
      details: { reason: "Marshal", from: 3, to: 1 },
    });
  });
});

describe("joining from the event page", () => {
  it("sends a visitor to sign in, and lets a member of any role join once, with bad input refused by its ticket type", async () => {
    const { slug, typeId } = await soldOutEvent();
    const path = `/events/${slug}`;
    const params = { id: slug };
    const join = (who: TestRole | null, quantity = "1") =>
      answerOf(() =>
        eventDetailRoute.action(
          site.args(who, { path, params, body: { intent: "join-waiting-list", ticketTypeId: typeId, quantity } }),
        ),
      );
    expect((await join(null)).location).toMatch(/^\/login\?redirectTo=/);
    for (const who of ["member", "organizer", "admin"] as const) {
      expect(await join(who)).toMatchObject({ status: 302, location: `/events/${slug}#tickets` });
    }
    expect(await join("member")).toMatchObject({
      status: 400,
      data: { waiting: { [typeId]: "You are already on the waiting list for these tickets" } },
    });
    const [another] = await createBuyers(database().db, 1);
    const stranger = { id: another!.id, email: another!.email, name: "Stranger", role: "member" } as never;
    expect(
      await answerOf(() =>
        eventDetailRoute.action(
          site.args(stranger, {
            path,
            params,
            body: { intent: "join-waiting-list", ticketTypeId: typeId, quantity: "99" },
          }),
        ),
      ),
    ).toMatchObject({ status: 400, data: { waiting: { [typeId]: "Wait for at most 4 places" } } });
    expect(
      await answerOf(() =>
        eventDetailRoute.action(
          site.args(stranger, {
            path,
            params,
            body: { intent: "join-waiting-list", ticketTypeId: "x", quantity: "1" },
          }),
        ),
      ),
    ).toMatchObject({ status: 400 });

    // The member's page shows their place; a visitor's shows the join form's ticket, and no places.
    const member = await answerOf(() => eventDetailRoute.loader(site.args("member", { path, params })));
    expect(member.data).toMatchObject({ lists: { [typeId]: { position: 1, quantity: 1 } } });
    const visitor = await answerOf(() => eventDetailRoute.loader(site.args(null, { path, params })));
    expect(visitor.data).toMatchObject({ lists: {}, tickets: [{ id: typeId, waitingList: true }] });
  });
});

describe("the member's waiting lists", () => {
  it("lists their places, lets them leave their own only, and refuses a claim with no offer", async () => {
    const { db } = database();
    const { typeId } = await soldOutEvent();
    const [entry] = await joinInOrder(db, typeId, [{ id: site.accounts.member.id }]);
    const path = "/members/events";
    expect(await statusOf(() => myTicketsRoute.loader(site.args(null, { path })))).toMatch(/^302 \/login\?redirectTo=/);
    const page = await answerOf(() => myTicketsRoute.loader(site.args("member", { path })));
    expect(page.data?.waitingLists).toContainEqual(
      expect.objectContaining({ id: entry!.id, position: 1, offer: null }),
    );
    for (const who of ["organizer", "admin"] as const) {
      const theirs = await answerOf(() => myTicketsRoute.loader(site.args(who, { path })));
      const ids = ((theirs.data?.waitingLists ?? []) as { id: string }[]).map((list) => list.id);
      expect(ids).not.toContain(entry!.id);
    }

    const post = (who: TestRole | null, body: FormFields) =>
      answerOf(() => myTicketsRoute.action(site.args(who, { path, body })));
    expect((await post(null, { intent: "leave-waiting-list", entryId: entry!.id })).location).toMatch(/^\/login/);
    expect(await post("organizer", { intent: "leave-waiting-list", entryId: entry!.id })).toMatchObject({
      status: 400,
      data: { error: { message: "You are no longer on this waiting list" } },
    });
    expect(await post("member", { intent: "claim-offer", entryId: entry!.id })).toMatchObject({
      status: 400,
      data: { error: { message: "There is no offer for you on this list now" } },
    });
    expect(await post("member", { intent: "claim-offer", entryId: "<x>" })).toMatchObject({ status: 400 });
    expect(await post("member", { intent: "leave-waiting-list", entryId: entry!.id })).toMatchObject({
      status: 302,
      location: "/members/events#waiting-lists",
    });
    const [left] = await db
      .select({ status: waitingListEntries.status })
      .from(waitingListEntries)
      .where(eq(waitingListEntries.id, entry!.id));
    expect(left!.status).toBe("left");
  });
});
