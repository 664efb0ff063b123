import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createQueuedEvent } from "~/features/waiting-room/queue.test-support";
import { QUEUE_PLACES_PER_NETWORK } from "~/features/waiting-room/waiting-room.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testAccount } from "~/server/session-user.test-support";
import { type Answer, answerOf, routeArgs } from "~/web/route-calls.test-support";
import { auditLog, events, waitingRoomEntries } from "../../../db/schema";
import { action as adminAction, loader as adminLoader } from "../admin/events/queue";
import { action as detailAction, loader as detailLoader } from "./detail";
import { action as queueAction, loader as queueLoader } from "./queue";

// The queue page, the event page's queue notice and Add to cart gate, and the organizer's queue
// settings, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { TIME_ZONE: "Europe/London", CURRENCY: "GBP", SITE_URL: "http://localhost:3000", SITE_NAME: "Pitlane" };
const MINUTE = 60_000;
/** The cookie that once held an anonymous place: presenting one must give nobody a place. */
const OLD_QUEUE_COOKIE = "pitlane.queue";

const signedIn = (role: TestRole) => testAccount(database().db, role);

/** A page's arguments; each request comes from a network of its own unless `ip` is given. */
function argsFor(
  who: SessionUser | null,
  path: string,
  params: Record<string, string>,
  options: { body?: Record<string, string>; cookie?: string; ip?: string } = {},
) {
  const { body, cookie, ip = `10.9.${Math.floor(Math.random() * 250)}.1` } = options;
  const headers = cookie ? { cookie: `${OLD_QUEUE_COOKIE}=${cookie}` } : undefined;
  return routeArgs({ db: database().db, env: ENV, who, path, params, body, headers, ip });
}

/** An event whose sales (and queue) opened `minutesAgo`, letting `rate` through a minute. */
async function queuedEvent(minutesAgo: number, rate = 1) {
  const made = await createQueuedEvent(database().db, {
    opensAt: new Date(Date.now() - minutesAgo * MINUTE),
    ratePerMinute: rate,
    types: [{ name: "Paddock pass", capacity: 20 }],
  });
  const [row] = await database().db.select({ slug: events.slug }).from(events).where(eq(events.id, made.eventId));
  return { ...made, slug: row!.slug };
}

function cookieOf(answer: Answer) {
  const header = answer.headers?.get("Set-Cookie") ?? "";
  return new RegExp(`${OLD_QUEUE_COOKIE}=([A-Za-z0-9_-]{43})`).exec(header)?.[1] ?? null;
}

async function placesIn(eventId: string) {
  return database().db.select().from(waitingRoomEntries).where(eq(waitingRoomEntries.eventId, eventId));
}

