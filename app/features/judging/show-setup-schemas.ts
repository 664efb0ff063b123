import { z } from "zod";
import { readLocalField } from "~/features/dates/time-zones";
import { checkbox, line, optionalLocalTime, optionalWholeNumber } from "~/features/forms/fields";
import { JUDGING_SCHEMES } from "../../../db/schema";
import { criteriaProblem } from "./judging-rules";

// The show tab's forms, read on the server with Conform (docs/car-shows.md). The rules of a class's
// criteria are `criteriaProblem`'s alone: this file only reads the fields for it.

/** The highest show number a windscreen card can carry (the table's check agrees). */
export const MAX_SHOW_NUMBER = 9999;

/** How many criterion rows the class form offers beyond the class's own: blank rows are left out. */
export const SPARE_CRITERIA = 3;

const id = (message: string) => z.uuid({ message });

/**
 * A class as its form sends it: a name, a scheme, and rows of criteria (`criteria[0].name`,
 * `criteria[0].weight`, and the id of one already in the class). A row left blank is dropped; a
 * row with only one of its name and weight is kept, so the rules say what is missing.
 */
export const ClassSchema = z
  .object({
    classId: id("This class could not be found").optional(),
    name: line(60, "Name the class"),
    scheme: z.enum(JUDGING_SCHEMES, { message: "Choose how the class is marked" }),
    criteria: z
      .array(
        z.object({
          id: z.string().max(64).optional(),
          name: z.string().max(60, "Use at most 60 characters for a criterion").optional(),
          weight: z
            .number({ error: "Give every criterion a weight of at least 1" })
            .max(100, "A criterion's weight is at most 100")
            .optional(),
        }),
      )
      // More rows than the form ever offers: the rules count the ones filled in.
      .max(40, "Use at most 12 criteria")
      .optional(),
  })
  .transform((value) => ({
    ...value,
    criteria: (value.criteria ?? [])
      .filter((row) => (row.name ?? "").trim() !== "" || row.weight !== undefined)
      .map((row) => ({ id: row.id ?? null, name: (row.name ?? "").trim(), weight: row.weight ?? 0 })),
  }))
  .superRefine((value, ctx) => {
    const problem = criteriaProblem(value.criteria);
    if (problem) ctx.addIssue({ code: "custom", path: ["criteria"], message: problem });
  });

export const ClassIdSchema = z.object({ classId: id("This class could not be found") });

export const TemplateSchema = z.object({ templateId: id("Choose a class from the library") });

/** A judge for one class, by the email they signed up with, in the gate staff form's words. */
export const JudgeSchema = z.object({
  classId: id("This class could not be found"),
  email: z
    .string({ error: "Enter the member's email address" })
    .trim()
    .min(1, "Enter the member's email address")
    .max(254, "That email address is too long")
    .pipe(z.email({ error: "Enter an email address like name@example.com" }))
    .transform((email) => email.toLowerCase()),
});

export const RemoveJudgeSchema = z.object({
  classId: id("This class could not be found"),
  userId: z.string({ message: "This judge could not be found" }).min(1).max(64),
});

/** A car's class and show number; either may be left empty. */
export const PlacementSchema = z.object({
  applicationId: id("This car could not be found"),
  classId: id("Choose one of this show's classes")
    .optional()
    .transform((value) => value ?? null),
  showNumber: optionalWholeNumber(1, MAX_SHOW_NUMBER, "the show number"),
});

/** The People's Choice voting window, read in the event's time zone, and what the results show. */
export function votingSchema(timeZone: string) {
  return z
    .object({ opensAt: optionalLocalTime(), closesAt: optionalLocalTime(), showScores: checkbox })
    .transform((value, ctx) => {
      const issues: { path: string[]; message: string }[] = [];
      const opensAt = value.opensAt ? readLocalField(value.opensAt, timeZone, "opensAt", issues) : null;
      const closesAt = value.closesAt ? readLocalField(value.closesAt, timeZone, "closesAt", issues) : null;
      if (opensAt && closesAt && closesAt <= opensAt) {
        issues.push({ path: ["closesAt"], message: "Make voting close after it opens" });
      }
      for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
      return { opensAt, closesAt, showScores: value.showScores };
    });
}

export const CategorySchema = z.object({ name: line(40, "Name the category") });

export const CategoryIdSchema = z.object({ categoryId: id("This category could not be found") });

/** An award: Best in Class (with its class), Best in Show, or a trophy with its own title. */
export const AwardSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("class"),
      classId: id("This class could not be found"),
      applicationId: id("Choose a car"),
    }),
    z.object({ kind: z.literal("show"), applicationId: id("Choose a car") }),
    z.object({ kind: z.literal("trophy"), title: line(60, "Name the trophy"), applicationId: id("Choose a car") }),
  ],
  { error: "Choose which award to give" },
);

export const AwardIdSchema = z.object({ awardId: id("This award could not be found") });
