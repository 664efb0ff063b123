import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import { signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { gateScans } from "../../../../db/schema";
import * as checkin from "./checkin";
import * as admissions from "./checkin-admissions";
import * as onlineScan from "./checkin-scan";
import * as sync from "./checkin-sync";

// The offline gate's routes called as React Router calls them, by every role: the admission list a
// device downloads, and the sync it sends its offline scans to. Bad input gets its message and a
// 400, never a 500.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "offline-gate" });

const soldTickets = (quantity: number) => soldDayTickets(database().db, quantity);

/** A scan time the server takes: within the last week, not ahead of its clock. */
const recent = () => new Date(Date.now() - 10 * 60_000);

const listPath = (eventId: string) => `/admin/events/${eventId}/checkin/admissions.json`;
const syncPath = (eventId: string) => `/admin/events/${eventId}/checkin/sync`;

/** The sync's (or a scan's) arguments with a JSON body, as the device sends it. */
function syncArgs(who: TestRole | null, eventId: string, body: unknown, path = syncPath(eventId)) {
  const args = site.args(who, { path, params: { eventId } }) as unknown as { request: Request };
  args.request = new Request(new URL(path, "http://localhost:3000"), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return args as never;
}

describe("the admission list", () => {
  it("sends visitors to sign in, gives members the 403 page, and gives organizers and admins the list, never cached", async () => {
    const sold = await soldTickets(2);
    const params = { eventId: sold.eventId };
    const path = listPath(sold.eventId);
    expect(await statusOf(() => admissions.loader(site.args(null, { path, params })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => admissions.loader(site.args("member", { path, params })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const answer = await answerOf(() => admissions.loader(site.args(who, { path, params })));
      expect(answer.status).toBe(200);
      expect(answer.headers?.get("Cache-Control")).toBe("private, no-store");
      expect(answer.json).toMatchObject({ eventId: sold.eventId, types: ["Day ticket"] });
      expect((answer.json as { entries: unknown[] }).entries).toHaveLength(2);
      expect(answer.text).not.toContain(sold.buyer.email);
    }
    expect(
      await statusOf(() => admissions.loader(site.args("admin", { path: listPath("x"), params: { eventId: "x" } }))),
    ).toBe(404);
    const missing = randomUUID();
    expect(
      await statusOf(() =>
        admissions.loader(site.args("admin", { path: listPath(missing), params: { eventId: missing } })),
      ),
    ).toBe(404);
  });
});

describe("sending offline scans", () => {
  it("is for organizers and admins only, records each scan once, and shows conflicts on the check-in page", async () => {
    const sold = await soldTickets(1);
    const secret = site.env.AUTH_SECRET;
    const scan = {
      id: randomUUID(),
      value: signTicketCode(sold.codes[0]!, secret),
      at: recent().toISOString(),
      local: "admitted",
    };
    const body = { gate: "A", scans: [scan] };
    expect(await statusOf(() => sync.action(syncArgs(null, sold.eventId, body)))).toMatch(/^302 \/login\?redirectTo=/);
    expect(await statusOf(() => sync.action(syncArgs("member", sold.eventId, body)))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const answer = await answerOf(() => sync.action(syncArgs(who, sold.eventId, body)));
      expect(answer).toMatchObject({
        status: 200,
        json: { synced: [{ id: scan.id, outcome: "admitted", conflict: null }] },
      });
    }
    expect(await database().db.select().from(gateScans).where(eq(gateScans.eventId, sold.eventId))).toHaveLength(1);

    // Another gate admitted it too, offline: the check-in page shows the conflict.
    const later = { ...scan, id: randomUUID(), at: new Date(recent().getTime() + 60_000).toISOString() };
    const second = await answerOf(() =>
      sync.action(syncArgs("organizer", sold.eventId, { gate: "B", scans: [later] })),
    );
    expect(second.json).toMatchObject({
      synced: [{ outcome: "already", conflict: expect.stringMatching(/^Admitted twice, at gates A and B/) }],
    });
    const page = await answerOf(() =>
      checkin.loader(
        site.args("organizer", { path: `/admin/events/${sold.eventId}/checkin`, params: { eventId: sold.eventId } }),
      ),
    );
    expect(page.data).toMatchObject({
      screen: { conflicts: [{ gate: "B", conflict: expect.stringMatching(/^Admitted twice/) }] },
    });
  });

  it("answers hostile bodies with a message and a 400, and stores nothing", async () => {
    const sold = await soldTickets(1);
    const send = (body: unknown) => answerOf(() => sync.action(syncArgs("organizer", sold.eventId, body)));
    const good = { id: randomUUID(), value: "X", at: recent().toISOString(), local: "refused" };
    expect(await send("not json{")).toMatchObject({ status: 400, json: { error: "Send the scans as JSON" } });
    expect(await send({ gate: "", scans: [] })).toMatchObject({ status: 400, json: { error: "Name this gate" } });
    expect(await send({ gate: "A".repeat(41), scans: [] })).toMatchObject({ status: 400 });
    expect(await send({ gate: "A", scans: [{ ...good, id: "<script>" }] })).toMatchObject({
      status: 400,
      json: { error: "Each scan needs its id" },
    });
    expect(await send({ gate: "A", scans: [{ ...good, at: "yesterday" }] })).toMatchObject({ status: 400 });
    expect(await send({ gate: "A", scans: [{ ...good, local: "let-in" }] })).toMatchObject({ status: 400 });
    expect(await send({ gate: "A", scans: [{ ...good, value: "x".repeat(201) }] })).toMatchObject({ status: 400 });
    expect(
      await send({ gate: "A", scans: Array.from({ length: 201 }, () => ({ ...good, id: randomUUID() })) }),
    ).toMatchObject({
      status: 400,
      json: { error: "Send at most 200 scans at once" },
    });
    expect(await database().db.select().from(gateScans).where(eq(gateScans.eventId, sold.eventId))).toHaveLength(0);
    // A phone's wrong clock does not hold the outbox up: its times are kept within the last week
    // and never ahead of the server.
    const [wrongClock, ahead] = [randomUUID(), randomUUID()];
    expect(
      await send({
        gate: "A",
        scans: [
          { ...good, id: wrongClock, at: "2001-01-01T00:00:00Z" },
          { ...good, id: ahead, at: new Date(Date.now() + 86_400_000).toISOString() },
        ],
      }),
    ).toMatchObject({ status: 200 });
    const kept = await database()
      .db.select({ id: gateScans.id, at: gateScans.scannedAt })
      .from(gateScans)
      .where(eq(gateScans.eventId, sold.eventId));
    const atOf = (id: string) => kept.find((row) => row.id === id)!.at.getTime();
    expect(Date.now() - atOf(wrongClock)).toBeGreaterThan(6.9 * 86_400_000);
    expect(atOf(ahead)).toBeLessThanOrEqual(Date.now());
    // Nonsense that is well formed is a refused scan, not an error.
    expect(await send({ gate: "A", scans: [good] })).toMatchObject({
      status: 200,
      json: { synced: [{ outcome: "refused", headline: "This code is not a valid ticket" }] },
    });
    expect(await statusOf(() => sync.action(syncArgs("admin", randomUUID(), { gate: "A", scans: [] })))).toBe(404);
  });
});

describe("a scan sent online by a device ready for offline", () => {
  it("is for organizers and admins only, answers with the gate's result, and refuses bad input", async () => {
    const sold = await soldTickets(2);
    const path = `/admin/events/${sold.eventId}/checkin/scan`;
    const send = (who: TestRole | null, body: unknown) =>
      answerOf(() => onlineScan.action(syncArgs(who, sold.eventId, body, path)));
    const body = (code: string) => ({ id: randomUUID(), gate: "A", value: signTicketCode(code, site.env.AUTH_SECRET) });
    expect((await send(null, body(sold.codes[0]!))).location).toMatch(/^\/login\?redirectTo=/);
    expect((await send("member", body(sold.codes[0]!))).status).toBe(403);
    expect(await send("organizer", body(sold.codes[0]!))).toMatchObject({
      status: 200,
      json: { result: { tone: "admitted", headline: expect.stringMatching(/^Checked in: /) }, merch: [] },
    });
    expect(await send("admin", body(sold.codes[0]!))).toMatchObject({
      status: 200,
      json: { result: { tone: "warning" } },
    });
    expect(await send("admin", "{")).toMatchObject({ status: 400, json: { error: "Send the scan as JSON" } });
    expect(await send("admin", { ...body(sold.codes[1]!), id: "1" })).toMatchObject({
      status: 400,
      json: { error: "The scan needs its id" },
    });
    expect(await send("admin", { ...body(sold.codes[1]!), gate: "" })).toMatchObject({ status: 400 });
    expect(await send("admin", { ...body(sold.codes[1]!), value: "x".repeat(201) })).toMatchObject({ status: 400 });
    const missing = randomUUID();
    expect(
      await statusOf(() =>
        onlineScan.action(syncArgs("admin", missing, body(sold.codes[1]!), `/admin/events/${missing}/checkin/scan`)),
      ),
    ).toBe(404);
  });
});
