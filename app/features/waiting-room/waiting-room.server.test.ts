import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, fillCart } from "~/features/checkout/stock.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { events, waitingRoomEntries } from "../../../db/schema";
import { joinFromQueuePage, QUEUE_JOIN_BY_IP } from "./join.server";
import { createQueuedEvent, testToken } from "./queue.test-support";
import { queueViewFor } from "./queue-page.server";
import {
  addToCartTurnProblem,
  admitDue,
  findPlace,
  joinQueue,
  placesAhead,
  queueEventOf,
  takeTurnIfDue,
} from "./waiting-room.server";

const database = freshDatabasePerFile();
const OPENS = new Date("2027-05-01T10:00:00Z");
const at = (seconds: number) => new Date(OPENS.getTime() + seconds * 1000);
const visitor = (token = testToken()) => ({ userId: null, token });

async function queued(ratePerMinute = 2, admissionMinutes = 20) {
  return createQueuedEvent(database().db, {
    opensAt: OPENS,
    ratePerMinute,
    admissionMinutes,
    types: [{ name: "Paddock pass", capacity: 50 }],
  });
}

async function join(event: Awaited<ReturnType<typeof queued>>["event"], now: Date, draw?: number, userId?: string) {
  const token = testToken();
  const { entry } = await joinQueue(database().db, event, {
    visitor: { userId: userId ?? null, token },
    newToken: token,
    now,
    draw,
  });
  return { entry, token };
}

