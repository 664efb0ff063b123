import { eq } from "drizzle-orm";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { orderEmailJob } from "~/features/orders/order-email.server";
import type { DatabaseHandle } from "~/server/db/client.server";
import { whenIdle } from "~/server/jobs/queue.server";
import { ticketTypes } from "../../db/schema";
import { type AppServer, buyersReadyToPay, pressPay, shuffled, until } from "./cluster";
import { type FakeStripe, SENDER_CONNECTIONS } from "./fake-stripe";
import { openRawSender } from "./raw-sender";

const RACE_TICKET = "Paddock pass";

export type RaceReport = {
  buyers: number;
  places: number;
  instances: number;
  /** Pay pressed → sent on to the payment page with places held. */
  held: number;
  /** Pay pressed → the cart again, with a message naming the ticket. */
  refusedNamingItem: number;
  serverErrors: number;
  /** Any other answer (none expected). */
  otherAnswers: Record<string, number>;
  /** Places sold of the last ones on offer, from the ticket type's own count. */
  sold: number;
  oversold: number;
  tickets: number;
  paidOrders: number;
  chargesRecorded: number;
  webhookDeliveries: number;
  webhookAnswers: Record<string, number>;
  confirmationEmails: number;
  /** Confirmations already sent when the last order settled: work that shared the machine with the race. */
  emailsDuringSettlement: number;
  buyersWithMoreThanOneEmail: number;
  checkoutSeconds: number;
  settleSeconds: number;
  /**
   * Seconds from the first payment until half, nine in ten, and all of the orders were settled
   * (each at its event's first 2xx answer), when every event had one: a last order far behind the
   * nine in ten is one order held up, not a slow rush.
   */
  settledBy?: { half: number; nineInTen: number; all: number };
  settledPerSecond: number;
  /** From the first payment until every paid order's confirmation email was sent. */
  emailSeconds: number;
  /** With `redeliver`: how long answering every notification again took, all of them duplicates. */
  duplicateSeconds?: number;
};

/**
 * `buyers` members, each with one ticket in their cart, press Pay at the same moment, spread
 * over the servers, for the last `places` places of an event (others were sold before). Every
 * buyer who got through pays at Stripe, and each payment's notification is delivered `replays`
 * times in shuffled order, to whichever server. Counts what happened, from the answers and
 * from the database.
 */
