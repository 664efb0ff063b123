import { and, eq, sql } from "drizzle-orm";
import { findCart } from "~/features/cart/cart.server";
import { addToCart } from "~/features/cart/cart-page.server";
import { checkoutFor, createBuyers, fillCart } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { joinFromQueuePage } from "~/features/waiting-room/join.server";
import { createQueuedEvent } from "~/features/waiting-room/queue.test-support";
import { type QueueView, queueViewFor } from "~/features/waiting-room/queue-page.server";
import { admittedThrough } from "~/features/waiting-room/queue-rules";
import { addToCartTurnProblem, admitDue, type QueueEvent } from "~/features/waiting-room/waiting-room.server";
import type { Db } from "~/server/db/client.server";
import { tickets, ticketTypes, waitingRoomEntries } from "../../db/schema";

/**
 * An on-sale through the waiting room, simulated against the real rules on two app servers'
 * connection pools and a clock the simulation moves on a minute at a time. Visitors join before
 * and after opening, reload the queue page (the same function its loader calls) on either
 * server, and when their turn comes add tickets and pay through the real cart and checkout.
 * Some walk away, some come back after their turn has ended, and some try to pay with a cart
 * filled behind the queue's back; a sweep (a scheduled job's work) runs every other minute.
 */

const MINUTE = 60_000;

export type OnSaleOptions = {
  setup: Db;
  servers: Db[];
  visitors: number;
  earlyVisitors: number;
  places: number;
  ratePerMinute: number;
  admissionMinutes: number;
  minutes: number;
  opensAt: Date;
};

type Behaviour = "buyer" | "walks_away" | "comes_back_late" | "jumper";

type Visitor = {
  index: number;
  buyer: { id: string; email: string };
  /** Comes to the queue signed out, is asked to sign in, and joins once signed in. */
  signsInToJoin: boolean;
  behaviour: Behaviour;
  joinAt: Date;
  joined: boolean;
  done: boolean;
  turnEndsAt: Date | null;
  positions: number[];
  quantity: number;
  jumperCart: string | null;
};

export type OnSaleReport = {
  visitors: number;
  earlyVisitors: number;
  places: number;
  joined: number;
  polls: number;
  admitted: number;
  admissionWrites: number;
  admittedOutOfRankOrder: number;
  admittedTwice: number;
  positionWentBack: number;
  checkoutsStarted: number;
  paidOrders: number;
  sold: number;
  tickets: number;
  oversold: number;
  paidWithoutTurn: number;
  jumperAttempts: number;
  jumperRefused: number;
  lateAttempts: number;
  lateRefused: number;
  soldOutRefusals: number;
  /** Early visitors: Spearman correlation between joining order and place (≈ 0 for a shuffle). */
  earlyOrderCorrelation: number;
  /** Early visitors: χ² (81 degrees of freedom) of join-order deciles against place deciles. */
  earlyDecileChiSquare: number;
  /** Early visitors: how many of the first 10% to join got a place in the first 10%. */
  firstTenthJoinersInFirstTenth: number;
  simulatedMinutes: number;
  wallSeconds: number;
};

function pick<T>(items: T[], index: number) {
  return items[index % items.length]!;
}

function behaviourOf(index: number): Behaviour {
  if (index % 20 === 7) return "jumper";
  const roll = index % 10;
  if (roll < 6) return "buyer";
  if (roll < 9) return "walks_away";
  return "comes_back_late";
}

