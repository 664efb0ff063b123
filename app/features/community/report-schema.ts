import { z } from "zod";
import { MAX_REPORT_NOTE, REPORT_REASON_LIST } from "./report-labels";

export const ReportSchema = z.object({
  intent: z.literal("report"),
  photoId: z.uuid({ message: "Choose a photo from this car" }).optional(),
  reason: z.enum(REPORT_REASON_LIST, { message: "Choose why you are reporting this" }),
  note: z
    .string()
    .trim()
    .max(MAX_REPORT_NOTE, { message: `Use at most ${MAX_REPORT_NOTE} characters` })
    .optional()
    .default(""),
});
