import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import type { Env } from "~/server/env.server";
import { defineJob } from "~/server/jobs/queue.server";
import type { Outbox } from "~/server/messages.server";
import { auditLog, holds, products, productVariants, stockAdjustments, users } from "../../../db/schema";

/**
 * Low stock (docs/fulfilment.md): a variant on sale whose available units (stock less active,
 * unexpired holds) are at or below its product's threshold.
 */
export async function lowStockVariants(db: Db, now: Date, limit = 50) {
  const held = db
    .select({
      variantId: holds.variantId,
      held: sql<number>`sum(${holds.quantity})::int`.as("held"),
    })
    .from(holds)
    .where(and(isNotNull(holds.variantId), eq(holds.status, "active"), gt(holds.expiresAt, now)))
    .groupBy(holds.variantId)
    .as("held_units");
  const available = sql<number>`(${productVariants.stock} - coalesce(${held.held}, 0))::int`;
  const rows = await db
    .select({
      id: productVariants.id,
      productId: products.id,
      product: products.title,
      options: productVariants.options,
      sku: productVariants.sku,
      threshold: products.lowStockThreshold,
      available,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(held, eq(held.variantId, productVariants.id))
    .where(
      and(
        eq(productVariants.active, true),
        eq(products.status, "active"),
        sql`${productVariants.stock} - coalesce(${held.held}, 0) <= ${products.lowStockThreshold}`,
      ),
    )
    .orderBy(asc(available), asc(products.title), asc(productVariants.position))
    .limit(limit);
  return rows.map((row) => ({ ...row, available: Math.max(0, Number(row.available)) }));
}

export type LowStockVariant = Awaited<ReturnType<typeof lowStockVariants>>[number];

const LOW_STOCK_ALERT = "stock.low_alert";

/**
 * The low variants staff have not been told about since they last went low. The audit log is
 * the memory: an alert is recorded there (action `stock.low_alert`, subject the variant), and a
 * variant is alerted again only once a stock adjustment after that alert took its shelf stock
 * above the threshold (a delivery arrived), and it has since fallen back.
 */
async function variantsToAlert(db: Db, now: Date) {
  const low = await lowStockVariants(db, now, 500);
  if (low.length === 0) return [];
  const ids = low.map((variant) => variant.id);
  const [alerts, restocks] = await Promise.all([
    db
      .selectDistinctOn([auditLog.subjectId], { variantId: auditLog.subjectId, at: auditLog.createdAt })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, LOW_STOCK_ALERT),
          eq(auditLog.subjectType, "variant"),
          inArray(auditLog.subjectId, ids),
        ),
      )
      .orderBy(auditLog.subjectId, desc(auditLog.createdAt)),
    db
      .select({
        variantId: stockAdjustments.variantId,
        stockAfter: stockAdjustments.stockAfter,
        at: stockAdjustments.createdAt,
      })
      .from(stockAdjustments)
      .where(inArray(stockAdjustments.variantId, ids)),
  ]);
  const lastAlert = new Map(alerts.map((row) => [row.variantId, row.at]));
  return low.filter((variant) => {
    const alertedAt = lastAlert.get(variant.id);
    if (!alertedAt) return true;
    return restocks.some(
      (row) => row.variantId === variant.id && row.at > alertedAt && row.stockAfter > variant.threshold,
    );
  });
}

const variantName = (variant: Pick<LowStockVariant, "product" | "options">) =>
  variant.options.length > 0 ? `${variant.product} (${variant.options.join(" / ")})` : variant.product;

function lowStockEmail(brand: Branding, to: string, variants: LowStockVariant[]) {
  const subject =
    variants.length === 1
      ? `Low stock: ${variantName(variants[0]!)}`
      : `Low stock: ${variants.length} variants need restocking`;
  return accountEmail(brand, to, subject, {
    greeting: "Hi,",
    lines: [
      "These shop variants are at or below their low-stock threshold:",
      ...variants.map(
        (variant) =>
          `${variantName(variant)} · SKU ${variant.sku}: ${variant.available} left (threshold ${variant.threshold})`,
      ),
      "Record a delivery on the product's page once new stock arrives.",
    ],
    action: { label: "Open the shop", url: `${brand.siteUrl}/admin/shop` },
    footnote: "You get this once each time a variant runs low, because you are staff on this site.",
  });
}

export type StockAlertServices = {
  db: Db;
  outbox: Pick<Outbox, "sendEmail">;
  env: Pick<Env, "SITE_NAME" | "SITE_URL">;
};

/**
 * Tells every organizer and admin, once, about the variants that crossed their threshold since the
 * last run. The emails are queued first and the alerts recorded after: a crash in between sends
 * the same alert again on the next run rather than losing it. Queueing is never done inside the
 * recording transaction: on the embedded database the queue shares the one connection that the
 * transaction holds, and would wait for it forever.
 */
export async function sendLowStockAlerts(services: StockAlertServices, now = new Date()) {
  const { db, outbox, env } = services;
  const due = await variantsToAlert(db, now);
  if (due.length === 0) return { alerted: 0, emails: 0 };
  const staff = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.role, ["organizer", "admin"]), sql`coalesce(${users.banned}, false) = false`))
    .orderBy(asc(users.email));
  const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
  for (const member of staff) await outbox.sendEmail(lowStockEmail(brand, member.email, due));
  await db.transaction(async (tx) => {
    for (const variant of due) {
      await recordAudit(tx as unknown as Db, {
        actorId: null,
        action: LOW_STOCK_ALERT,
        subjectType: "variant",
        subjectId: variant.id,
        details: { available: variant.available, threshold: variant.threshold, staff: staff.length },
      });
    }
  });
  return { alerted: due.length, emails: staff.length };
}

export const lowStockAlertJob = defineJob<object, StockAlertServices>({
  name: "stock-low-alerts",
  schedule: "*/10 * * * *",
  policy: "stately",
  handler: async (_data, services) => {
    await sendLowStockAlerts(services);
  },
});
