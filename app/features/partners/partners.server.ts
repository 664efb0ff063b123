import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { partners } from "../../../db/schema";
import { type PreparedLogo, storeLogo } from "./logo.server";
import { LOGO_WIDTHS, logoKey } from "./logo-urls";

/**
 * The partners in the home page's LogoBanner (docs/home.md): staff add, edit, reorder, switch off
 * and delete them; every change is in the audit log, written in the same transaction.
 */

const partnerColumns = {
  id: partners.id,
  name: partners.name,
  url: partners.url,
  logo: partners.logo,
  active: partners.active,
  position: partners.position,
};

/** Every partner, in banner order, for staff. */
export function listPartners(db: Db) {
  return db
    .select(partnerColumns)
    .from(partners)
    .orderBy(asc(partners.position), asc(partners.createdAt), asc(partners.id));
}

/** The partners the home page shows: active, with a logo, in order. */
export async function bannerPartners(db: Db, limit = 12) {
  const rows = await db
    .select({ id: partners.id, name: partners.name, url: partners.url, logo: partners.logo })
    .from(partners)
    .where(and(eq(partners.active, true), isNotNull(partners.logo)))
    .orderBy(asc(partners.position), asc(partners.createdAt), asc(partners.id))
    .limit(limit);
  return rows.flatMap((row) => (row.logo ? [{ ...row, logo: row.logo }] : []));
}

export type Actor = { actorId: string | null; ip?: string | null };
type Saved = { ok: true; message: string } | { ok: false; status: 404; message: string };
const missing: Saved = { ok: false, status: 404, message: "That partner no longer exists." };

export async function createPartner(
  db: Db,
  storage: Storage,
  input: { name: string; url: string; logo: Extract<PreparedLogo, { ok: true }> },
  actor: Actor,
): Promise<Saved> {
  await storeLogo(storage, input.logo);
  await db.transaction(async (tx) => {
    const [last] = await tx.select({ max: sql<number>`coalesce(max(${partners.position}), -1)::int` }).from(partners);
    const [row] = await tx
      .insert(partners)
      .values({
        name: input.name,
        url: input.url,
        logo: { hash: input.logo.hash, color: input.logo.color, alt: input.name },
        position: Number(last?.max ?? -1) + 1,
      })
      .returning({ id: partners.id });
    await recordAudit(tx as unknown as Db, {
      ...actor,
      action: "partner.create",
      subjectType: "partner",
      subjectId: row!.id,
      details: { name: input.name, url: input.url },
    });
  });
  return { ok: true, message: `${input.name} is added to the partners.` };
}

export async function updatePartner(
  db: Db,
  storage: Storage,
  input: { partnerId: string; name: string; url: string; logo: Extract<PreparedLogo, { ok: true }> | null },
  actor: Actor,
): Promise<Saved> {
  if (input.logo) await storeLogo(storage, input.logo);
  const replaced = await db.transaction(async (tx) => {
    const [current] = await tx
      .select(partnerColumns)
      .from(partners)
      .where(eq(partners.id, input.partnerId))
      .for("update");
    if (!current) return null;
    const logo = input.logo
      ? { hash: input.logo.hash, color: input.logo.color, alt: input.name }
      : current.logo
        ? { ...current.logo, alt: input.name }
        : null;
    await tx
      .update(partners)
      .set({ name: input.name, url: input.url, logo, updatedAt: new Date() })
      .where(eq(partners.id, input.partnerId));
    await recordAudit(tx as unknown as Db, {
      ...actor,
      action: "partner.update",
      subjectType: "partner",
      subjectId: input.partnerId,
      details: { name: input.name, url: input.url, newLogo: Boolean(input.logo) },
    });
    return { oldHash: input.logo && current.logo?.hash !== input.logo.hash ? (current.logo?.hash ?? null) : null };
  });
  if (!replaced) return missing;
  if (replaced.oldHash) await deleteLogoIfUnused(db, storage, replaced.oldHash);
  return { ok: true, message: `${input.name} is saved.` };
}

/** Moves a partner one place up or down the banner; positions are renumbered 0, 1, 2… */
export async function movePartner(
  db: Db,
  input: { partnerId: string; direction: "up" | "down" },
  actor: Actor,
): Promise<Saved> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: partners.id, name: partners.name })
      .from(partners)
      .orderBy(asc(partners.position), asc(partners.createdAt), asc(partners.id))
      .for("update");
    const from = rows.findIndex((row) => row.id === input.partnerId);
    if (from < 0) return missing;
    const to = input.direction === "up" ? from - 1 : from + 1;
    const moved = rows[from]!;
    if (to < 0 || to >= rows.length)
      return { ok: true, message: `${moved.name} is already ${input.direction === "up" ? "first" : "last"}.` } as const;
    rows.splice(from, 1);
    rows.splice(to, 0, moved);
    for (const [position, row] of rows.entries()) {
      await tx.update(partners).set({ position }).where(eq(partners.id, row.id));
    }
    await recordAudit(tx as unknown as Db, {
      ...actor,
      action: "partner.move",
      subjectType: "partner",
      subjectId: moved.id,
      details: { from, to },
    });
    return { ok: true, message: `${moved.name} moved ${input.direction}.` } as const;
  });
}

export async function setPartnerActive(
  db: Db,
  input: { partnerId: string; active: boolean },
  actor: Actor,
): Promise<Saved> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(partners)
      .set({ active: input.active, updatedAt: new Date() })
      .where(eq(partners.id, input.partnerId))
      .returning({ name: partners.name });
    if (!row) return missing;
    await recordAudit(tx as unknown as Db, {
      ...actor,
      action: input.active ? "partner.activate" : "partner.deactivate",
      subjectType: "partner",
      subjectId: input.partnerId,
    });
    return {
      ok: true,
      message: input.active
        ? `${row.name} shows on the home page again.`
        : `${row.name} no longer shows on the home page.`,
    } as const;
  });
}

export async function deletePartner(
  db: Db,
  storage: Storage,
  input: { partnerId: string },
  actor: Actor,
): Promise<Saved> {
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx.delete(partners).where(eq(partners.id, input.partnerId)).returning(partnerColumns);
    if (!row) return null;
    await recordAudit(tx as unknown as Db, {
      ...actor,
      action: "partner.delete",
      subjectType: "partner",
      subjectId: input.partnerId,
      details: { name: row.name, url: row.url },
    });
    return row;
  });
  if (!deleted) return missing;
  if (deleted.logo) await deleteLogoIfUnused(db, storage, deleted.logo.hash);
  return { ok: true, message: `${deleted.name} is deleted.` };
}

/** A logo's files go once no partner shows it (two partners may share one picture, and so its keys). */
async function deleteLogoIfUnused(db: Db, storage: Storage, hash: string) {
  const [used] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(and(isNotNull(partners.logo), sql`${partners.logo}->>'hash' = ${hash}`))
    .limit(1);
  if (used) return;
  await Promise.allSettled(
    LOGO_WIDTHS.flatMap((width) =>
      (["avif", "webp"] as const).map((format) => storage.delete(logoKey(hash, width, format))),
    ),
  );
}
