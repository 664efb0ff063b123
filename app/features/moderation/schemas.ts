import { z } from "zod";

// The moderation forms, checked the same way in the browser and on the server.

const DECISIONS = ["hide", "restore", "remove", "dismiss"] as const;
export type Decision = (typeof DECISIONS)[number];

const MAX_DECISION_NOTE = 1000;

export const DecisionSchema = z.object({
  intent: z.literal("decide"),
  carId: z.uuid({ message: "Choose a car from the queue" }),
  photoId: z.uuid({ message: "Choose a photo from the queue" }).optional(),
  decision: z.enum(DECISIONS, { message: "Choose hide, restore, remove or dismiss" }),
  note: z
    .string({ message: "Write a note to the owner: they receive it by email" })
    .trim()
    .min(1, { message: "Write a note to the owner: they receive it by email" })
    .max(MAX_DECISION_NOTE, { message: `Use at most ${MAX_DECISION_NOTE} characters` }),
});

export const FeatureSchema = z.object({
  intent: z.literal("feature"),
  carId: z.uuid({ message: "Choose a car" }),
  featured: z.enum(["on", "off"], { message: "Choose whether to feature the car" }),
});