describe("waiting room", () => {
  it("puts those there before opening in the order of their draw, then later arrivals in arrival order", async () => {
    const { db } = database();
    const { event } = await queued();
    const early = [await join(event, at(-300), 30), await join(event, at(-200), 10), await join(event, at(-100), 20)];
    const late = [await join(event, at(5), 1), await join(event, at(6), 0)];
    const positions = await Promise.all([...early, ...late].map(({ entry }) => placesAhead(db, event, entry)));
    // Draws 30, 10, 20 → places 3, 1, 2; the late ones follow by arrival, whatever they drew.
    expect(positions).toEqual([2, 0, 1, 3, 4]);
  });

  it("gives one place per visitor and per member, and ties a visitor's place to their account when they sign in", async () => {
    const { db } = database();
    const { event } = await queued();
    const [member] = await createBuyers(db, 1);
    const { entry, token } = await join(event, at(-60));
    const again = await joinQueue(db, event, { visitor: visitor(token), newToken: testToken(), now: at(-30) });
    expect(again).toEqual({ entry, joined: false });

    const claimed = await findPlace(db, event.id, { userId: member!.id, token });
    expect(claimed?.id).toBe(entry.id);
    expect(claimed?.userId).toBe(member!.id);
    // From another browser, signed in: the same place, not a second one.
    const elsewhere = await joinQueue(db, event, {
      visitor: { userId: member!.id, token: null },
      newToken: testToken(),
      now: at(-10),
    });
    expect(elsewhere.joined).toBe(false);
    expect(elsewhere.entry.id).toBe(entry.id);
  });

  it("keeps a member's own place when they sign in with another place's cookie", async () => {
    const { db } = database();
    const { event } = await queued();
    const [member] = await createBuyers(db, 1);
    const own = await join(event, at(-60), undefined, member!.id);
    const other = await join(event, at(-50));
    const found = await findPlace(db, event.id, { userId: member!.id, token: other.token });
    expect(found?.id).toBe(own.entry.id);
    const [untouched] = await db.select().from(waitingRoomEntries).where(eq(waitingRoomEntries.id, other.entry.id));
    expect(untouched?.userId).toBeNull();
  });

  it("gives a turn only once its position is reached, and only once", async () => {
    const { db } = database();
    const { event } = await queued(2, 20);
    const places = [await join(event, at(-30), 1), await join(event, at(-20), 2), await join(event, at(-10), 3)];
    expect((await takeTurnIfDue(db, event, places[0]!.entry, at(-1))).admittedAt).toBeNull();
    const first = await takeTurnIfDue(db, event, places[0]!.entry, at(0));
    expect(first.admittedAt).toEqual(at(0));
    expect(first.admissionEndsAt).toEqual(at(20 * 60));
    // Third in line with two let through a minute: not before the second minute.
    expect((await takeTurnIfDue(db, event, places[2]!.entry, at(59))).admittedAt).toBeNull();
    expect((await takeTurnIfDue(db, event, places[2]!.entry, at(60))).admittedAt).toEqual(at(60));
    // Asked again later, the first turn is the one already given.
    const later = await takeTurnIfDue(db, event, { ...places[0]!.entry }, at(120));
    expect(later.admittedAt).toEqual(at(0));
  });

  it("lets the sweep through exactly the positions reached, once", async () => {
    const { db } = database();
    const { event } = await queued(2);
    for (let index = 0; index < 5; index++) await join(event, at(-100 + index));
    expect(await admitDue(db, event, at(-1))).toBe(0);
    expect(await admitDue(db, event, at(0))).toBe(2);
    expect(await admitDue(db, event, at(30))).toBe(0);
    expect(await admitDue(db, event, at(61))).toBe(2);
    expect(await admitDue(db, event, at(200))).toBe(1);
  });

  it("counts a join whose clock is behind, after someone was let through, as after opening", async () => {
    const { db } = database();
    const { event } = await queued(1);
    const front = await join(event, at(-60), 100);
    await admitDue(db, event, at(0));
    const slow = await join(event, at(-5), 0);
    expect(slow.entry.joinedAt).toEqual(OPENS);
    expect(await placesAhead(db, event, slow.entry)).toBe(1);
    expect(await placesAhead(db, event, front.entry)).toBe(0);
  });

  it("shows the visitor their place, the people ahead and the expected wait", async () => {
    const { db } = database();
    const { event } = await queued(2);
    for (let index = 0; index < 4; index++) await join(event, at(-100 + index), index);
    const mine = await join(event, at(10));
    expect(await queueViewFor(db, event, visitor(), at(-5))).toMatchObject({ kind: "join", waiting: 5 });
    expect(await queueViewFor(db, event, visitor(mine.token), at(-5))).toMatchObject({
      kind: "before_opening",
      waiting: 5,
    });
    expect(await queueViewFor(db, event, visitor(mine.token), at(10))).toMatchObject({
      kind: "waiting",
      position: 5,
      ahead: 4,
      expectedWait: "about 2 minutes",
    });
    expect(await queueViewFor(db, event, visitor(mine.token), at(125))).toMatchObject({
      kind: "your_turn",
      signedIn: false,
    });
    expect(await queueViewFor(db, event, visitor(mine.token), at(125 + 20 * 60))).toMatchObject({
      kind: "turn_over",
    });
  });

  it("shows no queue for an event without one", async () => {
    const { db } = database();
    const { event } = await queued();
    await db.update(events).set({ queueEnabled: false }).where(eq(events.id, event.id));
    const off = (await queueEventOf(db, event.id))!;
    expect(await queueViewFor(db, off, visitor(), at(0))).toEqual({ kind: "no_queue" });
  });

  it("lets only a signed-in member whose turn it is add the event's tickets", async () => {
    const { db } = database();
    const { event } = await queued(1, 10);
    const [member, other] = await createBuyers(db, 2);
    const mine = await join(event, at(-60), 1);
    await join(event, at(-50), 2, other!.id);

    const problem = (who: { userId: string | null; token: string | null }, now: Date) =>
      addToCartTurnProblem(db, event.id, who, now).then((answer) => answer?.message ?? null);
    expect(await problem(visitor(), at(0))).toMatch(/join the queue first/);
    expect(await problem(visitor(mine.token), at(-1))).toMatch(/not your turn/);
    expect(await problem(visitor(mine.token), at(0))).toMatch(/sign in to buy/);
    expect(await problem({ userId: member!.id, token: mine.token }, at(1))).toBeNull();
    expect(await problem({ userId: other!.id, token: null }, at(30))).toMatch(/not your turn/);
    expect(await problem({ userId: member!.id, token: null }, at(10 * 60))).toMatch(/has ended/);
  });

  it("refuses checkout of a queued event's tickets without a turn, and takes it with one", async () => {
    const { db } = database();
    const { event, typeIds } = await queued(1, 10);
    const [member, other] = await createBuyers(db, 2);
    const mine = await join(event, at(-60), 1, member!.id);
    await join(event, at(-50), 2, other!.id);
    await takeTurnIfDue(db, event, mine.entry, at(0));

    const otherCart = await fillCart(db, other!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    const refused = await startCheckout(db, checkoutFor(other!, otherCart, at(5)));
    expect(refused).toMatchObject({ ok: false, problems: [{ code: "not_yet", ticketTypeId: typeIds[0] }] });

    const myCart = await fillCart(db, member!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    expect((await startCheckout(db, checkoutFor(member!, myCart, at(5)))).ok).toBe(true);
    const late = await startCheckout(db, checkoutFor(member!, myCart, at(11 * 60)));
    expect(late).toMatchObject({ ok: false, problems: [{ message: expect.stringMatching(/has ended/) }] });
  });

  it("limits joins from one network, and refuses a join where there is no queue", async () => {
    const { db } = database();
    const { event } = await queued();
    const input = (ip: string) => ({ visitor: { userId: null, token: null }, newToken: testToken(), ip, now: at(-60) });
    for (let index = 0; index < QUEUE_JOIN_BY_IP.max; index++) {
      expect(await joinFromQueuePage(db, event, input("192.0.2.7"))).toEqual({ ok: true, joined: true });
    }
    expect(await joinFromQueuePage(db, event, input("192.0.2.7"))).toMatchObject({ ok: false, status: 429 });
    expect(await joinFromQueuePage(db, event, input("192.0.2.8"))).toMatchObject({ ok: true });
    const off = { ...event, enabled: false };
    expect(await joinFromQueuePage(db, off, input("192.0.2.9"))).toMatchObject({ ok: false, status: 400 });
  });
});
