import { eq, type Query } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import type { Db } from "~/server/db/client.server";
import { statementsSent } from "~/server/db/statements-sent.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { stripeGateway } from "~/server/payments/stripe.server";
import { orders, paymentEvents } from "../../../db/schema";
import {
  handlePaymentNotification,
  PAYMENT_EVENTS_CHANNEL,
  rememberProcessedPaymentEvent,
} from "./payment-notifications.server";
import { PAYMENT_FAILED_REASON } from "./payment-state.server";
import { at, buyPlaces, ledgerCounts, orderState, pendingOrder, soldOf } from "./payments.test-support";

const database = freshDatabasePerFile();
const SECRET = "whsec_test_secret_for_signed_payloads";

// The real Stripe adapter, with a client that cannot reach the network: signatures are checked
// offline, and any API call would fail the test.
const offline = new Stripe("sk_test_offline", {
  httpClient: Stripe.createFetchHttpClient(() => Promise.reject(new Error("no network in tests"))),
  maxNetworkRetries: 0,
});
const gateway = stripeGateway({ secretKey: "sk_test_offline", webhookSecret: SECRET, client: offline });

let eventCount = 0;

type SessionFields = {
  orderId: string | null;
  sessionId: string;
  amount: number;
  paymentStatus?: "paid" | "unpaid" | "no_payment_required";
  status?: "open" | "complete" | "expired";
  paymentIntent?: string | null;
};

/** A Checkout Session event as Stripe sends it (the fields this site reads, and the envelope). */
function sessionEvent(type: string, fields: SessionFields, id = `evt_test_${++eventCount}`) {
  return JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: fields.sessionId,
        object: "checkout.session",
        mode: "payment",
        client_reference_id: fields.orderId,
        metadata: fields.orderId ? { orderId: fields.orderId } : {},
        amount_total: fields.amount,
        currency: "gbp",
        payment_status: fields.paymentStatus ?? "paid",
        status: fields.status ?? "complete",
        payment_intent: fields.paymentIntent === undefined ? `pi_for_${fields.sessionId}` : fields.paymentIntent,
        url: null,
      },
    },
  });
}

/** The notification that the Checkout Session `sessionId` paid `order` in full. */
function paidSessionEvent(order: { id: string; total: number }, sessionId: string, eventId: string) {
  return sessionEvent("checkout.session.completed", { orderId: order.id, sessionId, amount: order.total }, eventId);
}

/** Another server received the event at `receivedAt` and has not finished handling it. */
async function claimedElsewhere(db: Db, eventId: string, receivedAt: Date) {
  await db
    .insert(paymentEvents)
    .values({ provider: "stripe", eventId, type: "checkout.session.completed", receivedAt });
}

function deliver(payload: string, now = at(5), secret = SECRET) {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return handlePaymentNotification(database().db, gateway, { rawBody: payload, signature, now });
}

function shuffled<T>(items: T[]) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * `db`, with the connection lost when the statement that pays an order is sent: every other
 * statement goes through.
 */
function losingConnectionOnPayment(db: Db): Db {
  const session = db._.session;
  const prepareQuery = session.prepareQuery.bind(session) as (query: Query, ...rest: unknown[]) => unknown;
  const losing = new Proxy(session, {
    get: (target, property) =>
      property === "prepareQuery"
        ? (query: Query, ...rest: unknown[]) =>
            query.sql.endsWith("select id from paid")
              ? { execute: () => Promise.reject(new Error("connection lost")) }
              : prepareQuery(query, ...rest)
        : Reflect.get(target, property),
  });
  return new Proxy(db, {
    get: (target, property) => (property === "_" ? { ...target._, session: losing } : Reflect.get(target, property)),
  });
}

