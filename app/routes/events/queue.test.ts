import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { createQueuedEvent } from "~/features/waiting-room/queue.test-support";
import { QUEUE_COOKIE } from "~/features/waiting-room/queue-cookie.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { auditLog, events, users, waitingRoomEntries } from "../../../db/schema";
import { action as adminAction, loader as adminLoader } from "../admin/events/queue";
import { action as detailAction, loader as detailLoader } from "./detail";
import { action as queueAction, loader as queueLoader } from "./queue";

// The queue page, the event page's queue notice and Add to cart gate, and the organizer's queue
// settings, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;
type Role = (typeof ROLES)[number];
const ENV = { TIME_ZONE: "Europe/London", CURRENCY: "GBP", SITE_URL: "http://localhost:3000", SITE_NAME: "Pitlane" };
const MINUTE = 60_000;

async function signedIn(role: Role) {
  const [account] = await createBuyers(database().db, 1);
  await database().db.update(users).set({ role }).where(eq(users.id, account!.id));
  return testSessionUser({ id: account!.id, email: account!.email, role });
}

type Who = ReturnType<typeof testSessionUser> | null;

function argsFor(
  who: Who,
  path: string,
  params: Record<string, string>,
  options: { body?: Record<string, string>; cookie?: string } = {},
) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: ENV } as unknown as Runtime);
  context.set(requestContext, { ip: `10.9.${Math.floor(Math.random() * 250)}.1`, nonce: "n", requestId: "r" });
  context.set(userContext, who);
  const url = new URL(`http://localhost:3000${path}`);
  const headers = new Headers(options.cookie ? { cookie: `${QUEUE_COOKIE}=${options.cookie}` } : {});
  const request = new Request(url, {
    method: options.body ? "POST" : "GET",
    body: options.body ? new URLSearchParams(options.body) : undefined,
    headers,
  });
  return { request, url, params, context, unstable_pattern: path } as never;
}

type Answer = { status: number; location?: string | null; headers?: Headers; data?: Record<string, unknown> };

async function answerOf(call: () => unknown): Promise<Answer> {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number; headers?: HeadersInit } };
    if (answer instanceof Response) {
      return { status: answer.status, location: answer.headers.get("Location"), headers: answer.headers };
    }
    if (answer && typeof answer === "object" && "init" in answer && "data" in answer) {
      return {
        status: answer.init?.status ?? 200,
        headers: new Headers(answer.init?.headers),
        data: answer.data as Record<string, unknown>,
      };
    }
    return { status: 200, data: answer as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) {
      return { status: thrown.status, location: thrown.headers.get("Location"), headers: thrown.headers };
    }
    const init = (thrown as { init?: { status?: number } } | null)?.init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
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
  return new RegExp(`${QUEUE_COOKIE}=([A-Za-z0-9_-]{43})`).exec(header)?.[1] ?? null;
}

describe("queue page", () => {
  it("offers every visitor and role a place, privately, before sales open", async () => {
    const { slug } = await queuedEvent(-30);
    for (const who of [null, ...(await Promise.all(ROLES.map(signedIn)))]) {
      const answer = await answerOf(() => queueLoader(argsFor(who, `/events/${slug}/queue`, { id: slug })));
      expect(answer.status).toBe(200);
      expect(answer.headers?.get("Cache-Control")).toBe("private, no-store");
      expect(answer.data?.view).toMatchObject({ kind: "join" });
    }
  });

  it("gives a visitor a place kept by an HttpOnly cookie, and shows it at every reload", async () => {
    const { slug } = await queuedEvent(-30);
    const joined = await answerOf(() =>
      queueAction(argsFor(null, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(`/events/${slug}/queue`);
    expect(joined.headers?.get("Set-Cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    const token = cookieOf(joined);
    expect(token).not.toBeNull();
    const page = await answerOf(() =>
      queueLoader(argsFor(null, `/events/${slug}/queue`, { id: slug }, { cookie: token! })),
    );
    expect(page.data?.view).toMatchObject({ kind: "before_opening", waiting: 1 });
    // Joining again with the same cookie keeps the one place.
    await answerOf(() =>
      queueAction(argsFor(null, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" }, cookie: token! })),
    );
    const again = await answerOf(() =>
      queueLoader(argsFor(null, `/events/${slug}/queue`, { id: slug }, { cookie: token! })),
    );
    expect(again.data?.view).toMatchObject({ kind: "before_opening", waiting: 1 });
  });

  it("ties a signed-in member's place to their account, for each role", async () => {
    const { slug, eventId } = await queuedEvent(-30);
    for (const role of ROLES) {
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
    const member = await signedIn("member");
    const first = await answerOf(() =>
      queueAction(argsFor(member, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    expect(first.status).toBe(303);
    const second = await answerOf(() =>
      queueAction(argsFor(null, `/events/${slug}/queue`, { id: slug }, { body: { intent: "join" } })),
    );
    const mine = await answerOf(() => queueLoader(argsFor(member, `/events/${slug}/queue`, { id: slug })));
    expect(mine.data?.view).toMatchObject({ kind: "your_turn", signedIn: true });
    const theirs = await answerOf(() =>
      queueLoader(argsFor(null, `/events/${slug}/queue`, { id: slug }, { cookie: cookieOf(second)! })),
    );
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
    const add = (who: Who, cookie?: string) =>
      answerOf(() =>
        detailAction(
          argsFor(who, `/events/${slug}`, { id: slug }, { body: { ticketTypeId: typeIds[0]!, quantity: "1" }, cookie }),
        ),
      );
    const visitor = await add(null);
    expect(visitor.status).toBe(400);
    expect(JSON.stringify(visitor.data)).toMatch(/join the queue first/);

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
