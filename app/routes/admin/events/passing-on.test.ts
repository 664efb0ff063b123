import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sendTransfer } from "~/features/transfers/transfers.server";
import { BRAND, soldOutWithHolder, tokenOf } from "~/features/transfers/transfers.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, type FormFields, recordingOutbox, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, events, ticketHandBacks, tickets, ticketTransfers } from "../../../../db/schema";
import * as acceptRoute from "../../events/accept-transfer";
import * as myTicketsRoute from "../../members/events";
import * as route from "./passing-on";

// Passing tickets on, called as React Router calls the routes, by every role: the organizer's
// Transfers tab, the member's "Send this ticket" / "Hand it back" forms, and the accept link.
// Bad input gets its message and a 400, never a 500.
const database = freshDatabasePerFile();
const { outbox, sent: emails } = recordingOutbox();
const site = routeTestSite(database, { name: "passing-on", runtime: () => ({ outbox }) });

/** A sold-out event whose two tickets belong to the site's member of role `who`. */
async function ticketsOf(who: TestRole) {
  const { db } = database();
  const made = await soldOutWithHolder(db);
  await db.update(tickets).set({ userId: site.accounts[who].id }).where(eq(tickets.orderId, made.orderId));
  return made;
}

const tab = (eventId: string) => `/admin/events/${eventId}/passing-on`;

describe("the organizer's Transfers tab", () => {
  it("sends visitors to sign in, gives members the 403 page, and lets organizers and admins see and change it", async () => {
    const { eventId } = await ticketsOf("member");
    const params = { eventId };
    const settings: FormFields = {
      intent: "settings",
      transfers: "once",
      closesHours: "6",
      handBackEnabled: "on",
      handBackFee: "2.50",
    };
    expect(await statusOf(() => route.loader(site.args(null, { path: tab(eventId), params })))).toMatch(/^302 \/login/);
    expect(await statusOf(() => route.loader(site.args("member", { path: tab(eventId), params })))).toBe(403);
    expect(await statusOf(() => route.action(site.args(null, { path: tab(eventId), params, body: settings })))).toMatch(
      /^302 \/login/,
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
      .db.select({
        transfers: events.transfers,
        closes: events.transfersCloseHours,
        enabled: events.handBackEnabled,
        fee: events.handBackFee,
      })
      .from(events)
      .where(eq(events.id, eventId));
    expect(saved).toEqual({ transfers: "once", closes: 6, enabled: true, fee: 250 });
    const [audit] = await database()
      .db.select({ actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.action, "event.passing_on"), eq(auditLog.subjectId, eventId)));
    expect(audit).toBeDefined();
    expect(
      await statusOf(() =>
        route.loader(site.args("admin", { path: "/admin/events/x/passing-on", params: { eventId: "x" } })),
      ),
    ).toBe(404);
  });

  it("answers hostile settings with their messages", async () => {
    const { eventId } = await ticketsOf("member");
    const bad = await answerOf(() =>
      route.action(
        site.args("organizer", {
          path: tab(eventId),
          params: { eventId },
          body: { intent: "settings", transfers: "sometimes", closesHours: "-1", handBackFee: "<b>lots</b>" },
        }),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      errors: {
        transfers: ["Choose whether tickets may be transferred"],
        closesHours: ["Enter at least 0"],
        handBackFee: [expect.stringMatching(/Enter an amount like/)],
      },
    });
  });
});

