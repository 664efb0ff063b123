import { and, count, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "~/features/audit/audit.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { fieldMessages, wholeNumberText } from "~/features/forms/fields";
import type { Db } from "~/server/db/client.server";
import { events, waitingRoomEntries } from "../../../db/schema";

/** Limits on what an organizer may set, so a typo cannot stall or flood an on-sale. */
const QUEUE_LIMITS = { rate: { min: 1, max: 10_000 }, admission: { min: 1, max: 240 } };

export type QueueSettingsForm = { enabled: boolean; ratePerMinute: number; admissionMinutes: number };

export type QueueSettingsErrors = Partial<Record<"ratePerMinute" | "admissionMinutes", string>>;

const QueueSettingsSchema = z.object({
  enabled: z
    .string()
    .optional()
    .transform((value) => value === "on"),
  ratePerMinute: wholeNumberText(QUEUE_LIMITS.rate.min, QUEUE_LIMITS.rate.max, "the people let through a minute"),
  admissionMinutes: wholeNumberText(QUEUE_LIMITS.admission.min, QUEUE_LIMITS.admission.max, "the minutes to buy"),
});

/** Reads the organizer's queue form; every problem is named by its field. */
export function readQueueSettings(
  form: FormData,
): { ok: true; settings: QueueSettingsForm } | { ok: false; errors: QueueSettingsErrors } {
  const parsed = QueueSettingsSchema.safeParse({
    enabled: form.get("enabled") ?? undefined,
    ratePerMinute: form.get("ratePerMinute") ?? "",
    admissionMinutes: form.get("admissionMinutes") ?? "",
  });
  if (!parsed.success) return { ok: false, errors: fieldMessages(parsed.error) };
  return { ok: true, settings: parsed.data };
}

/** The queue tab of an event's dashboard: its settings, and how its queue stands. */
export async function queueSettingsPage(db: Db, eventId: string) {
  const [event] = await db
    .select({
      id: events.id,
      slug: events.slug,
      timeZone: events.timeZone,
      opensAt: events.salesStartAt,
      enabled: events.queueEnabled,
      ratePerMinute: events.queueRatePerMinute,
      admissionMinutes: events.queueAdmissionMinutes,
    })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const [[waiting], [letThrough]] = await Promise.all([
    db.select({ count: count() }).from(waitingRoomEntries).where(eq(waitingRoomEntries.eventId, eventId)),
    db
      .select({ count: count() })
      .from(waitingRoomEntries)
      .where(and(eq(waitingRoomEntries.eventId, eventId), isNotNull(waitingRoomEntries.admittedAt))),
  ]);
  return {
    slug: event.slug,
    settings: { enabled: event.enabled, ratePerMinute: event.ratePerMinute, admissionMinutes: event.admissionMinutes },
    opensAt: event.opensAt ? formatEventInstant(event.opensAt, event.timeZone) : null,
    places: waiting?.count ?? 0,
    letThrough: letThrough?.count ?? 0,
  };
}

/** Saves the queue settings, recorded in the audit log with who changed them. */
export async function saveQueueSettings(
  db: Db,
  input: { eventId: string; actorId: string; ip?: string; settings: QueueSettingsForm; now: Date },
) {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .update(events)
      .set({
        queueEnabled: input.settings.enabled,
        queueRatePerMinute: input.settings.ratePerMinute,
        queueAdmissionMinutes: input.settings.admissionMinutes,
        updatedAt: input.now,
      })
      .where(eq(events.id, input.eventId))
      .returning({ id: events.id });
    if (!saved) return false;
    await recordAudit(tx as unknown as Db, {
      actorId: input.actorId,
      action: "event.queue",
      subjectType: "event",
      subjectId: input.eventId,
      ip: input.ip,
      details: { ...input.settings },
    });
    return true;
  });
}
