import { z } from "zod";

/** The most scans a device sends at once; a longer outbox goes in several requests. */
export const SYNC_BATCH = 200;

/** A gate's name as stewards type it on their device: "A", "North car park". */
const gateName = z
  .string({ message: "Name this gate" })
  .trim()
  .min(1, "Name this gate")
  .max(40, "A gate's name is at most 40 characters");

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
});
