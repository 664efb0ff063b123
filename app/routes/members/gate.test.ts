import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import { putOnGate } from "~/features/gate/gate-staff.server";
import { formatTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, recordingOutbox, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { tickets } from "../../../db/schema";
import * as checkin from "../admin/events/checkin";
import * as admissions from "../admin/events/checkin-admissions";
import * as onlineScan from "../admin/events/checkin-scan";
import * as sync from "../admin/events/checkin-sync";
import * as gate from "./gate";

// A gate worker's page and the offline gate's addresses, called by every role: visitors sign in,
// members who do not work this gate get the 403 page, a steward scans and reads initials, a
// supervisor (a member given the role, an organizer, an admin) sees names and lets in by hand.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "gate-worker", runtime: () => ({ outbox: recordingOutbox().outbox }) });

const sold = (quantity: number) => soldDayTickets(database().db, quantity);

async function worker(eventId: string, role: "steward" | "supervisor") {
  const { db } = database();
  const member = await testAccount(db, "member", role === "steward" ? "Stella Steward" : "Simon Super");
  await putOnGate(db, { eventId, email: member.email, role, actorId: site.accounts.organizer.id, now: NOW });
  return member;
}

const path = (eventId: string) => `/members/gate/${eventId}`;

/** A JSON POST as the gate's device sends it. */
function jsonArgs(who: Parameters<typeof site.args>[0], url: string, eventId: string, body: unknown) {
  const args = site.args(who, { path: url, params: { eventId } }) as unknown as { request: Request };
  args.request = new Request(new URL(url, "http://localhost:3000"), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
    body: JSON.stringify(body),
  });
  return args as never;
}

