import { z } from "zod";
import { type FieldIssue, readLocalField } from "~/features/dates/time-zones";
import {
  checkbox,
  listPage,
  listSearch,
  moneyField,
  optionalLine,
  optionalLocalTime,
  optionalWholeNumber,
  wholeNumber,
} from "~/features/forms/fields";
import { isUuid } from "~/server/db/uuid";
import type { ItemKind, VoucherEffect } from "../../../db/schema";
import { isWellFormedCode, normaliseCode } from "./voucher-rules";

// The staff forms for vouchers and discount codes (docs/membership.md, "Vouchers"): one schema,
// run in the browser for quick feedback and again on the server. Times are typed in the site's
// time zone.

export const VOUCHER_LIMITS = { label: 60, batch: 1000, uses: 1_000_000, picks: 200, typedCode: 64 } as const;

/** What each kind of item is called where a code is said to apply to all of that kind. */
export const KIND_LABELS = {
  ticket: "Tickets",
  entry: "Draw entries",
  merch: "Merch",
  membership: "Memberships",
  application: "Show-car application fees",
} as const satisfies Record<ItemKind, string>;

export const EFFECT_LABELS = {
  percent_off: "A percentage off",
  amount_off: "An amount off each item",
  set_price: "A set price for each item",
} as const satisfies Record<VoucherEffect, string>;

// The lists come from the labels (which must name every kind and effect), so the browser's copy
// of this module needs nothing of the database schema.
const KINDS = Object.keys(KIND_LABELS) as [ItemKind, ...ItemKind[]];
const EFFECTS = Object.keys(EFFECT_LABELS) as [VoucherEffect, ...VoucherEffect[]];

export const CODE_MESSAGES = {
  missing: "Enter the code, or choose a batch of codes",
  shape: "Use 3 to 32 letters and digits, like SPRING25",
  taken: "That code is already in use",
  used: "This code has been used, so it stays as it is",
} as const;

const ids = z
  .array(z.string().refine(isUuid, "Reload the page and choose again"))
  .max(VOUCHER_LIMITS.picks, `Choose at most ${VOUCHER_LIMITS.picks}`)
  .optional()
  .transform((value) => [...new Set(value ?? [])]);

const optionalMoney = (currency: string) =>
  moneyField(currency, "")
    .optional()
    .transform((value) => value ?? null);

/** Every field of the voucher form, one by one; the browser's constraints come from these. */
export function voucherFormFields(options: { currency: string }) {
  return z.object({
    /** New codes only: one code typed by staff, or a batch of generated ones. */
    mode: z
      .enum(["single", "batch"], { error: "Choose one code or a batch" })
      .optional()
      .transform((value) => value ?? "single"),
    code: z
      .string()
      .max(VOUCHER_LIMITS.typedCode, CODE_MESSAGES.shape)
      .optional()
      .transform((value) => normaliseCode(value ?? "")),
    count: wholeNumber(1, VOUCHER_LIMITS.batch, "how many codes").optional(),
    label: optionalLine(VOUCHER_LIMITS.label),
    effect: z.enum(EFFECTS, { error: "Choose what the code does" }),
    amount: optionalMoney(options.currency),
    percent: optionalWholeNumber(1, 100, "the percentage"),
    kinds: z
      .array(z.enum(KINDS, { error: "Reload the page and choose again" }))
      .optional()
      .transform((value) => [...new Set(value ?? [])]),
    eventIds: ids,
    ticketTypeIds: ids,
    productIds: ids,
    tierIds: ids,
    drawIds: ids,
    maxUses: optionalWholeNumber(1, VOUCHER_LIMITS.uses, "the most uses"),
    maxUsesPerMember: optionalWholeNumber(1, VOUCHER_LIMITS.uses, "the uses per member"),
    validFrom: optionalLocalTime(),
    validUntil: optionalLocalTime(),
    minBasket: optionalMoney(options.currency),
    holdsPlaces: checkbox,
    active: checkbox,
  });
}

