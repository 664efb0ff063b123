import { eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { shopSettings } from "../../../db/schema";
import type { SettingsInput } from "./schemas";

/** How merch reaches buyers (docs/shop.md): the delivery fee, free-over threshold, collection, countries. */

export async function getShopSettings(db: Db) {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1));
  return (
    row ?? { id: 1, flatFee: 495, freeOver: 5000, collectionEnabled: true, countries: ["GB"], updatedAt: new Date() }
  );
}

/** Saves delivery settings, audited with what they were before. */
export async function saveShopSettings(db: Db, input: { actorId: string; values: SettingsInput; now: Date }) {
  await db.transaction(async (tx) => {
    const before = await getShopSettings(tx);
    await tx
      .insert(shopSettings)
      .values({ id: 1, ...input.values, updatedAt: input.now })
      .onConflictDoUpdate({ target: shopSettings.id, set: { ...input.values, updatedAt: input.now } });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "shop.settings.update",
      subjectType: "shop_settings",
      subjectId: "1",
      details: {
        before: {
          flatFee: before.flatFee,
          freeOver: before.freeOver,
          collectionEnabled: before.collectionEnabled,
          countries: before.countries,
        },
        after: input.values,
      },
    });
  });
}
