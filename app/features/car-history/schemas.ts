import { z } from "zod";

/** An owner's choice about one show in their car's history: hide or show the show, or its score. */
export const HistoryChoiceSchema = z.object({
  intent: z.literal("history"),
  applicationId: z.uuid("Choose one of this car's shows."),
  what: z.enum(["show", "score"], "Choose what to show or hide."),
  shown: z.enum(["yes", "no"], "Choose whether to show it.").transform((value) => value === "yes"),
});
