import { z } from "zod";
import { DECISION_NOTE_MAX, NOTE_MAX } from "./limits";

/** The forms of show-car applications, read on the server; every message names what to fix. */

const applicationId = z.uuid({ message: "This application could not be found" });

export const ApplySchema = z.object({
  intent: z.literal("apply"),
  carId: z.uuid({ message: "Choose one of the cars in your garage" }),
  note: z
    .string()
    .trim()
    .max(NOTE_MAX, `Keep the note under ${NOTE_MAX} characters`)
    .optional()
    .transform((value) => value ?? ""),
  // The show class the applicant suggests for their car; left empty, the organizers choose.
  suggestedClassId: z
    .string()
    .optional()
    .transform((value) => value || null)
    .pipe(z.uuid({ message: "Choose one of the show's classes" }).nullable()),
});

export const WithdrawSchema = z.object({ intent: z.literal("withdraw-application"), applicationId });
export const PayFeeSchema = z.object({ intent: z.literal("pay-application"), applicationId });

export const DecisionSchema = z.object({
  intent: z.enum(["approve", "waitlist", "reject"], { message: "Choose a decision" }),
  applicationId,
  note: z
    .string()
    .trim()
    .max(DECISION_NOTE_MAX, `Keep the message under ${DECISION_NOTE_MAX} characters`)
    .optional()
    .transform((value) => value ?? ""),
});