describe("a gate worker's page", () => {
  it("sends visitors to sign in, gives members without the gate the 403 page, and a malformed event the 404", async () => {
    const { eventId, tickets: sold1 } = await sold(1);
    const params = { eventId };
    expect(await statusOf(() => gate.loader(site.args(null, { path: path(eventId), params })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => gate.loader(site.args("member", { path: path(eventId), params })))).toBe(403);
    const body = { code: formatTicketCode(sold1[0]!.code) };
    expect(await statusOf(() => gate.action(site.args("member", { path: path(eventId), params, body })))).toBe(403);
    expect(await statusOf(() => gate.action(site.args(null, { path: path(eventId), params, body })))).toMatch(
      /^302 \/login/,
    );
    expect(
      await statusOf(() => gate.loader(site.args("admin", { path: path("nope"), params: { eventId: "nope" } }))),
    ).toBe(404);
    const missing = randomUUID();
    expect(
      await statusOf(() => gate.loader(site.args("admin", { path: path(missing), params: { eventId: missing } }))),
    ).toBe(404);
    // Nothing was checked in by the refused calls.
    const [ticket] = await database()
      .db.select({ status: tickets.status })
      .from(tickets)
      .where(eq(tickets.id, sold1[0]!.id));
    expect(ticket!.status).toBe("valid");
  });

  it("a steward sees the count and scans, reading initials; no names, list, conflicts or letting in", async () => {
    const { eventId, tickets: sold2, buyerName } = await sold(2);
    const steward = await worker(eventId, "steward");
    const params = { eventId };
    const page = await answerOf(() => gate.loader(site.args(steward, { path: `${path(eventId)}?q=a`, params })));
    expect(page.data).toMatchObject({
      screen: { role: "steward", counts: { checkedIn: 0, sold: 2 }, attendees: [], conflicts: [], byGate: [], q: "" },
    });
    expect(JSON.stringify(page.data)).not.toContain(buyerName);

    const scanned = await answerOf(() =>
      gate.action(
        site.args(steward, { path: path(eventId), params, body: { code: formatTicketCode(sold2[0]!.code) } }),
      ),
    );
    expect(scanned.data).toMatchObject({
      result: { tone: "admitted", headline: expect.stringMatching(/^Checked in: [A-Z]\./) },
    });
    expect(JSON.stringify(scanned.data)).not.toContain(buyerName);

    const letIn = await answerOf(() =>
      gate.action(
        site.args(steward, {
          path: path(eventId),
          params,
          body: { intent: "let-in", ticketId: sold2[1]!.id, reason: "Seems fine" },
        }),
      ),
    );
    expect(letIn.status).toBe(400);
    expect(letIn.data).toEqual({
      letIn: { ticketId: sold2[1]!.id, problem: "Only a supervisor can let someone in by hand" },
    });
  });

  it("a supervisor, whether a member given the role, an organizer or an admin, sees names and lets in by hand with a reason", async () => {
    const { eventId, tickets: sold3, buyerName } = await sold(3);
    const supervisor = await worker(eventId, "supervisor");
    const params = { eventId };
    for (const [who, index] of [
      [supervisor, 0],
      ["organizer", 1],
      ["admin", 2],
    ] as const) {
      const page = await answerOf(() => gate.loader(site.args(who, { path: path(eventId), params })));
      expect(page.data).toMatchObject({ screen: { role: "supervisor" } });
      expect((page.data as { screen: { attendees: { name: string }[] } }).screen.attendees[0]!.name).toBe(buyerName);

      const missingReason = await answerOf(() =>
        gate.action(
          site.args(who, {
            path: path(eventId),
            params,
            body: { intent: "let-in", ticketId: sold3[index]!.id, reason: " " },
          }),
        ),
      );
      expect(missingReason).toMatchObject({
        status: 400,
        data: { letIn: { ticketId: sold3[index]!.id, problem: "Say why you are letting them in" } },
      });
      const letIn = await answerOf(() =>
        gate.action(
          site.args(who, {
            path: path(eventId),
            params,
            body: { intent: "let-in", ticketId: sold3[index]!.id, reason: "Phone died" },
          }),
        ),
      );
      expect(letIn.data).toMatchObject({
        result: { tone: "admitted", headline: "Checked in by hand", detail: "Phone died" },
      });
    }
    const after = await answerOf(() => gate.loader(site.args("organizer", { path: path(eventId), params })));
    expect(after.data).toMatchObject({
      screen: { counts: { checkedIn: 3 }, byGate: [{ gate: "By hand", admitted: 3 }] },
    });
  });

  it("the offline gate's addresses take a steward: the list, a scan with initials, a sync without headlines", async () => {
    const { eventId, tickets: sold2, buyerName } = await sold(2);
    const steward = await worker(eventId, "steward");
    const secret = site.env.AUTH_SECRET;
    const listPath = `/admin/events/${eventId}/checkin/admissions.json`;
    const list = await answerOf(() => admissions.loader(site.args(steward, { path: listPath, params: { eventId } })));
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(buyerName);
    expect(await statusOf(() => admissions.loader(site.args("member", { path: listPath, params: { eventId } })))).toBe(
      403,
    );

    const scanPath = `/admin/events/${eventId}/checkin/scan`;
    const body = { id: randomUUID(), gate: "North", value: signTicketCode(sold2[0]!.code, secret) };
    const scanned = await answerOf(() => onlineScan.action(jsonArgs(steward, scanPath, eventId, body)));
    expect(scanned.json).toMatchObject({
      result: { tone: "admitted", headline: expect.stringMatching(/^Checked in: [A-Z]\./) },
    });
    expect(scanned.text).not.toContain(buyerName);
    expect(await statusOf(() => onlineScan.action(jsonArgs("member", scanPath, eventId, body)))).toBe(403);

    const syncPath = `/admin/events/${eventId}/checkin/sync`;
    const scan = {
      id: randomUUID(),
      value: signTicketCode(sold2[1]!.code, secret),
      at: new Date(Date.now() - 60_000).toISOString(),
      local: "admitted",
    };
    const synced = await answerOf(() =>
      sync.action(jsonArgs(steward, syncPath, eventId, { gate: "North", scans: [scan] })),
    );
    expect(synced.json).toEqual({ synced: [{ id: scan.id, outcome: "admitted", conflict: null }] });

    const page = await answerOf(() =>
      gate.loader(site.args("organizer", { path: path(eventId), params: { eventId } })),
    );
    expect(page.data).toMatchObject({ screen: { byGate: [{ gate: "North", admitted: 2 }] } });
  });

  it("answers the service worker's request for the page's copy with the scanner alone, for any role", async () => {
    const { eventId, buyerName } = await sold(1);
    const supervisor = await worker(eventId, "supervisor");
    const headers = { "X-Pitlane-Saved-Copy": "1" };
    for (const who of [supervisor, "organizer", "admin"] as const) {
      const page = await answerOf(() =>
        gate.loader(site.args(who, { path: path(eventId), params: { eventId }, headers })),
      );
      expect(page.data).toMatchObject({
        screen: { saved: true, role: "supervisor", attendees: [], conflicts: [], byGate: [], counts: { sold: 1 } },
      });
      expect(JSON.stringify(page.data)).not.toContain(buyerName);
    }
    const tab = await answerOf(() =>
      checkin.loader(
        site.args("organizer", { path: `/admin/events/${eventId}/checkin`, params: { eventId }, headers }),
      ),
    );
    expect(tab.data).toMatchObject({ staff: [], screen: { saved: true, attendees: [] } });
    expect(JSON.stringify(tab.data)).not.toContain(buyerName);
    // The copy is no way round the gate's roles.
    expect(
      await statusOf(() => gate.loader(site.args("member", { path: path(eventId), params: { eventId }, headers }))),
    ).toBe(403);
  });
});
