import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { holds, productVariants, stockAdjustments } from "../../../db/schema";
import { createMerchOrder, createMerchVariant } from "./fulfilment.test-support";
import { lowStockVariants, sendLowStockAlerts } from "./stock-alerts.server";

const database = freshDatabasePerFile();
const env = { SITE_NAME: "Pitlane", SITE_URL: "https://club.example" };

beforeAll(async () => {
  const { db } = database();
  for (const role of ["admin", "organizer", "member"] as const) {
    await insertAccount(db, { email: `${role}@club.example`, name: `The ${role}`, role, passwordHash: "x" });
  }
});

function run(now = new Date()) {
  const sent: OutboundEmail[] = [];
  // Like the real outbox, queueing talks to the same database (on the embedded one, over the one
  // connection): an alert queued inside a transaction would wait for it forever.
  const outbox = {
    sendEmail: async (email: OutboundEmail) => {
      await database().db.execute(sql`select 1`);
      sent.push(email);
    },
  };
  return sendLowStockAlerts({ db: database().db, outbox, env }, now).then((result) => ({ ...result, sent }));
}

async function setStock(variantId: string, stock: number, delivery: boolean) {
  const { db } = database();
  await db.update(productVariants).set({ stock }).where(eq(productVariants.id, variantId));
  if (delivery)
    await db.insert(stockAdjustments).values({ variantId, delta: stock, stockAfter: stock, reason: "Delivery" });
}

describe("low-stock alerts", () => {
  it("counts held units, and emails every organizer and admin once per crossing", async () => {
    const { db } = database();
    const plenty = await createMerchVariant(db, { title: "Track cap", stock: 30, threshold: 5 });
    const tee = await createMerchVariant(db, { title: "Club tee", options: ["M", "Black"], stock: 8, threshold: 5 });
    expect(await lowStockVariants(db, new Date())).toEqual([]);

    // 4 of the 8 are in someone's unpaid order: 4 can still be sold, under the threshold.
    const pending = await createMerchOrder(db, { variantId: tee.variantId, status: "pending", quantity: 4 });
    await db.insert(holds).values({
      orderId: pending.id,
      kind: "merch",
      variantId: tee.variantId,
      quantity: 4,
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });
    expect((await lowStockVariants(db, new Date())).map((row) => [row.productId, row.available])).toEqual([
      [tee.productId, 4],
    ]);

    const first = await run();
    expect(first.sent.map((email) => email.to).sort()).toEqual(["admin@club.example", "organizer@club.example"]);
    expect(first.sent[0]?.subject).toBe("Low stock: Club tee (M / Black)");
    expect(first.sent[0]?.text).toContain("4 left (threshold 5)");
    expect((await run()).sent).toEqual([]);

    // Sold down further: still the same crossing, no second email.
    await setStock(tee.variantId, 2, false);
    expect((await run()).sent).toEqual([]);

    // A delivery takes it above the threshold; when it runs low again, staff hear again.
    await setStock(tee.variantId, 20, true);
    expect((await run()).sent).toEqual([]);
    await setStock(tee.variantId, 3, false);
    const again = await run(new Date(Date.now() + 1000));
    expect(again.alerted).toBe(1);
    expect(again.sent).toHaveLength(2);
    expect(plenty.variantId).toBeTruthy();
  });
});
