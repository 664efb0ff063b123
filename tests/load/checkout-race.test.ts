import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { raceForLastPlaces } from "./checkout-race";
import { buyersReadyToPay, pressPay } from "./cluster";
import { clusterPerFile } from "./cluster-per-file";

/**
 * Proof under load, over HTTP: two app server processes from the production build on one
 * PostgreSQL database, 500 members pressing Pay at once for the last 100 places, and every
 * payment notification delivered five times in shuffled order to either server. PostgreSQL
 * only (the embedded database belongs to one process): runs when DATABASE_URL is set, as in
 * `.ci/run`. `node bench/checkout.mjs` runs the same race and prints its figures.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "checkout across two servers (PostgreSQL only)",
  { timeout: 300_000 },
  () => {
    const database = freshDatabasePerFile();
    const running = clusterPerFile(database, 2);

    /** A member who pressed Pay for a place at a new event on the first server, and paid at Stripe. */
    async function paidByOneBuyer(title: string) {
      const { stripe, servers } = running();
      const { db } = database();
      const event = await createTestEvent(db, {
        title,
        startsAt: new Date(Date.now() + 10 * 86_400_000),
        endsAt: new Date(Date.now() + 10 * 86_400_000 + 3_600_000),
        types: [{ name: "Pit lane walk", capacity: 10 }],
      });
      const [buyer] = await buyersReadyToPay(db, { count: 1, ticketTypeId: event.typeIds[0]!, quantity: 1 });
      const server = servers[0]!;
      const session = stripe.sessionOfRedirect((await pressPay(server, buyer!.cookie)).location ?? "");
      expect(session).not.toBeNull();
      return { server, buyer: buyer!, notification: stripe.pay(session!.id) };
    }

    it("sells exactly the last 100 places to 500 buyers, settles each payment once and sends one email each", async () => {
      const { stripe, servers } = running();
      const report = await raceForLastPlaces({
        database: database(),
        servers,
        stripe,
        buyers: 500,
        places: 100,
        replays: 5,
      });
      const why = `${JSON.stringify(report, null, 2)}\n${servers.map((server) => server.output()).join("\n")}`;
      expect(report.serverErrors, why).toBe(0);
      expect(report.otherAnswers, why).toEqual({});
      expect(report.held, why).toBe(100);
      expect(report.refusedNamingItem, why).toBe(400);
      expect(report.sold, why).toBe(100);
      expect(report.oversold, why).toBe(0);
      expect(report.tickets, why).toBe(100);
      expect(report.paidOrders, why).toBe(100);
      expect(report.chargesRecorded, why).toBe(100);
      expect(report.webhookDeliveries, why).toBe(500);
      expect(report.webhookAnswers, why).toEqual({ 200: 500 });
      expect(report.confirmationEmails, why).toBe(100);
      expect(report.buyersWithMoreThanOneEmail, why).toBe(0);
    });

    it("refuses a payment notification that is not signed with the endpoint's secret", async () => {
      const { stripe } = running();
      const { server, buyer, notification } = await paidByOneBuyer("Forgery Sprint");
      const orderStatus = async () =>
        (await database().pool!.query<{ status: string }>("select status from orders where user_id = $1", [buyer.id]))
          .rows[0]?.status;

      const forged = new Stripe("sk_test_forger").webhooks.generateTestHeaderString({
        payload: notification.payload,
        secret: "whsec_not_the_endpoints_secret",
      });
      expect(await stripe.deliver(server.url, notification, { signature: forged })).toBe(400);
      expect(await stripe.deliver(server.url, notification, { signature: "t=1,v1=00" })).toBe(400);
      expect(await orderStatus()).toBe("pending");

      expect(await stripe.deliver(server.url, notification)).toBe(200);
      expect(await orderStatus()).toBe("paid");
    });

    it("answers the webhook's address with JSON: 405 but to a POST, 413 past the body limit, and a repeat as a duplicate", async () => {
      const { stripe, servers } = running();
      const [server] = servers;
      const address = new URL("/api/webhooks/stripe", server!.url);

      const opened = await fetch(address);
      expect(opened.status).toBe(405);
      expect(opened.headers.get("allow")).toBe("POST");
      expect(opened.headers.get("cache-control")).toBe("no-store");
      expect(await opened.json()).toEqual({ error: "Method not allowed" });

      // No Origin and no signature: the signature check answers, not the Origin check.
      const unsigned = await fetch(address, { method: "POST", body: "{}" });
      expect(unsigned.status).toBe(400);
      expect(await unsigned.json()).toEqual({ error: "Invalid signature" });

      const huge = await fetch(address, { method: "POST", body: "x".repeat(2 * 1024 * 1024) });
      expect(huge.status).toBe(413);

      const { notification } = await paidByOneBuyer("Replay Sprint");
      const post = () =>
        fetch(address, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": stripe.signatureOf(notification) },
          body: notification.payload,
        }).then(async (answer) => ({ status: answer.status, body: await answer.json() }));
      expect(await post()).toEqual({ status: 200, body: { received: true, result: "handled" } });
      expect(await post()).toEqual({ status: 200, body: { received: true, result: "duplicate" } });
    });
  },
);