/**
 * The voucher form on /admin/vouchers/new and on a code's own page. Which price field counts
 * depends on the effect; keeping places needs a limit on uses and one ticket type to keep them
 * of, and nothing else for the code to apply to.
 */
export function voucherSchema(options: { currency: string; timeZone: string }) {
  return voucherFormFields(options).transform((value, ctx) => {
    const issues: FieldIssue[] = [];
    const batch = value.mode === "batch";
    if (batch) {
      if (value.count === undefined) issues.push({ path: ["count"], message: "Enter how many codes to make" });
      if (!value.label) issues.push({ path: ["label"], message: "Name the batch, such as Crew 2027" });
    } else if (!value.code) {
      issues.push({ path: ["code"], message: CODE_MESSAGES.missing });
    } else if (!isWellFormedCode(value.code)) {
      issues.push({ path: ["code"], message: CODE_MESSAGES.shape });
    }

    let amount: number | null = null;
    if (value.effect === "percent_off") {
      if (value.percent === null) issues.push({ path: ["percent"], message: "Enter the percentage taken off" });
      amount = value.percent;
    } else {
      if (value.amount === null) {
        issues.push({
          path: ["amount"],
          message:
            value.effect === "set_price"
              ? "Enter the price each item is sold at"
              : "Enter the amount taken off each item",
        });
      } else if (value.effect === "amount_off" && value.amount === 0) {
        issues.push({ path: ["amount"], message: "Enter an amount above 0" });
      }
      amount = value.amount;
    }

    const { timeZone } = options;
    const validFrom = value.validFrom ? readLocalField(value.validFrom, timeZone, "validFrom", issues) : null;
    const validUntil = value.validUntil ? readLocalField(value.validUntil, timeZone, "validUntil", issues) : null;
    if (validFrom && validUntil && validUntil <= validFrom)
      issues.push({ path: ["validUntil"], message: "The code must end after it starts" });

    if (value.maxUses !== null && value.maxUsesPerMember !== null && value.maxUsesPerMember > value.maxUses)
      issues.push({ path: ["maxUsesPerMember"], message: "The uses per member cannot be more than the uses in all" });

    if (value.holdsPlaces) {
      const others = [value.kinds, value.eventIds, value.productIds, value.tierIds, value.drawIds];
      if (value.maxUses === null)
        issues.push({
          path: ["holdsPlaces"],
          message: "Keeping places needs the most uses in all: that many places are kept",
        });
      else if (value.ticketTypeIds.length !== 1)
        issues.push({ path: ["holdsPlaces"], message: "Keeping places needs exactly one ticket type" });
      else if (others.some((list) => list.length > 0))
        issues.push({
          path: ["holdsPlaces"],
          message: "A code that keeps places applies to its one ticket type only: clear the other choices",
        });
    }

    for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
    if (issues.length > 0 || amount === null) return z.NEVER;
    return {
      code: batch ? null : value.code,
      count: batch ? (value.count ?? null) : null,
      terms: {
        label: value.label,
        effect: value.effect,
        value: amount,
        kinds: value.kinds,
        eventIds: value.eventIds,
        ticketTypeIds: value.ticketTypeIds,
        productIds: value.productIds,
        tierIds: value.tierIds,
        drawIds: value.drawIds,
        maxUses: value.maxUses,
        maxUsesPerMember: value.maxUsesPerMember,
        validFrom,
        validUntil,
        minBasket: value.minBasket,
        holdsPlaces: value.holdsPlaces,
        active: value.active,
      },
    };
  });
}

export type VoucherInput = z.output<ReturnType<typeof voucherSchema>>;
export type VoucherTermsInput = VoucherInput["terms"];

/** The forms of a code's own page: its terms, or switching it off or on. */
export const VoucherIntentSchema = z.object({
  intent: z.enum(["save", "switch-off", "switch-on"], { error: "Reload the page and try again" }),
});

/** The voucher list's address: a search, a batch opened to its codes, a page. */
export const VouchersQuerySchema = z.object({
  q: listSearch,
  batch: z
    .string()
    .refine(isUuid)
    .transform((value) => value.toLowerCase())
    .optional()
    .catch(undefined),
  page: listPage,
});