describe("the Stripe webhook", () => {
  it("refuses a notification whose signature does not verify, and writes nothing", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = sessionEvent("checkout.session.completed", {
      orderId: order.id,
      sessionId: "cs_forged",
      amount: order.total,
    });
    const before = await ledgerCounts(db);

    expect(await deliver(payload, at(5), "whsec_someone_else")).toMatchObject({ kind: "refused" });
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const altered = payload.replace(`"amount_total":${order.total}`, '"amount_total":1');
    expect(
      await handlePaymentNotification(db, gateway, { rawBody: altered, signature: tampered, now: at(5) }),
    ).toMatchObject({ kind: "refused" });
    expect(
      await handlePaymentNotification(db, gateway, { rawBody: payload, signature: null, now: at(5) }),
    ).toMatchObject({ kind: "refused" });

    expect(await ledgerCounts(db)).toEqual(before);
    expect((await orderState(db, order.id)).status).toBe("pending");
  });

  it("settles once however often and in whatever order Stripe reports the payment", async () => {
    const { db } = database();
    const { order, ticketTypeId, quantity } = await pendingOrder(db, { provider: "stripe", quantity: 3 });
    const session = { orderId: order.id, sessionId: "cs_replayed", amount: order.total };
    const completed = sessionEvent("checkout.session.completed", session, "evt_completed");
    const succeeded = sessionEvent("checkout.session.async_payment_succeeded", session, "evt_async_succeeded");
    const deliveries = shuffled([completed, completed, completed, completed, completed, succeeded]);

    const results = [];
    for (const payload of deliveries) results.push(await deliver(payload));

    const settled = results.filter(
      (result) =>
        result.kind === "handled" &&
        result.outcome.kind === "settlement" &&
        result.outcome.settlement.kind === "settled",
    );
    expect(settled).toHaveLength(1);
    expect(results.filter((result) => result.kind === "duplicate")).toHaveLength(4);
    // Only the settlement that paid the order asks for its follow-ups (the confirmation email).
    expect(results.flatMap((result) => (result.kind === "handled" ? result.followUps.settledOrderIds : []))).toEqual([
      order.id,
    ]);
    const state = await orderState(db, order.id);
    expect(state).toMatchObject({ status: "paid", paymentId: "pi_for_cs_replayed", tickets: quantity });
    expect(state.ledger).toEqual([
      { kind: "charge", status: "succeeded", amount: order.total, reference: "pi_for_cs_replayed" },
    ]);
    expect(await soldOf(db, ticketTypeId)).toBe(quantity);
    const recorded = await db
      .select({ id: paymentEvents.eventId, processed: paymentEvents.processedAt })
      .from(paymentEvents)
      .where(eq(paymentEvents.provider, "stripe"));
    expect(recorded.filter((event) => event.id.startsWith("evt_")).every((event) => event.processed)).toBe(true);
  });

  it("settles once when the same event is delivered several times at the same moment", async () => {
    const { db } = database();
    const { order, quantity } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_concurrent", "evt_concurrent");
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    // One delivery does the work; the others wait for it and are answered as duplicates.
    expect(results.map((result) => result.kind).sort()).toEqual([
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
      "handled",
    ]);
    const state = await orderState(db, order.id);
    expect(state).toMatchObject({ status: "paid", tickets: quantity });
    expect(state.ledger).toHaveLength(1);
  });

  it("answers a repeat of an event it handled from memory, without a query", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_remembered", "evt_remembered");
    expect(await deliver(payload)).toMatchObject({
      kind: "handled",
      outcome: { kind: "settlement", settlement: { kind: "settled" } },
    });
    // Marked processed by the statement that paid the order.
    expect(
      await db
        .select({ processedAt: paymentEvents.processedAt })
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, "evt_remembered")),
    ).toEqual([{ processedAt: at(5) }]);
    // With its record gone, only this process's memory can tell the repeat is one: asking the
    // database would record the event again.
    const forget = () => db.delete(paymentEvents).where(eq(paymentEvents.eventId, "evt_remembered"));
    await forget();
    expect(await deliver(payload)).toEqual({ kind: "duplicate", eventId: "evt_remembered" });
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, "evt_remembered"))).toEqual([]);
    // Another database (another site, a restored copy) has a memory of its own.
    const other = new Proxy(db, {});
    expect(
      await handlePaymentNotification(other, gateway, {
        rawBody: payload,
        signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
        now: at(5),
      }),
    ).toMatchObject({ kind: "handled" });
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, "evt_remembered"))).toHaveLength(1);
  });

  it("pays an order of held tickets in two statements: the claim, which reads the order, and the payment", async () => {
    const { db } = database();
    const { order, quantity } = await pendingOrder(db, { provider: "stripe", quantity: 2 });
    const { result, statements } = await statementsSent(database(), () =>
      deliver(paidSessionEvent(order, "cs_two_statements", "evt_two_statements")),
    );
    expect(result).toMatchObject({
      kind: "handled",
      outcome: { settlement: { kind: "settled", issued: { ticket: quantity } } },
    });
    expect(statements).toHaveLength(2);
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: quantity });

    // A claim that lapsed is taken over: the order read with it is paid already, so nothing is paid again.
    await db
      .update(paymentEvents)
      .set({ processedAt: null, receivedAt: at(0) })
      .where(eq(paymentEvents.eventId, "evt_two_statements"));
    const replay = await handlePaymentNotification(new Proxy(db, {}), gateway, {
      rawBody: paidSessionEvent(order, "cs_two_statements", "evt_two_statements"),
      signature: Stripe.webhooks.generateTestHeaderString({
        payload: paidSessionEvent(order, "cs_two_statements", "evt_two_statements"),
        secret: SECRET,
      }),
      now: at(5),
    });
    expect(replay).toMatchObject({ kind: "handled", outcome: { settlement: { kind: "already_settled" } } });
    expect((await orderState(db, order.id)).ledger).toHaveLength(1);
  });

  it("fails the deliveries that waited for one that failed, so Stripe sends the event again", async () => {
    const { db } = database();
    const { order, quantity } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_in_flight", "evt_in_flight");
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    // A database that goes away under the first delivery.
    const lost = losingConnectionOnPayment(db);
    const first = handlePaymentNotification(lost, gateway, { rawBody: payload, signature, now: at(5) });
    const second = handlePaymentNotification(db, gateway, { rawBody: payload, signature, now: at(5) });
    await expect(first).rejects.toThrow("connection lost");
    await expect(second).rejects.toThrow("connection lost");
    expect(await orderState(db, order.id)).toMatchObject({ status: "pending", tickets: 0 });

    // Stripe's next attempt is handled in full.
    expect(await deliver(payload)).toMatchObject({ kind: "handled" });
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: quantity });
  });

  it("waits for a delivery another server is handling, and answers it as a duplicate without doing the work again", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_elsewhere", "evt_elsewhere");
    // Another server received the event a moment ago and is settling it.
    await claimedElsewhere(db, "evt_elsewhere", at(5));
    const waiting = deliver(payload, at(5));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await db
      .update(paymentEvents)
      .set({ processedAt: at(5) })
      .where(eq(paymentEvents.eventId, "evt_elsewhere"));
    expect(await waiting).toEqual({ kind: "duplicate", eventId: "evt_elsewhere" });
    // Settling was the other server's to do: this delivery did none of it.
    expect(await orderState(db, order.id)).toMatchObject({ status: "pending", tickets: 0 });

    // A claim left by a server that died is taken over once it lapses.
    const orphan = paidSessionEvent(order, "cs_elsewhere", "evt_orphaned");
    await claimedElsewhere(db, "evt_orphaned", at(4));
    expect(await deliver(orphan, at(5))).toMatchObject({ kind: "handled" });
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid" });
  });

  it("tells every server when an event has been handled to the end, once", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_told", "evt_told");
    const heard: string[] = [];
    const stop = await database().listen(PAYMENT_EVENTS_CHANNEL, (notice) => void (notice && heard.push(notice)));
    try {
      expect(await deliver(payload)).toMatchObject({ kind: "handled" });
      await expect.poll(() => heard).toEqual(["stripe:evt_told"]);
      // Marking it processed again (a later statement) says nothing more.
      await db
        .update(paymentEvents)
        .set({ processedAt: at(6) })
        .where(eq(paymentEvents.eventId, "evt_told"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual(["stripe:evt_told"]);
    } finally {
      await stop();
    }
  });

  it("answers a repeat of an event another server handled, once told, without a query", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_other", "evt_other");
    rememberProcessedPaymentEvent(db, "stripe:evt_other");
    expect(await deliver(payload)).toEqual({ kind: "duplicate", eventId: "evt_other" });
    // Nothing was asked or written: the event is not even recorded here.
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, "evt_other"))).toEqual([]);
    expect(await orderState(db, order.id)).toMatchObject({ status: "pending", tickets: 0 });
    // A notice that names no event is ignored.
    rememberProcessedPaymentEvent(db, "nonsense");
  });

  it("stops waiting for another server's delivery as soon as it is told that one has finished", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_waiting", "evt_waiting");
    await claimedElsewhere(db, "evt_waiting", at(5));
    const waiting = deliver(payload, at(5));
    await new Promise((resolve) => setTimeout(resolve, 60));
    // The notice arrives before this delivery's next look at the database would.
    rememberProcessedPaymentEvent(db, "stripe:evt_waiting");
    expect(await waiting).toEqual({ kind: "duplicate", eventId: "evt_waiting" });
    expect(await orderState(db, order.id)).toMatchObject({ status: "pending", tickets: 0 });
  });

  it("gives the event up when handling fails part-way, so the next delivery handles it at once", async () => {
    const { db } = database();
    const { order, quantity } = await pendingOrder(db, { provider: "stripe" });
    const payload = paidSessionEvent(order, "cs_part_way", "evt_part_way");
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    // The event is claimed, then the connection is lost when the settlement's statement is sent.
    const failing = losingConnectionOnPayment(db);
    await expect(
      handlePaymentNotification(failing, gateway, { rawBody: payload, signature, now: at(5) }),
    ).rejects.toThrow("connection lost");
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, "evt_part_way"))).toEqual([]);

    const started = performance.now();
    expect(await deliver(payload, at(5))).toMatchObject({ kind: "handled" });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: quantity });
  });

  it("waits for a bank payment, then settles it when Stripe says it arrived", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const session = { orderId: order.id, sessionId: "cs_bank", amount: order.total };

    const completed = await deliver(
      sessionEvent("checkout.session.completed", { ...session, paymentStatus: "unpaid" }),
    );
    expect(completed).toMatchObject({ kind: "handled", outcome: { kind: "unchanged" } });
    expect((await orderState(db, order.id)).status).toBe("pending");

    const succeeded = await deliver(sessionEvent("checkout.session.async_payment_succeeded", session), at(10));
    expect(succeeded).toMatchObject({ kind: "handled", outcome: { settlement: { kind: "settled" } } });
    expect((await orderState(db, order.id)).status).toBe("paid");
  });

  it("cancels the order and frees its places when a bank payment fails", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const session = {
      orderId: order.id,
      sessionId: "cs_bounced",
      amount: order.total,
      paymentStatus: "unpaid" as const,
    };
    await deliver(sessionEvent("checkout.session.completed", session));
    const failed = await deliver(sessionEvent("checkout.session.async_payment_failed", session));
    expect(failed).toMatchObject({ kind: "handled", outcome: { kind: "cancelled" } });
    expect(await orderState(db, order.id)).toMatchObject({
      status: "cancelled",
      failureReason: PAYMENT_FAILED_REASON,
      holds: ["released"],
      tickets: 0,
      ledger: [],
    });
  });

  it("expires the order and frees its places when the payment page times out", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    const expired = await deliver(
      sessionEvent("checkout.session.expired", {
        orderId: order.id,
        sessionId: "cs_timed_out",
        amount: order.total,
        status: "expired",
        paymentStatus: "unpaid",
        paymentIntent: null,
      }),
    );
    expect(expired).toMatchObject({ kind: "handled", outcome: { kind: "expired" } });
    expect(await orderState(db, order.id)).toMatchObject({
      status: "expired",
      failureReason: HOLD_EXPIRED_REASON,
      holds: ["released"],
    });
  });

  it("leaves the order alone when a session it does not use closes", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    await db.update(orders).set({ providerSessionId: "cs_in_use" }).where(eq(orders.id, order.id));
    const leftOver = { orderId: order.id, sessionId: "cs_left_over", amount: order.total, status: "expired" as const };
    expect(await deliver(sessionEvent("checkout.session.expired", leftOver))).toMatchObject({
      kind: "handled",
      outcome: { kind: "unchanged" },
    });
    expect(await deliver(sessionEvent("checkout.session.async_payment_failed", leftOver))).toMatchObject({
      outcome: { kind: "unchanged" },
    });
    expect(await orderState(db, order.id)).toMatchObject({ status: "pending", holds: ["active"] });
  });

  it("never lets a late expiry or failure undo a paid order", async () => {
    const { db } = database();
    const { order, quantity } = await pendingOrder(db, { provider: "stripe" });
    const session = { orderId: order.id, sessionId: "cs_paid_first", amount: order.total };
    await deliver(sessionEvent("checkout.session.completed", session));
    await deliver(sessionEvent("checkout.session.expired", { ...session, status: "expired" }));
    await deliver(sessionEvent("checkout.session.async_payment_failed", session));
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: quantity, holds: ["converted"] });
  });

  it("honours a late payment while places remain, and refunds one whose places went to others", async () => {
    const { db } = database();
    // Places still free: the payment after the hold ran out is honoured.
    const first = await pendingOrder(db, { provider: "stripe", capacity: 5, quantity: 2 });
    const honoured = await deliver(
      sessionEvent("checkout.session.completed", {
        orderId: first.order.id,
        sessionId: "cs_late_ok",
        amount: first.order.total,
      }),
      at(40),
    );
    expect(honoured).toMatchObject({ outcome: { settlement: { kind: "settled", late: true } } });

    // Places gone: the hold ran out, someone else bought the last ones, then the payment came.
    const second = await pendingOrder(db, { provider: "stripe", capacity: 2, quantity: 2 });
    await buyPlaces(db, second.ticketTypeId, 2, at(20));
    const refused = await deliver(
      sessionEvent("checkout.session.completed", {
        orderId: second.order.id,
        sessionId: "cs_late_gone",
        amount: second.order.total,
      }),
      at(25),
    );
    expect(refused).toMatchObject({
      kind: "handled",
      outcome: { settlement: { kind: "refund_required" } },
      followUps: { refundsDue: true, settledOrderIds: [], refusedOrderIds: [second.order.id] },
    });
    expect(await orderState(db, second.order.id)).toMatchObject({
      status: "expired",
      tickets: 0,
      ledger: [
        { kind: "charge", status: "succeeded", amount: second.order.total, reference: "pi_for_cs_late_gone" },
        { kind: "refund", status: "pending", amount: second.order.total, reference: null },
      ],
    });
  });

  it("finds the order by its session when the event names none", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "stripe" });
    await db.update(orders).set({ providerSessionId: "cs_stored" }).where(eq(orders.id, order.id));
    const result = await deliver(
      sessionEvent("checkout.session.completed", { orderId: null, sessionId: "cs_stored", amount: order.total }),
    );
    expect(result).toMatchObject({ kind: "handled", outcome: { settlement: { kind: "settled" } } });
  });

  it("acknowledges other event types and other integrations' sessions without acting on them", async () => {
    const { db } = database();
    const before = await ledgerCounts(db);
    const other = JSON.stringify({
      id: "evt_other_type",
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_x", object: "payment_intent" } },
    });
    expect(await deliver(other)).toEqual({
      kind: "ignored",
      eventId: "evt_other_type",
      type: "payment_intent.succeeded",
    });
    expect((await ledgerCounts(db)).events).toBe(before.events);

    const foreign = sessionEvent(
      "checkout.session.completed",
      { orderId: "invoice-2041", sessionId: "cs_elsewhere", amount: 999 },
      "evt_foreign",
    );
    expect(await deliver(foreign)).toMatchObject({ kind: "ignored", eventId: "evt_foreign" });
    const after = await ledgerCounts(db);
    expect({ ...after, events: before.events }).toEqual(before);
  });
});