export async function runOnSale(options: OnSaleOptions): Promise<OnSaleReport> {
  const started = performance.now();
  const { setup, servers, opensAt } = options;
  const at = (milliseconds: number) => new Date(opensAt.getTime() + milliseconds);
  const made = await createQueuedEvent(setup, {
    title: "Grand Prix Grandstand",
    opensAt,
    ratePerMinute: options.ratePerMinute,
    admissionMinutes: options.admissionMinutes,
    types: [{ name: "Grandstand seat", capacity: options.places, maxPerOrder: 2, price: 4500 }],
  });
  const event: QueueEvent & { opensAt: Date } = { ...made.event, opensAt };
  const typeId = made.typeIds[0]!;
  const buyers = await createBuyers(setup, options.visitors);
  const lateWindow = (options.minutes - 2) * MINUTE;
  const visitors: Visitor[] = buyers.map((buyer, index) => {
    const early = index < options.earlyVisitors;
    const lateIndex = index - options.earlyVisitors;
    return {
      index,
      buyer,
      signsInToJoin: index % 10 === 3,
      behaviour: behaviourOf(index),
      // Early visitors arrive one after another over the ten minutes before opening.
      joinAt: early
        ? at(-10 * MINUTE + Math.floor((index * 10 * MINUTE) / options.earlyVisitors))
        : at(Math.floor((lateIndex * lateWindow) / Math.max(1, options.visitors - options.earlyVisitors))),
      joined: false,
      done: false,
      turnEndsAt: null,
      positions: [],
      quantity: index % 4 === 0 ? 2 : 1,
      jumperCart: null,
    };
  });

  const counts = {
    polls: 0,
    admissionWrites: 0,
    checkoutsStarted: 0,
    paidOrders: 0,
    paidWithoutTurn: 0,
    jumperAttempts: 0,
    jumperRefused: 0,
    lateAttempts: 0,
    lateRefused: 0,
    soldOutRefusals: 0,
  };
  const admittedSeen = new Map<string, number>();

  const who = (visitor: Visitor) => ({ userId: visitor.buyer.id });

  async function join(visitor: Visitor) {
    const server = pick(servers, visitor.index);
    const ip = `10.${(visitor.index >> 8) & 255}.${visitor.index & 255}.9`;
    if (visitor.signsInToJoin) {
      const signedOut = await joinFromQueuePage(server, event, { userId: null, ip, now: visitor.joinAt });
      if (signedOut.ok || !signedOut.signIn) throw new Error("a visitor who is not signed in was not asked to sign in");
    }
    const result = await joinFromQueuePage(server, event, { userId: visitor.buyer.id, ip, now: visitor.joinAt });
    if (!result.ok) throw new Error(`join refused: ${result.signIn ? "asked to sign in" : result.message}`);
    visitor.joined = true;
  }

  /** Add to cart and pay, as the event page and the cart's Pay button would. */
  async function buy(server: Db, visitor: Visitor, now: Date) {
    const problem = await addToCartTurnProblem(server, event.id, who(visitor), now);
    if (problem) return { ok: false as const, message: problem.message };
    const owner = { userId: visitor.buyer.id };
    const added = await addToCart(server, {
      owner,
      eventId: event.id,
      ticketTypeId: typeId,
      quantity: visitor.quantity,
      now,
    });
    if (!added.ok) {
      if (/sold out|left|available/i.test(added.message)) counts.soldOutRefusals++;
      return { ok: false as const, message: added.message };
    }
    const cartId = (await findCart(server, owner))!;
    return pay(server, visitor, cartId, now);
  }

  async function pay(server: Db, visitor: Visitor, cartId: string, now: Date) {
    counts.checkoutsStarted++;
    const checkout = await startCheckout(server, checkoutFor(visitor.buyer, cartId, now));
    if (!checkout.ok) {
      if (checkout.problems.some((problem) => problem.code === "sold_out" || problem.code === "not_enough")) {
        counts.soldOutRefusals++;
      }
      return { ok: false as const, message: checkout.problems.map((problem) => problem.message).join("; ") };
    }
    const paid = await settleOrder(server, {
      orderId: checkout.order.id,
      provider: "test",
      paymentReference: `pay_${checkout.order.id}`,
      amount: checkout.order.total,
      now: new Date(now.getTime() + 1000),
    });
    if (paid.kind !== "settled") throw new Error(`payment not settled: ${paid.kind}`);
    counts.paidOrders++;
    // Paid while holding a turn: the turn was seen on the page, and had not ended.
    if (!visitor.turnEndsAt || visitor.turnEndsAt <= now) counts.paidWithoutTurn++;
    return { ok: true as const };
  }

  async function act(server: Db, visitor: Visitor, view: QueueView, now: Date) {
    if (view.kind === "waiting") {
      visitor.positions.push(view.position);
      return;
    }
    if (view.kind === "your_turn") {
      if (!visitor.turnEndsAt) {
        const turn = await turnOf(server, visitor);
        visitor.turnEndsAt = turn.endsAt;
        admittedSeen.set(visitor.buyer.id, turn.admittedAt!.getTime());
      }
      if (visitor.behaviour === "walks_away") visitor.done = true;
      if (visitor.behaviour === "buyer" || visitor.behaviour === "jumper") {
        await buy(server, visitor, now);
        visitor.done = true;
      }
      return;
    }
    if (view.kind === "turn_over") {
      if (visitor.behaviour === "comes_back_late") {
        counts.lateAttempts++;
        const late = await buy(server, visitor, now);
        if (!late.ok) counts.lateRefused++;
      }
      visitor.done = true;
    }
  }

  /** The turn as recorded in the database (the page shows it rounded to the minute). */
  async function turnOf(server: Db, visitor: Visitor) {
    const [row] = await server
      .select({ admittedAt: waitingRoomEntries.admittedAt, endsAt: waitingRoomEntries.admissionEndsAt })
      .from(waitingRoomEntries)
      .where(and(eq(waitingRoomEntries.eventId, event.id), eq(waitingRoomEntries.userId, visitor.buyer.id)));
    return row!;
  }

  async function poll(visitor: Visitor, now: Date) {
    const server = pick(servers, visitor.index + Math.floor(now.getTime() / MINUTE));
    counts.polls++;
    const view = await queueViewFor(server, event, who(visitor), now);
    await act(server, visitor, view, now);
  }

  /** A queue jumper pays for a cart filled behind the queue's back, before their turn. */
  async function jump(visitor: Visitor, now: Date) {
    const server = pick(servers, visitor.index + 1);
    // Only while the database says the turn has not come: then the payment must be refused.
    if (visitor.turnEndsAt || (await turnOf(server, visitor)).admittedAt) return;
    visitor.jumperCart ??= await fillCart(setup, visitor.buyer.id, [{ ticketTypeId: typeId, quantity: 1 }]);
    counts.jumperAttempts++;
    const result = await pay(server, visitor, visitor.jumperCart, now);
    if (!result.ok) counts.jumperRefused++;
  }

  // Before opening: the early visitors join, on either server, in their order of arrival.
  await Promise.all(visitors.filter((visitor) => visitor.joinAt < opensAt).map(join));

  for (let minute = 0; minute < options.minutes; minute++) {
    const start = at(minute * MINUTE);
    const end = at((minute + 1) * MINUTE);
    if (minute % 2 === 1) counts.admissionWrites += await admitDue(pick(servers, minute), event, start);
    await Promise.all(visitors.filter((v) => !v.joined && v.joinAt >= start && v.joinAt < end).map(join));
    const active = visitors.filter((visitor) => visitor.joined && !visitor.done);
    await Promise.all(
      active.map(async (visitor) => {
        // Somewhere in the minute, after the sweep; comes-back-late visitors wait out their turn.
        const now = new Date(start.getTime() + 1000 + ((visitor.index * 7919) % 58_000));
        if (visitor.behaviour === "jumper" && minute < 3) await jump(visitor, now);
        if (visitor.behaviour === "comes_back_late" && visitor.turnEndsAt && now < visitor.turnEndsAt) return;
        await poll(visitor, now);
      }),
    );
  }

  // What the database says, whatever the simulation believed.
  const entries = (
    (await setup.execute(sql`
      select user_id, joined_at, admitted_at, seq,
        row_number() over (order by
          case when joined_at < ${opensAt.toISOString()} then 0 else 1 end,
          case when joined_at < ${opensAt.toISOString()} then draw else 0 end, seq) as position
      from waiting_room_entries where event_id = ${event.id}`)) as unknown as {
      rows: {
        user_id: string;
        joined_at: string | Date;
        admitted_at: string | Date | null;
        seq: string;
        position: string;
      }[];
    }
  ).rows.map((row) => ({
    userId: row.user_id,
    joinedAt: new Date(row.joined_at),
    admittedAt: row.admitted_at ? new Date(row.admitted_at) : null,
    seq: Number(row.seq),
    position: Number(row.position),
  }));
  const admitted = entries.filter((entry) => entry.admittedAt);
  // A turn seen on a page and later recorded again would show a different instant now.
  const finalTurn = new Map(entries.map((entry) => [entry.userId, entry.admittedAt?.getTime()]));
  const admittedTwice = [...admittedSeen].filter(([hash, seenAt]) => finalTurn.get(hash) !== seenAt).length;
  // Writes by visitors' pages: every turn not given by a sweep was given at its own page's time.
  const sweepMinutes = new Set(
    Array.from({ length: options.minutes }, (_, minute) => minute)
      .filter((minute) => minute % 2 === 1)
      .map((minute) => at(minute * MINUTE).getTime()),
  );
  counts.admissionWrites += admitted.filter((entry) => !sweepMinutes.has(entry.admittedAt!.getTime())).length;

  const [stock] = await setup.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, typeId));
  const [issued] = await setup
    .select({ count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(eq(tickets.ticketTypeId, typeId));

  const fairness = earlyFairness(entries.filter((entry) => entry.joinedAt < opensAt));
  return {
    visitors: options.visitors,
    earlyVisitors: options.earlyVisitors,
    places: options.places,
    joined: entries.length,
    polls: counts.polls,
    admitted: admitted.length,
    admissionWrites: counts.admissionWrites,
    admittedOutOfRankOrder: admitted.filter((entry) => entry.position > admittedThrough(event, entry.admittedAt!))
      .length,
    admittedTwice,
    positionWentBack: visitors.filter((visitor) =>
      visitor.positions.some((position, index) => index > 0 && position > visitor.positions[index - 1]!),
    ).length,
    checkoutsStarted: counts.checkoutsStarted,
    paidOrders: counts.paidOrders,
    sold: stock!.sold,
    tickets: issued!.count,
    oversold: Math.max(0, stock!.sold - options.places),
    paidWithoutTurn: counts.paidWithoutTurn,
    jumperAttempts: counts.jumperAttempts,
    jumperRefused: counts.jumperRefused,
    lateAttempts: counts.lateAttempts,
    lateRefused: counts.lateRefused,
    soldOutRefusals: counts.soldOutRefusals,
    ...fairness,
    simulatedMinutes: options.minutes,
    wallSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** How the early visitors' places relate to the order they joined in. */
function earlyFairness(early: { seq: number; position: number }[]) {
  const n = early.length;
  const byJoin = [...early].sort((a, b) => a.seq - b.seq);
  // Places among the early visitors are 1..n already (they come first); join ranks are 1..n.
  let squares = 0;
  const deciles = Array.from({ length: 10 }, () => Array<number>(10).fill(0));
  byJoin.forEach((entry, index) => {
    const d = index + 1 - entry.position;
    squares += d * d;
    deciles[Math.floor((index * 10) / n)]![Math.floor(((entry.position - 1) * 10) / n)]!++;
  });
  const correlation = 1 - (6 * squares) / (n * (n * n - 1));
  let chiSquare = 0;
  for (let row = 0; row < 10; row++) {
    const rowTotal = deciles[row]!.reduce((sum, count) => sum + count, 0);
    for (let column = 0; column < 10; column++) {
      const columnTotal = deciles.reduce((sum, counts) => sum + counts[column]!, 0);
      const expected = (rowTotal * columnTotal) / n;
      chiSquare += (deciles[row]![column]! - expected) ** 2 / expected;
    }
  }
  return {
    earlyOrderCorrelation: Math.round(correlation * 10_000) / 10_000,
    earlyDecileChiSquare: Math.round(chiSquare * 100) / 100,
    firstTenthJoinersInFirstTenth: deciles[0]![0]!,
  };
}
