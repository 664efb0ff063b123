import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/test-stock";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { ticketTypes } from "../../db/schema";
import { buyersReadyToPay, pressPay, until } from "./cluster";
import { clusterPerFile } from "./cluster-per-file";

/**
 * The server killed (SIGKILL: no clean-up runs) between buyers paying and their orders being
 * settled: half the payment notifications never arrive, the other half are in flight when the
 * process dies. After a restart, nothing is lost and nothing is doubled: every paid order is
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
      const deliveries = notifications.slice(10).map((notification) => stripe.deliver(server!.url, notification));
      await Promise.race(deliveries);
      await server!.kill("SIGKILL");
      await Promise.all(deliveries);

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
      await new Promise((resolve) => setTimeout(resolve, 1500));

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