describe("the member's forms under a ticket", () => {
  const path = "/members/events";
  const post = (who: TestRole | null, body: FormFields) =>
    answerOf(() => myTicketsRoute.action(site.args(who, { path, body })));

  it("send a visitor to sign in, and let the holder of any role send, cancel, hand back and take back", async () => {
    expect((await post(null, { intent: "hand-back", ticketId: crypto.randomUUID() })).location).toMatch(/^\/login/);
    for (const who of ["member", "organizer", "admin"] as const) {
      const { tickets: held } = await ticketsOf(who);
      const sent = await post(who, {
        intent: "send-transfer",
        ticketId: held[0]!.id,
        toName: "Sam Driver",
        toEmail: `sam-${who}@example.test`,
      });
      expect(sent).toMatchObject({ status: 302, location: "/members/events" });
      expect(emails.at(-1)).toMatchObject({ to: `sam-${who}@example.test` });
      const [transfer] = await database()
        .db.select({ id: ticketTransfers.id })
        .from(ticketTransfers)
        .where(eq(ticketTransfers.ticketId, held[0]!.id));
      expect(await post(who, { intent: "cancel-transfer", transferId: transfer!.id })).toMatchObject({ status: 302 });
      expect(await post(who, { intent: "hand-back", ticketId: held[1]!.id })).toMatchObject({ status: 302 });
      expect(await post(who, { intent: "withdraw-hand-back", ticketId: held[1]!.id })).toMatchObject({ status: 302 });
      const [listing] = await database()
        .db.select({ status: ticketHandBacks.status })
        .from(ticketHandBacks)
        .where(eq(ticketHandBacks.ticketId, held[1]!.id));
      expect(listing!.status).toBe("withdrawn");
    }
  });

  it("refuse someone else's ticket and hostile input with a message, never a 500", async () => {
    const { tickets: held } = await ticketsOf("member");
    expect(
      await post("organizer", {
        intent: "send-transfer",
        ticketId: held[0]!.id,
        toName: "Eve",
        toEmail: "eve@example.test",
      }),
    ).toMatchObject({ status: 400, data: { passingOn: { message: "This ticket is not yours to transfer." } } });
    expect(await post("organizer", { intent: "hand-back", ticketId: held[0]!.id })).toMatchObject({
      status: 400,
      data: { passingOn: { message: "This ticket is not yours to hand back." } },
    });
    expect(
      await post("member", {
        intent: "send-transfer",
        ticketId: held[0]!.id,
        toName: "<script>",
        toEmail: "not an email",
      }),
    ).toMatchObject({
      status: 400,
      data: {
        passingOn: {
          ticketId: held[0]!.id,
          fields: { toName: "Leave out < and >", toEmail: "Enter an email address like name@example.com" },
        },
      },
    });
    expect(await post("member", { intent: "hand-back", ticketId: "' or 1=1" })).toMatchObject({
      status: 400,
      data: { passingOn: { message: "This ticket could not be found" } },
    });
    expect(await post("member", { intent: "cancel-transfer", transferId: crypto.randomUUID() })).toMatchObject({
      status: 400,
    });
    // The page shows what each ticket can do.
    const page = await answerOf(() => myTicketsRoute.loader(site.args("member", { path })));
    expect((page.data as { passingOn: Record<string, unknown> }).passingOn[held[0]!.id]).toMatchObject({
      transferRefusal: null,
      handBackRefusal: null,
    });
  });
});

describe("the accept link", () => {
  async function pendingTo() {
    const { holder, tickets: held } = await soldOutWithHolder(database().db);
    const sent = await sendTransfer(database().db, {
      userId: holder.id,
      ticketId: held[0]!.id,
      toName: "Sam",
      toEmail: "sam@example.test",
      now: new Date(),
      brand: BRAND,
    });
    if (!sent.ok) throw new Error(sent.message);
    return { token: tokenOf(sent.email), ticketId: held[0]!.id };
  }

  it("shows anyone what is passed on; a visitor is sent to sign in to accept; a member of any role accepts once", async () => {
    const { token } = await pendingTo();
    const path = `/tickets/accept/${token}`;
    const params = { token };
    const seen = await answerOf(() => acceptRoute.loader(site.args(null, { path, params })));
    expect(seen.data).toMatchObject({ signedIn: false, transfer: { status: "pending", ticketTypeName: "Paddock" } });
    expect(await statusOf(() => acceptRoute.action(site.args(null, { path, params, body: { go: "1" } })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => acceptRoute.action(site.args("member", { path, params, body: { go: "1" } })))).toBe(
      "302 /members/events",
    );
    for (const who of ["organizer", "admin"] as const) {
      expect(
        await answerOf(() => acceptRoute.action(site.args(who, { path, params, body: { go: "1" } }))),
      ).toMatchObject({
        status: 400,
        data: { message: "This ticket was already accepted." },
      });
    }
    for (const who of ["organizer", "admin"] as const) {
      const fresh = await pendingTo();
      const there = `/tickets/accept/${fresh.token}`;
      expect(
        await statusOf(() =>
          acceptRoute.action(site.args(who, { path: there, params: { token: fresh.token }, body: { go: "1" } })),
        ),
      ).toBe("302 /members/events");
    }
  });

  it("answers a made-up or hostile token with a plain page and a 400, never a 500", async () => {
    for (const token of ["nope", "../../etc/passwd", "%00", "x".repeat(500)]) {
      const path = `/tickets/accept/${encodeURIComponent(token)}`;
      const seen = await answerOf(() => acceptRoute.loader(site.args("member", { path, params: { token } })));
      expect(seen.data).toMatchObject({ transfer: null });
      expect(
        await answerOf(() => acceptRoute.action(site.args("member", { path, params: { token }, body: { go: "1" } }))),
      ).toMatchObject({ status: 400, data: { message: "This link is not valid." } });
    }
  });
});
