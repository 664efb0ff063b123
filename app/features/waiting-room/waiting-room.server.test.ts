import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, fillCart } from "~/features/checkout/stock.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { events, waitingRoomEntries } from "../../../db/schema";
import { joinFromQueuePage, QUEUE_JOIN_BY_IP } from "./join.server";
import { createQueuedEvent } from "./queue.test-support";
import { queueViewFor } from "./queue-page.server";
import {
  addToCartTurnProblem,
  admitDue,
  findPlace,
  joinQueue,
  placesAhead,
  QUEUE_PLACES_PER_NETWORK,
  queueEventOf,
  takeTurnIfDue,
} from "./waiting-room.server";

const database = freshDatabasePerFile();
const OPENS = new Date("2027-05-01T10:00:00Z");
const at = (seconds: number) => new Date(OPENS.getTime() + seconds * 1000);
const NOBODY = { userId: null };

async function queued(ratePerMinute = 2, admissionMinutes = 20) {
  return createQueuedEvent(database().db, {
    opensAt: OPENS,
    ratePerMinute,
    admissionMinutes,
    types: [{ name: "Paddock pass", capacity: 50 }],
  });
}

let networks = 0;

/** A member (a new one unless given) takes a place from a network of their own. */
async function join(event: Awaited<ReturnType<typeof queued>>["event"], now: Date, draw?: number, userId?: string) {
  const owner = userId ?? (await createBuyers(database().db, 1))[0]!.id;
  const outcome = await joinQueue(database().db, event, { userId: owner, network: `10.1.${++networks}.1`, now, draw });
  if (!outcome.entry) throw new Error("The test network is full");
  return { entry: outcome.entry, userId: owner };
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

  it("gives one place per member, whatever device or network they join from", async () => {
    const { db } = database();
    const { event } = await queued();
    const { entry, userId } = await join(event, at(-60));
    const again = await joinQueue(db, event, { userId, network: "203.0.113.9", now: at(-30) });
    expect(again).toEqual({ entry, joined: false });
    expect((await findPlace(db, event.id, { userId }))?.id).toBe(entry.id);
    expect(await findPlace(db, event.id, NOBODY)).toBeNull();
  });

  it("caps the places one network holds in one event's queue, even when joins race", async () => {
    const { db } = database();
    const { event } = await queued();
    const other = await queued();
    const members = await createBuyers(db, QUEUE_PLACES_PER_NETWORK + 5);
    const outcomes = await Promise.all(
      members.map((member) => joinQueue(db, event, { userId: member.id, network: "192.0.2.44", now: at(-60) })),
    );
    expect(outcomes.filter((outcome) => outcome.entry !== null)).toHaveLength(QUEUE_PLACES_PER_NETWORK);
    expect(outcomes.filter((outcome) => outcome.entry === null)).toHaveLength(5);
    // The cap is per event: the same network joins another event's queue.
    const elsewhere = await joinQueue(db, other.event, { userId: members[0]!.id, network: "192.0.2.44", now: at(-60) });
    expect(elsewhere.entry).not.toBeNull();
  });

  it("keeps no trace of the network but a hash that differs between events", async () => {
    const { db } = database();
    const { event } = await queued();
    const other = await queued();
    const [member] = await createBuyers(db, 1);
    await joinQueue(db, event, { userId: member!.id, network: "192.0.2.45", now: at(-60) });
    await joinQueue(db, other.event, { userId: member!.id, network: "192.0.2.45", now: at(-60) });
    const rows = await db.select().from(waitingRoomEntries).where(eq(waitingRoomEntries.userId, member!.id));
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain("192.0.2.45");
    expect(rows[0]!.networkHash).not.toBe(rows[1]!.networkHash);
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
    const me = { userId: mine.userId };
    expect(await queueViewFor(db, event, NOBODY, at(-5))).toMatchObject({ kind: "join", waiting: 5, signedIn: false });
    expect(await queueViewFor(db, event, me, at(-5))).toMatchObject({
      kind: "before_opening",
      waiting: 5,
    });
    expect(await queueViewFor(db, event, me, at(10))).toMatchObject({
      kind: "waiting",
      position: 5,
      ahead: 4,
      expectedWait: "about 2 minutes",
    });
    expect(await queueViewFor(db, event, me, at(125))).toMatchObject({ kind: "your_turn" });
    expect(await queueViewFor(db, event, me, at(125 + 20 * 60))).toMatchObject({
      kind: "turn_over",
    });
  });

  it("shows no queue for an event without one", async () => {
    const { db } = database();
    const { event } = await queued();
    await db.update(events).set({ queueEnabled: false }).where(eq(events.id, event.id));
    const off = (await queueEventOf(db, event.id))!;
    expect(await queueViewFor(db, off, NOBODY, at(0))).toEqual({ kind: "no_queue" });
  });

  it("lets only a signed-in member whose turn it is add the event's tickets", async () => {
    const { db } = database();
    const { event } = await queued(1, 10);
    const [member, other] = await createBuyers(db, 2);
    const [stranger] = await createBuyers(db, 1);
    await join(event, at(-60), 1, member!.id);
    await join(event, at(-50), 2, other!.id);

    const problem = (userId: string | null, now: Date) =>
      addToCartTurnProblem(db, event.id, { userId }, now).then((answer) => answer?.message ?? null);
    expect(await problem(null, at(0))).toMatch(/sign in and join the queue first/);
    expect(await problem(stranger!.id, at(0))).toMatch(/join the queue first/);
    expect(await problem(member!.id, at(-1))).toMatch(/not your turn/);
    expect(await problem(member!.id, at(1))).toBeNull();
    expect(await problem(other!.id, at(30))).toMatch(/not your turn/);
    expect(await problem(member!.id, at(11 * 60))).toMatch(/has ended/);
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

  it("asks a visitor to sign in, limits join attempts from one network, and refuses a join where there is no queue", async () => {
    const { db } = database();
    const { event } = await queued();
    expect(await joinFromQueuePage(db, event, { userId: null, ip: "192.0.2.6", now: at(-60) })).toEqual({
      ok: false,
      signIn: true,
    });
    const members = await createBuyers(db, QUEUE_JOIN_BY_IP.max + 2);
    const input = (index: number, ip: string) => ({ userId: members[index]!.id, ip, now: at(-60) });
    // Attempts are counted even when a member already holds a place, so the button cannot be hammered.
    for (let index = 0; index < QUEUE_JOIN_BY_IP.max; index++) {
      const answer = await joinFromQueuePage(db, event, input(index % 3, "192.0.2.7"));
      expect(answer).toMatchObject({ ok: true });
    }
    expect(await joinFromQueuePage(db, event, input(3, "192.0.2.7"))).toMatchObject({ ok: false, status: 429 });
    expect(await joinFromQueuePage(db, event, input(4, "192.0.2.8"))).toMatchObject({ ok: true, joined: true });
    const off = { ...event, enabled: false };
    expect(await joinFromQueuePage(db, off, input(5, "192.0.2.9"))).toMatchObject({ ok: false, status: 400 });
  });
});