export async function raceForLastPlaces(input: {
  database: DatabaseHandle;
  servers: AppServer[];
  stripe: FakeStripe;
  buyers: number;
  places: number;
  replays: number;
  /** Told when each part of the race starts, for a measurement of that part alone. */
  onPhase?: (phase: "checkout" | "settlement" | "emails" | "done" | "duplicates" | "counting") => void;
  /** Afterwards, delivers every notification once more (each then a duplicate) and times that. */
  redeliver?: boolean;
  /**
   * How long the buyers spend on the payment page, in milliseconds, before every payment goes
   * through at once: the servers sit idle meanwhile, as between an on-sale's Pay presses and the
   * payments that follow.
   */
  pauseMs?: number;
}): Promise<RaceReport> {
  const { database, servers, stripe } = input;
  const { db } = database;
  const pool = database.pool!;
  const soldBefore = 400;
  const event = await createTestEvent(db, {
    title: `Race day ${Date.now().toString(36)}`,
    startsAt: new Date(Date.now() + 30 * 86_400_000),
    endsAt: new Date(Date.now() + 30 * 86_400_000 + 8 * 3_600_000),
    types: [{ name: RACE_TICKET, price: 2500, capacity: soldBefore + input.places, maxPerOrder: 4 }],
  });
  const ticketTypeId = event.typeIds[0]!;
  await db.update(ticketTypes).set({ sold: soldBefore }).where(eq(ticketTypes.id, ticketTypeId));

  const signedIn = await buyersReadyToPay(db, { count: input.buyers, ticketTypeId, quantity: 1 });

  // Everyone presses Pay at once, buyer i on server i mod n.
  input.onPhase?.("checkout");
  const checkoutStarted = performance.now();
  const answers = await Promise.all(
    signedIn.map((buyer, index) => pressPay(servers[index % servers.length]!, buyer.cookie)),
  );
  const checkoutSeconds = (performance.now() - checkoutStarted) / 1000;

  const otherAnswers: Record<string, number> = {};
  const sessionIds: string[] = [];
  let refusedNamingItem = 0;
  let serverErrors = 0;
  for (const answer of answers) {
    const session = answer.location ? stripe.sessionOfRedirect(answer.location) : null;
    if (answer.status === 302 && session) sessionIds.push(session.id);
    else if (answer.status === 400 && answer.body.includes(RACE_TICKET)) refusedNamingItem++;
    else if (answer.status >= 500) serverErrors++;
    else otherAnswers[String(answer.status)] = (otherAnswers[String(answer.status)] ?? 0) + 1;
  }

  if (input.pauseMs) await new Promise((resolve) => setTimeout(resolve, input.pauseMs));
  // Each buyer who got through pays; Stripe then tells the servers, several times, in any order.
  // Stripe signs its notifications and keeps its connections open on machines of its own: here
  // that is done before the clock starts, so the sender takes next to none of the machine that
  // settles the orders.
  const notifications = sessionIds.map((sessionId) => stripe.pay(sessionId));
  const deliveries = shuffled(
    notifications.flatMap((notification) =>
      Array.from({ length: input.replays }, () => {
        const server = servers[Math.floor(Math.random() * servers.length)]!;
        return { notification, request: stripe.prepareDelivery(server.url, notification) };
      }),
    ),
  );
  const openSender = () =>
    openRawSender(
      servers.map((server) => new URL(server.url)),
      SENDER_CONNECTIONS,
    );
  const sender = await openSender();
  input.onPhase?.("settlement");
  const settleStarted = performance.now();
  const webhookAnswers = await sender.send(deliveries.map(({ request }) => request)).finally(() => sender.close());
  const webhookStatuses = webhookAnswers.map((answer) => answer.status);
  const count = async (text: string, values: unknown[], name?: string) =>
    Number((await pool.query<{ n: string }>({ text, values, name })).rows[0]!.n);
  // An event is answered 2xx only once it was handled to the end, in the commit that paid its
  // order: the first such answer of each event is when its order was settled, as seen from outside.
  const settledAt = new Map<string, number>();
  deliveries.forEach(({ notification }, index) => {
    const answer = webhookAnswers[index]!;
    if (typeof answer.status !== "number" || answer.status >= 300) return;
    settledAt.set(notification.eventId, Math.min(settledAt.get(notification.eventId) ?? Infinity, answer.at));
  });
  const everyEventAnswered = settledAt.size === notifications.length;
  // The database has the last word; without an answer for every event the orders still settle
  // (reconciliation), and the time is when the database shows all of them paid.
  const paidOrders = await until(
    "every paid order to be settled",
    async () => {
      const paid = await count(
        "select count(distinct o.id) as n from orders o join order_items i on i.order_id = o.id where i.ticket_type_id = $1 and o.status = 'paid'",
        [ticketTypeId],
        "race-paid-orders",
      );
      return paid >= sessionIds.length ? paid : false;
    },
    120_000,
    // With a 2xx answer for every event the first look finds every order paid. Without, look
    // often, or the pause between looks is most of what is measured.
    10,
  );
  // Seconds from the first payment to each order's settlement, earliest first.
  const settledInOrder = [...settledAt.values()].map((at) => (at - settleStarted) / 1000).toSorted((a, b) => a - b);
  const settleSeconds = everyEventAnswered ? (settledInOrder.at(-1) ?? 0) : (performance.now() - settleStarted) / 1000;
  const settledByShare = (share: number) => round(settledInOrder[Math.ceil(share * settledInOrder.length) - 1]!);
  input.onPhase?.("emails");

  // The confirmations go out from the job queue, on whichever server takes each job. Those sent
  // before the last order settled took their share of the machine from the race.
  const emailSubject = `Your tickets for ${event.title}%`;
  const emailsSent = () => count("select count(*) as n from outbound_messages where subject like $1", [emailSubject]);
  const emailsDuringSettlement = await emailsSent();
  const emailsStarted = performance.now();
  await until("a confirmation for every paid order", async () => (await emailsSent()) >= paidOrders, 120_000).catch(
    () => undefined,
  ); // Counted below either way: a shortfall shows in the report.
  const emailSeconds = (performance.now() - emailsStarted) / 1000 + settleSeconds;
  // A second confirmation, if any were queued, has gone out once the queue is idle.
  await whenIdle(database, { queues: [orderEmailJob.name], timeoutMs: 120_000 });
  input.onPhase?.("done");
  let duplicateSeconds: number | undefined;
  if (input.redeliver) {
    const sendAgain = await openSender();
    input.onPhase?.("duplicates");
    const again = performance.now();
    await sendAgain.send(deliveries.map(({ request }) => request)).finally(() => sendAgain.close());
    duplicateSeconds = round((performance.now() - again) / 1000);
    input.onPhase?.("counting");
  }

  const [stock] = await db
    .select({ sold: ticketTypes.sold, capacity: ticketTypes.capacity })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, ticketTypeId));
  const sold = stock!.sold - soldBefore;
  const answersByStatus: Record<string, number> = {};
  for (const status of webhookStatuses) answersByStatus[String(status)] = (answersByStatus[String(status)] ?? 0) + 1;

  return {
    buyers: input.buyers,
    places: input.places,
    instances: servers.length,
    held: sessionIds.length,
    refusedNamingItem,
    serverErrors,
    otherAnswers,
    sold,
    oversold: Math.max(0, stock!.sold - stock!.capacity!),
    tickets: await count("select count(*) as n from tickets where ticket_type_id = $1", [ticketTypeId]),
    paidOrders,
    chargesRecorded: await count(
      "select count(*) as n from transactions where kind = 'charge' and order_id in (select order_id from order_items where ticket_type_id = $1)",
      [ticketTypeId],
    ),
    webhookDeliveries: deliveries.length,
    webhookAnswers: answersByStatus,
    confirmationEmails: await emailsSent(),
    emailsDuringSettlement,
    buyersWithMoreThanOneEmail: await count(
      'select count(*) as n from (select 1 from outbound_messages where subject like $1 group by "to" having count(*) > 1) d',
      [emailSubject],
    ),
    checkoutSeconds: round(checkoutSeconds),
    settleSeconds: round(settleSeconds),
    settledBy: everyEventAnswered
      ? { half: settledByShare(0.5), nineInTen: settledByShare(0.9), all: settledByShare(1) }
      : undefined,
    settledPerSecond: round(paidOrders / settleSeconds),
    emailSeconds: round(emailSeconds),
    duplicateSeconds,
  };
}

function round(value: number) {
  return Math.round(value * 100) / 100;
}
