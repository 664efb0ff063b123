import { z } from "zod";

/**
 * What a judge's phone sends (docs/car-shows.md). Only the shape is checked here: whether a mark
 * fits its criterion is `markProblem`'s question, asked on the server with the class in hand, so
 * a mark typed as "eleven" or "7.3" gets the same words as one out of range.
 */

/** The most saves a phone sends at once; a longer outbox goes in several requests. */
export const MARKS_BATCH = 100;

/** A class has at most 12 criteria (`criteriaProblem`): a save never names more. */
const MOST_MARKS = 12;

/** The form names each criterion's field `mark.<criterion id>`. */
export const MARK_FIELD_PREFIX = "mark.";

const applicationId = z.uuid({ message: "Choose a car from the list" });

const criterionId = z
  .string({ message: "Each mark needs its criterion" })
  .min(1, "Each mark needs its criterion")
  .max(100, "Each mark needs its criterion");

/** A mark as typed: "7.5" or "7,5"; anything else reads as not a number, which `markProblem` refuses. */
function typedMark(text: string) {
  const trimmed = text.trim().replace(",", ".");
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * A phone's clock can be wrong: a save's time is taken as sent but kept within the last week and
 * never ahead of the server's clock, so one bad time never holds up the rest of the outbox.
 */
function savedAtField(now: Date) {
  const earliest = now.getTime() - 7 * 24 * 3_600_000;
  return z.iso
    .datetime({ offset: true, message: "Each save needs the time it was made" })
    .transform((text) => new Date(Math.min(Math.max(new Date(text).getTime(), earliest), now.getTime())));
}

/** A mark as sent: JSON carries only numbers; a form's mark that is not one reads as NaN for `markProblem`. */
const sentMark = z.number({ message: "Each mark needs a number" });
const typedMarkValue = z.union([sentMark, z.nan()]);

const marksListOf = (value: typeof sentMark | typeof typedMarkValue) =>
  z
    .array(z.object({ criterionId, value }))
    .min(1, "Mark at least one criterion")
    .max(MOST_MARKS, `Send at most ${MOST_MARKS} marks for a car`)
    .refine((marks) => new Set(marks.map((mark) => mark.criterionId)).size === marks.length, {
      message: "Each criterion is marked once",
    });

const marksList = marksListOf(sentMark);

/** What the phone's outbox sends back: each save with the id the phone keeps it under. */
export function marksSyncSchema(now: Date) {
  return z.object({
    items: z
      .array(
        z.object({
          id: z.uuid({ message: "Each save needs its id" }),
          applicationId,
          savedAt: savedAtField(now),
          marks: marksList,
        }),
      )
      .max(MARKS_BATCH, `Send at most ${MARKS_BATCH} saves at once`),
  });
}

export type MarksSyncItem = z.output<ReturnType<typeof marksSyncSchema>>["items"][number];

/**
 * The marking form as a browser without script posts it: the car, when it was saved (the page's
 * script fills it in; without it the server's clock says), and a `mark.<criterion id>` field per
 * criterion. A field left empty is not marked yet.
 */
export function marksFormOf(form: FormData, now: Date) {
  const marks: { criterionId: string; value: number }[] = [];
  for (const [name, value] of form) {
    if (!name.startsWith(MARK_FIELD_PREFIX) || typeof value !== "string" || value.trim() === "") continue;
    marks.push({ criterionId: name.slice(MARK_FIELD_PREFIX.length), value: typedMark(value) });
  }
  const savedAt = form.get("savedAt");
  return z
    .object({
      applicationId,
      savedAt: savedAtField(now).optional(),
      marks: marksListOf(typedMarkValue),
    })
    .safeParse({
      applicationId: form.get("applicationId") ?? undefined,
      savedAt: typeof savedAt === "string" && savedAt ? savedAt : undefined,
      marks,
    });
}
