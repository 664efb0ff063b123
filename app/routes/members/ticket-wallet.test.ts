import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import { testPassCertificates } from "~/features/wallet/wallet.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { memberships, tickets } from "../../../db/schema";
import * as cardRoute from "./card";
import * as cardWallet from "./card-wallet";
import * as eventsRoute from "./events";
import * as route from "./ticket-wallet";

// A ticket's wallet pass by every role: only its holder gets it, only when the club set the wallet
// up, only while the ticket admits. Anything else is a 404, never a 500.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "ticket-wallet" });

/** The site's settings with both wallets set up, with a test CA's pass certificate and a test service account. */
function walletsEnv() {
  const certs = testPassCertificates();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyFile = path.join(certs.dir, "service-account.json");
  writeFileSync(
    keyFile,
    JSON.stringify({
      client_email: "wallet@club.iam.gserviceaccount.com",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    }),
  );
  return {
    ...site.env,
    APPLE_WALLET_PASS_TYPE_ID: "pass.example.club",
    APPLE_WALLET_TEAM_ID: "TEAM123456",
    APPLE_WALLET_CERT_FILE: path.join(certs.dir, "pass.pem"),
    APPLE_WALLET_KEY_FILE: path.join(certs.dir, "pass.key"),
    APPLE_WALLET_WWDR_FILE: path.join(certs.dir, "wwdr.pem"),
    GOOGLE_WALLET_ISSUER_ID: "3388000000012345678",
    GOOGLE_WALLET_KEY_FILE: keyFile,
  };
}

/** A ticket the site's member holds, for an event a month away. */
async function membersTicket() {
  const { db } = database();
  const event = await createTestEvent(db, {
    startsAt: new Date(Date.now() + 30 * 24 * 3_600_000),
    endsAt: new Date(Date.now() + 31 * 24 * 3_600_000),
    types: [{ name: "Day ticket" }],
  });
  const now = new Date();
  await paidOrder(db, site.accounts.member, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }], now, now);
  const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.eventId, event.eventId));
  return ticket!.id;
}

describe("a ticket's wallet pass", () => {
  it("is its holder's alone, as a .pkpass or a Google Wallet link, and only when the wallet is set up", async () => {
    const ticketId = await membersTicket();
    const env = walletsEnv();
    const get = (who: TestRole | null, wallet: string, withWallets = true) =>
      answerOf(() =>
        route.loader(
          site.args(who, {
            path: `/members/tickets/${ticketId}/${wallet}`,
            params: { ticketId, wallet },
            runtime: withWallets ? { env } : {},
          }),
        ),
      );
    expect((await get(null, "wallet.pkpass")).location).toMatch(/^\/login\?redirectTo=/);
    const pass = await get("member", "wallet.pkpass");
    expect(pass.status).toBe(200);
    expect(pass.headers?.get("Content-Type")).toBe("application/vnd.apple.pkpass");
    expect(pass.headers?.get("Cache-Control")).toBe("private, no-store");
    const google = await get("member", "google-wallet");
    expect(google.status).toBe(302);
    expect(google.location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    for (const who of ["organizer", "admin"] as const) {
      expect((await get(who, "wallet.pkpass")).status).toBe(404);
      expect((await get(who, "google-wallet")).status).toBe(404);
    }
    const [stranger] = await createBuyers(database().db, 1);
    const other = { id: stranger!.id, email: stranger!.email, name: "Stranger", role: "member" } as never;
    expect((await get(other, "wallet.pkpass")).status).toBe(404);
    // Not set up: no pass, and the page shows no buttons.
    expect((await get("member", "wallet.pkpass", false)).status).toBe(404);
    expect((await get("member", "google-wallet", false)).status).toBe(404);
    const page = await answerOf(() => eventsRoute.loader(site.args("member", { path: "/members/events" })));
    expect(page.data).toMatchObject({ wallets: { apple: false, google: false } });
    const configured = await answerOf(() =>
      eventsRoute.loader(site.args("member", { path: "/members/events", runtime: { env } })),
    );
    expect(configured.data).toMatchObject({ wallets: { apple: true, google: true } });
  });

  it("is not found for a refunded ticket, a made-up id or an unknown wallet", async () => {
    const ticketId = await membersTicket();
    const env = walletsEnv();
    const get = (id: string, wallet = "wallet.pkpass") =>
      statusOf(() =>
        route.loader(
          site.args("member", {
            path: `/members/tickets/${id}/${wallet}`,
            params: { ticketId: id, wallet },
            runtime: { env },
          }),
        ),
      );
    expect(await get("not-a-ticket")).toBe(404);
    expect(await get("7d2c3a1e-5b4f-4c6d-8e9f-0a1b2c3d4e5f")).toBe(404);
    expect(await get(ticketId, "samsung-wallet")).toBe(404);
    await database().db.update(tickets).set({ status: "refunded" }).where(eq(tickets.id, ticketId));
    expect(await get(ticketId)).toBe(404);
  });
});

describe("the member card's wallet pass", () => {
  it("is for a member whose membership has its benefits, when the wallet is set up", async () => {
    const { db } = database();
    const env = walletsEnv();
    const get = (who: TestRole | null, wallet: string, withWallets = true) =>
      answerOf(() =>
        cardWallet.loader(
          site.args(who, { path: `/members/card/${wallet}`, params: { wallet }, runtime: withWallets ? { env } : {} }),
        ),
      );
    expect((await get(null, "wallet.pkpass")).location).toMatch(/^\/login\?redirectTo=/);
    // No membership yet: nothing to add.
    expect((await get("member", "wallet.pkpass")).status).toBe(404);
    const tier = await createTestTier(db, { name: "Annual" });
    await issueMembership(db, {
      userId: site.accounts.member.id,
      tier,
      people: [],
      orderId: null,
      paidPence: 3000,
      paidAt: new Date(),
    });
    const pass = await get("member", "wallet.pkpass");
    expect(pass.status).toBe(200);
    expect(pass.headers?.get("Content-Type")).toBe("application/vnd.apple.pkpass");
    expect((await get("member", "google-wallet")).location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    expect((await get("member", "wallet.pkpass", false)).status).toBe(404);
    expect((await get("member", "apple-wallet")).status).toBe(404);
    // Organizer and admin hold no membership here: no card.
    for (const who of ["organizer", "admin"] as const) expect((await get(who, "wallet.pkpass")).status).toBe(404);
    const page = await answerOf(() =>
      cardRoute.loader(site.args("member", { path: "/members/card", runtime: { env } })),
    );
    expect(page.data).toMatchObject({ wallets: { apple: true, google: true } });
    // A membership that has ended has no pass.
    await db
      .update(memberships)
      .set({ endedAt: new Date(Date.now() - 1000) })
      .where(eq(memberships.userId, site.accounts.member.id));
    expect((await get("member", "wallet.pkpass")).status).toBe(404);
  });
});
