import { and, eq } from "drizzle-orm";
import { suggestClass } from "~/features/judging/show-setup.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import { cars, cartItems, showCarApplications } from "../../../db/schema";
import { eventById } from "./application-event.server";
import { applyingClosedReason, carLabel, WITHDRAWABLE } from "./application-rules";
import { NOTE_MAX } from "./limits";

/**
 * The member's side of an application: applying with one of their garage cars while the event
 * takes applications, and withdrawing it before it is paid (docs/applications.md).
 */

export type ApplyResult =
  | { ok: true; applicationId: string; carLabel: string }
  | { ok: false; field: "carId" | "note" | "form"; message: string };

/**
 * A member applies to show one of their own cars. One application per car per event: a second
 * is refused by the unique index with a clear message; a withdrawn one may be sent again.
 */
export async function applyWithCar(
  db: Db,
  input: {
    userId: string;
    eventId: string;
    carId: string;
    note: string;
    /** The show class the applicant suggests, kept on the car's show entry. */
    suggestedClassId?: string | null;
    now: Date;
  },
): Promise<ApplyResult> {
  const note = input.note.trim();
  if (note.length > NOTE_MAX)
    return { ok: false, field: "note", message: `Keep the note under ${NOTE_MAX} characters` };
  const event = await eventById(db, input.eventId);
  if (!event) return { ok: false, field: "form", message: "This event could not be found" };
  const closed = applyingClosedReason(event, input.now);
  if (closed) return { ok: false, field: "form", message: closed };
  const [car] = await db
    .select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model })
    .from(cars)
    .where(and(eq(cars.id, input.carId), eq(cars.ownerId, input.userId)));
  if (!car) return { ok: false, field: "carId", message: "Choose one of the cars in your garage" };
  const label = carLabel(car);
  const suggest = (tx: Db, applicationId: string) =>
    input.suggestedClassId
      ? suggestClass(tx, { eventId: event.id, applicationId, classId: input.suggestedClassId, now: input.now })
      : Promise.resolve();
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: showCarApplications.id, status: showCarApplications.status })
        .from(showCarApplications)
        .where(and(eq(showCarApplications.eventId, event.id), eq(showCarApplications.carId, car.id)))
        .for("update");
      if (existing && existing.status !== "withdrawn") {
        return { ok: false as const, field: "carId" as const, message: "You have already applied with this car" };
      }
      if (existing) {
        await tx
          .update(showCarApplications)
          .set({
            status: "submitted",
            note,
            carLabel: label,
            fee: 0,
            decisionNote: null,
            reviewedBy: null,
            reviewedAt: null,
            updatedAt: input.now,
          })
          .where(eq(showCarApplications.id, existing.id));
        await suggest(tx, existing.id);
        return { ok: true as const, applicationId: existing.id, carLabel: label };
      }
      const [created] = await tx
        .insert(showCarApplications)
        .values({
          eventId: event.id,
          userId: input.userId,
          carId: car.id,
          carLabel: label,
          note,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: showCarApplications.id });
      await suggest(tx, created!.id);
      return { ok: true as const, applicationId: created!.id, carLabel: label };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return { ok: false, field: "carId", message: "You have already applied with this car" };
    }
    throw error;
  }
}

export type WithdrawResult = { ok: true } | { ok: false; message: string };

/** The member withdraws an application that is not paid yet; its spot (if approved) frees at once. */
export async function withdrawApplication(
  db: Db,
  input: { userId: string; applicationId: string; now: Date },
): Promise<WithdrawResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: showCarApplications.id, status: showCarApplications.status })
      .from(showCarApplications)
      .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.userId, input.userId)))
      .for("update");
    if (!row) return { ok: false as const, message: "This application could not be found" };
    if (!WITHDRAWABLE.includes(row.status)) {
      return {
        ok: false as const,
        message:
          row.status === "paid"
            ? "A confirmed application cannot be withdrawn here; contact the organizers"
            : "This application is already closed",
      };
    }
    await tx
      .update(showCarApplications)
      .set({ status: "withdrawn", updatedAt: input.now })
      .where(eq(showCarApplications.id, row.id));
    await tx.delete(cartItems).where(eq(cartItems.applicationId, row.id));
    return { ok: true as const };
  });
}
