import { z } from "zod";
import { line } from "~/features/forms/fields";
import { GATE_ROLES } from "../../../db/schema";

/** The most scans a device sends at once; a longer outbox goes in several requests. */
export const SYNC_BATCH = 200;

/** A gate's name as stewards type it on their device: "A", "North car park". */
const gateName = z
  .string({ message: "Name this gate" })
  .trim()
  .min(1, "Name this gate")
  .max(40, "A gate's name is at most 40 characters");

/** An entry, or an exit at an event with re-entry. */
const direction = z.enum(["in", "out"], { message: "A scan goes in or out" });

/**
 * What a device sends back of the scans it made offline. A phone's clock can be wrong: a scan's
 * time is taken as sent but kept within the last week and never ahead of the server's clock, so
 * one bad time never holds up the rest of the outbox.
 */
export function syncSchema(now: Date) {
  const earliest = now.getTime() - 7 * 24 * 3_600_000;
  return z.object({
    gate: gateName,
    scans: z
      .array(
        z.object({
          id: z.uuid({ message: "Each scan needs its id" }),
          value: z.string().max(200, "A scanned code is at most 200 characters"),
          at: z.iso
            .datetime({ offset: true, message: "Each scan needs the time it was made" })
            .transform((text) => new Date(Math.min(Math.max(new Date(text).getTime(), earliest), now.getTime()))),
          local: z.enum(["admitted", "already", "refused"], { message: "Each scan needs what the device decided" }),
          direction: direction.optional(),
        }),
      )
      .max(SYNC_BATCH, `Send at most ${SYNC_BATCH} scans at once`),
  });
}

/** A scan sent online by a device ready for offline, with the id it would queue it under. */
export const OnlineScanSchema = z.object({
  id: z.uuid({ message: "The scan needs its id" }),
  gate: gateName,
  value: z.string().max(200, "A scanned code is at most 200 characters"),
  direction: direction.optional(),
});

/** An organizer puts a member on the event's gate by the email they signed up with. */
export const GateStaffSchema = z.object({
  email: z
    .string({ error: "Enter the member's email address" })
    .trim()
    .min(1, "Enter the member's email address")
    .max(254, "That email address is too long")
    .pipe(z.email({ error: "Enter an email address like name@example.com" }))
    .transform((email) => email.toLowerCase()),
  role: z.enum(GATE_ROLES, { message: "Choose steward or supervisor" }),
});

/** A supervisor lets someone in by hand: which ticket, and why, for the audit log. */
export const LetInSchema = z.object({
  ticketId: z.uuid({ message: "Choose a ticket from the list" }),
  reason: line(200, "Say why you are letting them in"),
});
