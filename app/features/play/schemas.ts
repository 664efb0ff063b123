import { z } from "zod";
import { ProfileSchema } from "~/features/accounts/schemas";
import { MAX_PRICE_MINOR, parseMoney } from "~/ui/money";
import { COOL_OFF_CHOICES, EXCLUSION_CHOICES, type SpendLimits } from "./play-rules";

const AMOUNT_HINT = "Enter an amount such as 10 or 25.50";

/** A limit typed in pounds: empty is no limit, 0 stops paid entries. */
const limitField = z
  .string()
  .trim()
  .max(20)
  .optional()
  .transform((value, context) => {
    if (!value) return null;
    const minor = parseMoney(value);
    if (minor === null || minor > MAX_PRICE_MINOR) {
      context.addIssue({ code: "custom", message: `${AMOUNT_HINT}, or leave it empty for no limit` });
      return z.NEVER;
    }
    return minor;
  });

const choiceOf = <T extends string>(choices: Record<T, unknown>, message: string) =>
  z.enum(Object.keys(choices) as [T, ...T[]], { error: message });

export const LimitsSchema = z.object({
  intent: z.literal("limits"),
  weekly: limitField,
  monthly: limitField,
});

export const CoolOffSchema = z.object({
  intent: z.literal("cool-off"),
  period: choiceOf(COOL_OFF_CHOICES, "Choose how long your break lasts"),
});

export const ExclusionSchema = z.object({
  intent: z.literal("exclude"),
  period: choiceOf(EXCLUSION_CHOICES, "Choose how long to exclude yourself for"),
  confirm: z.literal("on", { error: "Tick the box to confirm that this cannot be undone early" }),
});

/** The forms of /settings/responsiblePlay, told apart by their `intent`. */
export const PlaySettingsSchema = z.discriminatedUnion("intent", [LimitsSchema, CoolOffSchema, ExclusionSchema]);

export const DRAW_LIMIT_OFFERS = ["none", "weekly", "monthly"] as const;

/**
 * Onboarding's profile form with the offer of a spending limit for prize draws: "No limit for
 * now" or a weekly or monthly amount (0 included).
 */
export const OnboardingSchema = ProfileSchema.extend({
  drawLimit: z.enum(DRAW_LIMIT_OFFERS).default("none"),
  drawLimitAmount: z.string().trim().max(20).optional(),
}).superRefine((value, context) => {
  if (value.drawLimit === "none") return;
  const minor = value.drawLimitAmount ? parseMoney(value.drawLimitAmount) : null;
  if (minor === null || minor > MAX_PRICE_MINOR) {
    context.addIssue({
      code: "custom",
      path: ["drawLimitAmount"],
      message: `${AMOUNT_HINT} (0 stops paid entries), or choose "No limit for now"`,
    });
  }
});

/** The limits chosen in onboarding, or null for "No limit for now". */
export function limitsOffered(value: { drawLimit: (typeof DRAW_LIMIT_OFFERS)[number]; drawLimitAmount?: string }) {
  if (value.drawLimit === "none") return null;
  const amount = parseMoney(value.drawLimitAmount ?? "") ?? 0;
  const limits: SpendLimits = { weekly: null, monthly: null };
  limits[value.drawLimit] = amount;
  return limits;
}