describe("queue page", () => {
  it("offers every role a place and asks a visitor to sign in first, privately, before sales open", async () => {
    const { slug } = await queuedEvent(-30);
    for (const who of [null, ...(await Promise.all(TEST_ROLES.map(signedIn)))]) {
      const answer = await answerOf(() => queueLoader(argsFor(who, `/events/${slug}/queue`, { id: slug })));
      expect(answer.status).toBe(200);
      expect(answer.headers?.get("Cache-Control")).toBe("private, no-store");
      expect(answer.data?.view).toMatchObject({ kind: "join", signedIn: who !== null });
    }
  });

  it("sends a visitor who is not signed in to sign in, and takes no place for them", async () => {
    const { slug, eventId } = await queuedEvent(-30);
    const joined = await answerOf(() =>
      queueAction(argsFor(null, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(`/login?redirectTo=${encodeURIComponent(`/events/${slug}/queue`)}`);
    expect(joined.headers?.get("Cache-Control")).toBe("private, no-store");
    expect(await placesIn(eventId)).toHaveLength(0);
  });

  it("gives a hundred joins from one network at most the network's share of places", async () => {
    const { slug, eventId } = await queuedEvent(-30);
    const ip = "198.51.100.23";
    const answers: Answer[] = [];
    for (let index = 0; index < 100; index++) {
      const who = index % 2 === 0 ? null : await signedIn("member");
      answers.push(
        await answerOf(() =>
          queueAction(argsFor(who, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" }, ip })),
        ),
      );
    }
    expect(await placesIn(eventId)).toHaveLength(QUEUE_PLACES_PER_NETWORK);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(String(refused[0]?.data?.error)).toMatch(/network/);
    // Another network still gets in.
    const elsewhere = await signedIn("member");
    await answerOf(() =>
      queueAction(
        argsFor(elsewhere, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" }, ip: "203.0.113.5" }),
      ),
    );
    expect(await placesIn(eventId)).toHaveLength(QUEUE_PLACES_PER_NETWORK + 1);
  });

  it("refuses an admitted place's cookie presented by another account", async () => {
    const { slug, typeIds } = await queuedEvent(0.5, 5);
    // Someone not signed in takes a place (or tries to) and is let through at once.
    const joined = await answerOf(() =>
      queueAction(argsFor(null, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    const cookie = cookieOf(joined) ?? "A".repeat(43);
    await answerOf(() => queueLoader(argsFor(null, `/events/${slug}/queue`, { id: slug }, { cookie })));
    // The cookie handed to a buyer who signs in gives them nothing.
    const buyer = await signedIn("member");
    const page = await answerOf(() => queueLoader(argsFor(buyer, `/events/${slug}/queue`, { id: slug }, { cookie })));
    expect(page.data?.view).toMatchObject({ kind: "join" });
    const added = await answerOf(() =>
      detailAction(
        argsFor(buyer, `/events/${slug}`, { id: slug }, { body: { ticketTypeId: typeIds[0]!, quantity: "1" }, cookie }),
      ),
    );
    expect(added.status).toBe(400);
    expect(JSON.stringify(added.data)).toMatch(/join the queue first/);
  });

  it("ties a signed-in member's place to their account, for each role", async () => {
    const { slug, eventId } = await queuedEvent(-30);
    for (const role of TEST_ROLES) {
      const who = await signedIn(role);
      const joined = await answerOf(() =>
        queueAction(argsFor(who, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
      );
      expect(joined.status).toBe(303);
      const [place] = await database()
        .db.select()
        .from(waitingRoomEntries)
        .where(eq(waitingRoomEntries.userId, who.id));
      expect(place?.eventId).toBe(eventId);
    }
  });

  it("shows the place, the people ahead and the expected wait once sales are open", async () => {
    const { slug } = await queuedEvent(0.5, 1);
    const [member, second] = [await signedIn("member"), await signedIn("member")];
    for (const who of [member, second]) {
      const joined = await answerOf(() =>
        queueAction(argsFor(who, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
      );
      expect(joined.status).toBe(303);
    }
    const mine = await answerOf(() => queueLoader(argsFor(member, `/events/${slug}/queue`, { id: slug })));
    expect(mine.data?.view).toMatchObject({ kind: "your_turn" });
    const theirs = await answerOf(() => queueLoader(argsFor(second, `/events/${slug}/queue`, { id: slug })));
    expect(theirs.data?.view).toMatchObject({ kind: "waiting", position: 2, ahead: 1 });
  });

  it("answers 404 for a draft or unknown event, and 400 to a join where there is no queue", async () => {
    const { slug, eventId } = await queuedEvent(-30);
    await database().db.update(events).set({ status: "draft" }).where(eq(events.id, eventId));
    expect((await answerOf(() => queueLoader(argsFor(null, `/events/${slug}/queue`, { id: slug })))).status).toBe(404);
    expect((await answerOf(() => queueLoader(argsFor(null, "/events/nope/queue", { id: "nope" })))).status).toBe(404);
    const open = await queuedEvent(-30);
    await database().db.update(events).set({ queueEnabled: false }).where(eq(events.id, open.eventId));
    const refused = await answerOf(() =>
      queueAction(argsFor(null, `/events/${open.slug}/queue`, { id: open.slug }, { body: { intent: "join" } })),
    );
    expect(refused.status).toBe(400);
    expect(refused.data?.error).toMatch(/no queue/);
  });
});

describe("event page with a queue", () => {
  it("shows every visitor the same notice to join the queue", async () => {
    const { slug } = await queuedEvent(-30);
    for (const who of [null, await signedIn("member")]) {
      const page = await answerOf(() => detailLoader(argsFor(who, `/events/${slug}`, { id: slug })));
      expect(page.data?.queue).toMatchObject({ href: `/events/${slug}/queue`, opensAt: expect.any(String) });
    }
  });

  it("refuses Add to cart to anyone whose turn it is not, and takes it from a member whose turn it is", async () => {
    const { slug, typeIds } = await queuedEvent(0.5, 1);
    const add = (who: SessionUser | null, cookie?: string) =>
      answerOf(() =>
        detailAction(
          argsFor(who, `/events/${slug}`, { id: slug }, { body: { ticketTypeId: typeIds[0]!, quantity: "1" }, cookie }),
        ),
      );
    const visitor = await add(null);
    expect(visitor.status).toBe(400);
    expect(JSON.stringify(visitor.data)).toMatch(/sign in and join the queue first/);

    const member = await signedIn("member");
    await answerOf(() =>
      queueAction(argsFor(member, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    const second = await signedIn("organizer");
    await answerOf(() =>
      queueAction(argsFor(second, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    expect((await add(member)).status).toBe(302);
    const early = await add(second);
    expect(early.status).toBe(400);
    expect(JSON.stringify(early.data)).toMatch(/not your turn/);
  });
});

describe("organizer's queue settings", () => {
  it("sends a visitor to sign in and refuses a member", async () => {
    const { eventId } = await queuedEvent(-30);
    const path = `/admin/events/${eventId}/queue`;
    const visitor = await answerOf(() => adminLoader(argsFor(null, path, { eventId })));
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login/);
    const member = await signedIn("member");
    expect((await answerOf(() => adminLoader(argsFor(member, path, { eventId })))).status).toBe(403);
    const saved = await answerOf(() =>
      adminAction(
        argsFor(member, path, { eventId }, { body: { enabled: "on", ratePerMinute: "5", admissionMinutes: "5" } }),
      ),
    );
    expect(saved.status).toBe(403);
  });

  it("lets organizers and admins read and save the settings, audited; bad numbers are named", async () => {
    const { eventId } = await queuedEvent(-30);
    const path = `/admin/events/${eventId}/queue`;
    for (const [index, role] of (["organizer", "admin"] as const).entries()) {
      const who = await signedIn(role);
      const page = await answerOf(() => adminLoader(argsFor(who, path, { eventId })));
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ settings: { enabled: index === 0 }, places: 0, letThrough: 0 });
      const rate = String(30 + index);
      const saved = await answerOf(() =>
        adminAction(argsFor(who, path, { eventId }, { body: { ratePerMinute: rate, admissionMinutes: "15" } })),
      );
      expect(saved.status).toBe(302);
      const [event] = await database().db.select().from(events).where(eq(events.id, eventId));
      expect(event).toMatchObject({ queueEnabled: false, queueRatePerMinute: Number(rate), queueAdmissionMinutes: 15 });
      const bad = await answerOf(() =>
        adminAction(argsFor(who, path, { eventId }, { body: { ratePerMinute: "0", admissionMinutes: "ten" } })),
      );
      expect(bad.status).toBe(400);
      expect(bad.data?.errors).toEqual({
        ratePerMinute: "Enter at least 1",
        admissionMinutes: "Enter the minutes to buy as a whole number",
      });
    }
    const audits = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, eventId));
    expect(audits.filter((entry) => entry.action === "event.queue")).toHaveLength(2);
  });

  it("answers 404 for an address that is not an event", async () => {
    const who = await signedIn("admin");
    const eventId = "00000000-0000-4000-8000-000000000000";
    const answer = await answerOf(() => adminLoader(argsFor(who, `/admin/events/${eventId}/queue`, { eventId })));
    expect(answer.status).toBe(404);
  });
});
