import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { orderEmailJob } from "~/features/orders/order-email.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { whenIdle } from "~/server/jobs/queue.server";
import { ticketTypes } from "../../db/schema";
import { buyersReadyToPay, pressPay, until } from "./cluster";
import { clusterPerFile } from "./cluster-per-file";

/**
 * The server killed (SIGKILL: no clean-up runs) between buyers paying and their orders being
 * settled: half the payment notifications never arrive, the other half are in flight when the
 * process dies (one of them, held by the test, certainly is). After a restart, nothing is lost and nothing is doubled: every paid order is
 * settled once, with its tickets, one charge and one confirmation email. PostgreSQL only, like
 * the load test.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "a server killed mid-payment (PostgreSQL only)",
  { timeout: 300_000 },
  () => {
    const database = freshDatabasePerFile();
    const running = clusterPerFile(database, 1);

    const count = async (text: string, values: unknown[] = []) =>
      Number((await database().pool!.query<{ n: string }>(text, values)).rows[0]!.n);

    it("settles every paid order after a restart, once, with its tickets and one email", async () => {
      const { stripe, servers } = running();
      const [server] = servers;
      const { db } = database();
      const event = await createTestEvent(db, {
        title: "Crash Test Trackday",
        startsAt: new Date(Date.now() + 20 * 86_400_000),
        endsAt: new Date(Date.now() + 20 * 86_400_000 + 6 * 3_600_000),
        types: [{ name: "Grandstand", price: 1800, capacity: 100, maxPerOrder: 4 }],
      });
      const ticketTypeId = event.typeIds[0]!;
      const buyers = await buyersReadyToPay(db, { count: 20, ticketTypeId, quantity: 2 });

      const answers = await Promise.all(buyers.map((buyer) => pressPay(server!, buyer.cookie)));
      const sessionIds = answers.map((answer) => stripe.sessionOfRedirect(answer.location ?? "")?.id);
      expect(sessionIds.every(Boolean), JSON.stringify(answers.map((answer) => answer.status))).toBe(true);

      // Everyone pays at Stripe. The first ten notifications are lost; of the other ten, the
      // server is killed as soon as the first has been answered, with the rest still in flight.
      const notifications = sessionIds.map((sessionId) => stripe.pay(sessionId!));
      // One of them for certain: the test's own transaction holds the row the server records the
      // notification under, so the server is handling it, stuck between the payment and its
      // settlement, until after the kill. The row is never committed.
      const held = notifications.at(-1)!;
      const lock = await database().pool!.connect();
      try {
        await lock.query("begin");
        await lock.query("insert into payment_events (provider, event_id, type) values ('stripe', $1, 'held')", [
          held.eventId,
        ]);
        const lockPid = (await lock.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
        const deliveries = notifications.slice(10).map((notification) => stripe.deliver(server!.url, notification));
        await until(
          "the server to be handling the held notification",
          async () =>
            (await count(
              "select count(*) as n from pg_stat_activity where application_name = $1 and $2 = any(pg_blocking_pids(pid))",
              [server!.applicationName, lockPid],
            )) === 1,
        );
        await Promise.race(deliveries);
        await server!.kill("SIGKILL");
        await Promise.all(deliveries);
      } finally {
        await lock.query("rollback");
        lock.release();
      }
      // The dead server's database sessions end once they notice; until then one could still commit.
      await until(
        "the killed server's database sessions to end",
        async () =>
          (await count("select count(*) as n from pg_stat_activity where application_name = $1", [
            server!.applicationName,
          ])) === 0,
      );
      // Every job started from here on is started by the restarted server.
      const goneAt = new Date();

      // The held notification was taken by the server, and its connection went with the server,
      // unanswered: it was in flight when the server died.
      expect(stripe.deliveries.find((delivery) => delivery.eventId === held.eventId)).toMatchObject({
        status: "unreachable",
        failure: "ECONNRESET",
      });
      const heldOrder = stripe.sessions.get(sessionIds.at(-1)!)!.client_reference_id;
      expect(await count("select count(*) as n from orders where id = $1 and status = 'pending'", [heldOrder])).toBe(1);

      // Killed between payment and settlement: some paid orders are settled, the others are not.
      const pendingAfterKill = await count("select count(*) as n from orders where status = 'pending'");
      expect(pendingAfterKill).toBeGreaterThanOrEqual(10);
      expect(pendingAfterKill).toBeLessThan(20);
      expect(await count("select count(*) as n from orders where status = 'paid'")).toBe(20 - pendingAfterKill);

      // Back up: the server checks every pending payment with Stripe as it starts.
      await server!.start();
      await until(
        "every order to be settled after the restart",
        async () => (await count("select count(*) as n from orders where status = 'paid'")) === 20,
      );
      // Stripe retries every notification it could not deliver; each is answered and changes nothing.
      const retried = await Promise.all(notifications.map((notification) => stripe.deliver(server!.url, notification)));
      expect(retried.every((status) => status === 200)).toBe(true);
      await until(
        "a confirmation email for every order",
        async () =>
          (await count("select count(*) as n from outbound_messages where subject like $1", [
            `Your tickets for ${event.title}%`,
          ])) >= 20,
      );
      // A second confirmation, if any were queued, has gone out once the queue is idle. Jobs the
      // killed server left running stay so until they expire, and are not waited for.
      await whenIdle(database(), { queues: [orderEmailJob.name], abandonedBefore: goneAt });

      const [stock] = await db
        .select({ sold: ticketTypes.sold })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, ticketTypeId));
      expect(stock!.sold).toBe(40);
      expect(
        await count("select count(*) as n from tickets where ticket_type_id = $1 and status = 'valid'", [ticketTypeId]),
      ).toBe(40);
      expect(await count("select count(*) as n from transactions where kind = 'charge'")).toBe(20);
      expect(await count("select count(*) as n from transactions where kind = 'refund'")).toBe(0);
      expect(await count("select count(*) as n from holds where status = 'active'")).toBe(0);
      expect(
        await count("select count(*) as n from outbound_messages where subject like $1", [
          `Your tickets for ${event.title}%`,
        ]),
      ).toBe(20);
      expect(
        await count(
          `select count(*) as n from (select "to" from outbound_messages where subject like $1 group by "to" having count(*) > 1) d`,
          [`Your tickets for ${event.title}%`],
        ),
      ).toBe(0);
    });
  },
);
