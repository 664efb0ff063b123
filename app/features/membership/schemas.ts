import { z } from "zod";
import {
  checkbox,
  line,
  listPage,
  listSearch,
  listView,
  MESSAGES,
  moneyField,
  optionalLine,
  prose,
  wholeNumber,
} from "~/features/forms/fields";
import { MAX_MEMBERSHIP_PEOPLE } from "../../../db/schema";
import { MEMBER_VIEWS } from "./member-views";
import { PERSON_NAME_MAX } from "./membership-rules";

const TIER_LIMITS = { name: 60, summary: 160, benefits: 2000, capacity: 1_000_000 } as const;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const month = z.coerce
  .number({ error: "Choose a month" })
  .int("Choose a month")
  .min(1, "Choose a month")
  .max(12, "Choose a month");
const optionalMonth = z
  .union([z.literal(""), month])
  .optional()
  .transform((value) => (value === "" || value === undefined ? null : value));
const optionalDay = z
  .number({ error: MESSAGES.whole("the day") })
  .int(MESSAGES.whole("the day"))
  .min(1, MESSAGES.atLeast(1))
  .max(31, MESSAGES.atMost(31))
  .optional()
  .transform((value) => value ?? null);

/**
 * A membership tier as the organizer edits it (docs/membership.md). A season tier needs the day
 * its year starts; a late-join day is optional, with a set price or (left blank) the months left
 * pro rata. A rolling tier runs a month or a year from each member's joining day.
 */
export function tierSchema(site: { currency: string }) {
  return z
    .object({
      name: line(TIER_LIMITS.name, "Enter the tier's name"),
      summary: optionalLine(TIER_LIMITS.summary),
      benefits: prose(TIER_LIMITS.benefits),
      price: moneyField(site.currency, "Enter the price"),
      period: z.enum(["season", "rolling"], { error: "Choose how the membership runs" }),
      rollingMonths: z
        .enum(["1", "12"], { error: "Choose a month or a year" })
        .optional()
        .transform((value) => (value ? Number(value) : null)),
      seasonStartMonth: optionalMonth,
      seasonStartDay: optionalDay,
      lateJoinMonth: optionalMonth,
      lateJoinDay: optionalDay,
      lateJoinPrice: moneyField(site.currency, "Enter the late-join price, or leave it blank")
        .optional()
        .transform((value) => value ?? null),
      people: wholeNumber(1, MAX_MEMBERSHIP_PEOPLE, "the number of people"),
      capacity: wholeNumber(1, TIER_LIMITS.capacity, "the cap on members")
        .optional()
        .transform((value) => value ?? null),
      autoRenews: checkbox,
      admitsToMembersEvents: checkbox,
      onSale: checkbox,
    })
    .superRefine((tier, ctx) => {
      const dayFits = (monthValue: number, day: number) => day <= (DAYS_IN_MONTH[monthValue - 1] ?? 31);
      if (tier.period === "rolling") {
        if (tier.rollingMonths === null)
          ctx.addIssue({ code: "custom", path: ["rollingMonths"], message: "Choose a month or a year" });
        return;
      }
      if (tier.seasonStartMonth === null)
        ctx.addIssue({ code: "custom", path: ["seasonStartMonth"], message: "Choose the month the season starts" });
      if (tier.seasonStartDay === null)
        ctx.addIssue({ code: "custom", path: ["seasonStartDay"], message: "Enter the day the season starts" });
      if (tier.seasonStartMonth && tier.seasonStartDay && !dayFits(tier.seasonStartMonth, tier.seasonStartDay))
        ctx.addIssue({ code: "custom", path: ["seasonStartDay"], message: "That month has fewer days" });
      if ((tier.lateJoinMonth === null) !== (tier.lateJoinDay === null))
        ctx.addIssue({
          code: "custom",
          path: [tier.lateJoinMonth === null ? "lateJoinMonth" : "lateJoinDay"],
          message: "Give both the day and the month late joining starts, or neither",
        });
      if (tier.lateJoinMonth && tier.lateJoinDay && !dayFits(tier.lateJoinMonth, tier.lateJoinDay))
        ctx.addIssue({ code: "custom", path: ["lateJoinDay"], message: "That month has fewer days" });
      if (tier.lateJoinPrice !== null && tier.lateJoinMonth === null)
        ctx.addIssue({
          code: "custom",
          path: ["lateJoinPrice"],
          message: "Set the day late joining starts, or leave the price blank",
        });
      if (tier.lateJoinPrice !== null && tier.lateJoinPrice > tier.price)
        ctx.addIssue({
          code: "custom",
          path: ["lateJoinPrice"],
          message: "Make the late-join price no more than the price",
        });
    });
}

export type TierInput = z.output<ReturnType<typeof tierSchema>>;

/** Joining a tier from the membership page: which tier, and for a family tier the other people's names. */
export const joinSchema = z.object({
  tierId: z.uuid({ error: "That membership tier could not be found" }),
  people: z
    .array(z.string())
    .max(MAX_MEMBERSHIP_PEOPLE)
    .transform((names) => names.map((name) => name.trim()).filter(Boolean))
    .pipe(z.array(line(PERSON_NAME_MAX, "Enter the person's name"))),
});

/** Turning renewal off or back on, or cancelling within the cooling-off days, from the member's membership page. */
export const renewalSchema = z.object({
  intent: z.enum(["stop-renewal", "resume-renewal", "cancel-membership"], { error: "Reload the page and try again" }),
});

/** The staff member list's address: a search, a view by state, a page. */
export const MembersQuerySchema = z.object({
  q: listSearch,
  show: listView(MEMBER_VIEWS, "all"),
  page: listPage,
});
