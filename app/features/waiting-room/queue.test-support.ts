import { eq } from "drizzle-orm";
import { createTestEvent, type TestTicketType } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { events } from "../../../db/schema";
import { queueEventOf } from "./waiting-room.server";

/** An event whose sales open at `opensAt` through a queue, made straight in the database. */
export async function createQueuedEvent(
  db: Db,
  input: {
    opensAt: Date;
    ratePerMinute: number;
    admissionMinutes?: number;
    title?: string;
    capacity?: number | null;
    types: TestTicketType[];
  },
) {
  const made = await createTestEvent(db, { title: input.title, capacity: input.capacity, types: input.types });
  await db
    .update(events)
    .set({
      salesStartAt: input.opensAt,
      queueEnabled: true,
      queueRatePerMinute: input.ratePerMinute,
      queueAdmissionMinutes: input.admissionMinutes ?? 20,
    })
    .where(eq(events.id, made.eventId));
  const event = await queueEventOf(db, made.eventId);
  return { ...made, event: { ...event!, opensAt: input.opensAt } };
}
