import { z } from "zod";
import { isUuid } from "~/server/db/uuid";
import { currencySymbol, formatMoney, MAX_PRICE_MINOR, moneyInputValue, parseMoney } from "~/ui/money";
import { formatCount } from "~/ui/plural";
import { SLUG_PATTERN } from "./slug";

/**
 * The building blocks of every form's Zod schema, with one wording per rule (docs/forms.md): a
 * title that is too long, a number that is not whole or a price typed wrongly gets the same
 * message on the event editor, the draw editor, the shop editor and the article editor.
 */

// Characters PostgreSQL text cannot hold (NUL) or nobody types: refused rather than stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** What one line of text may not hold: a line break or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const LINE_BREAK_OR_CONTROL = /[\u0000-\u001f\u007f]/;
/** Angle brackets: text shown as is never carries anything that looks like markup. */
export const ANGLE = /[<>]/;

export const MESSAGES = {
  tooLong: (max: number) => `Use at most ${formatCount(max)} characters`,
  oneLine: "Use one line of ordinary text",
  noAngles: "Leave out < and >",
  control: "Remove the invisible control characters",
  whole: (what: string) => `Enter ${what} as a whole number`,
  atLeast: (min: number) => `Enter at least ${formatCount(min)}`,
  atMost: (max: number) => `Enter at most ${formatCount(max)}`,
  localTime: "Enter a date and time like 2027-06-12 09:30",
  money: (currency: string) => `Enter an amount like 12.50 in ${currencySymbol(currency)} (0 for free)`,
  memberPriceAbove: "Make the member price no more than the price",
  tierPriceAbove: (tier: string) => `Make what ${tier} members pay no more than the price`,
  slug: (example: string) => `Use lowercase letters, numbers and single hyphens, like ${example}`,
  reservedSlug: "This word is used by the site's own pages: choose another",
  idSlug: "Choose words rather than an id",
} as const;

export const tooLong = MESSAGES.tooLong;

/** One line of plain text shown as is (titles, venues, towns, options): no markup characters. */
export function line(max: number, missing: string) {
  return z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(max, MESSAGES.tooLong(max))
    .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), MESSAGES.oneLine)
    .refine((value) => !ANGLE.test(value), MESSAGES.noAngles);
}

/** `line` that may be left empty; empty reads as "". */
export function optionalLine(max: number) {
  return z
    .string()
    .trim()
    .max(max, MESSAGES.tooLong(max))
    .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), MESSAGES.oneLine)
    .refine((value) => !ANGLE.test(value), MESSAGES.noAngles)
    .optional()
    .transform((value) => value ?? "");
}

/** Browsers send line breaks as CRLF; they are kept as plain newlines. */
const normalizeProse = (value: string) => value.replace(/\r\n?/g, "\n").trim();

/** Text shown escaped (a summary) or rendered as Markdown with raw HTML escaped: markup is just text. */
export function prose(max: number) {
  return z
    .string()
    .max(max, MESSAGES.tooLong(max))
    .refine((value) => !CONTROL.test(value), MESSAGES.control)
    .transform(normalizeProse)
    .optional()
    .transform((value) => value ?? "");
}

/** `prose` that must be given. */
export function requiredProse(max: number, missing: string) {
  return z
    .string({ error: missing })
    .max(max, MESSAGES.tooLong(max))
    .refine((value) => !CONTROL.test(value), MESSAGES.control)
    .transform(normalizeProse)
    .refine((value) => value.length > 0, missing);
}

/** A whole number from a number field (Conform hands the schema a number). */
export function wholeNumber(min: number, max: number, what: string) {
  return z
    .number({ error: MESSAGES.whole(what) })
    .int(MESSAGES.whole(what))
    .min(min, MESSAGES.atLeast(min))
    .max(max, MESSAGES.atMost(max));
}

/** A whole number from a form read as sent, without Conform: the field's text. */
export function wholeNumberText(min: number, max: number, what: string) {
  return z
    .string({ error: `Enter ${what}` })
    .trim()
    .min(1, `Enter ${what}`)
    .regex(/^-?\d{1,9}$/, MESSAGES.whole(what))
    .transform(Number)
    .pipe(z.number().min(min, MESSAGES.atLeast(min)).max(max, MESSAGES.atMost(max)));
}

/** `wholeNumber` that may be left empty; empty reads as null. */
export function optionalWholeNumber(min: number, max: number, what: string) {
  return wholeNumber(min, max, what)
    .optional()
    .transform((value) => value ?? null);
}

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;

/** A date and time as a datetime-local field sends it, read in a zone by the caller. */
export function localTime(missing: string) {
  return z.string({ error: missing }).trim().max(32, MESSAGES.localTime).regex(LOCAL_TIME, MESSAGES.localTime);
}

/** `localTime` that may be left empty; empty reads as null. */
export function optionalLocalTime() {
  return localTime("")
    .optional()
    .transform((value) => value ?? null);
}

/** A price typed in pounds ("12.50", "£12", "0"), kept as minor units. */
export function moneyField(currency: string, missing: string) {
  const tooMuch = `Enter at most ${formatMoney(MAX_PRICE_MINOR, currency)}`;
  return z
    .string({ error: missing })
    .trim()
    .max(20, tooMuch)
    .transform((value, ctx) => {
      const minor = parseMoney(value);
      if (minor === null) {
        ctx.addIssue({ code: "custom", message: MESSAGES.money(currency) });
        return z.NEVER;
      }
      if (minor > MAX_PRICE_MINOR) {
        ctx.addIssue({ code: "custom", message: tooMuch });
        return z.NEVER;
      }
      return minor;
    });
}

/** What members pay (docs/membership.md), which may be left empty: the same as everyone, read as null. */
export function memberPriceField(currency: string) {
  return moneyField(currency, "Enter the member price, or leave it blank")
    .optional()
    .transform((value) => value ?? null);
}

/** A membership tier as its member price field names it (docs/membership.md, "Member prices…"). */
export type PriceTier = { id: string; slug: string; name: string };

/**
 * What members of each tier pay, one optional money field per tier at `tierPrices.<tier id>`; a
 * blank one is left out (that tier's members pay the member price), and so is any other tier.
 */
export function tierPricesField(currency: string, tiers: readonly PriceTier[]) {
  const fields = Object.fromEntries(
    tiers.map((tier) => [tier.id, moneyField(currency, `Enter what ${tier.name} members pay`).optional()]),
  );
  return z
    .object(fields)
    .optional()
    .transform((value) => {
      const prices: Record<string, number> = {};
      for (const [tierId, pence] of Object.entries(value ?? {})) if (typeof pence === "number") prices[tierId] = pence;
      return prices;
    });
}

/** Tier prices as `tierPricesField`'s inputs show them again: "11.90" by tier id. */
export function tierPriceInputValues(tierPrices: Readonly<Record<string, number>>) {
  return Object.fromEntries(Object.entries(tierPrices).map(([tierId, pence]) => [tierId, moneyInputValue(pence)]));
}

/** A tier's price above the item's `price`, as the form's problems at `tierPrices.<tier id>`. */
export function tierPriceIssues(price: number, tierPrices: Record<string, number>, tiers: readonly PriceTier[]) {
  return tiers
    .filter((tier) => (tierPrices[tier.id] ?? 0) > price)
    .map((tier) => ({ path: ["tierPrices", tier.id], message: MESSAGES.tierPriceAbove(tier.name) }));
}

/** A form's problems as the first message per field, keyed by field name ("options.0" for lists). */
export type FieldMessages = Record<string, string>;

export function fieldMessages(error: z.ZodError): FieldMessages {
  const errors: FieldMessages = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * What a list page's search box (`ListSearch`, at most 100 characters) puts in the address as
 * `q`: too long or not text reads as no search, never an error.
 */
export const listSearch = z.string().trim().max(100).catch("");

/** Which page of a list the address asks for (`page`): a whole number from 1, or else the first. */
export const listPage = z.coerce.number().int().min(1).max(100_000).catch(1);

/** Which view of a list the address asks for (`show`): one of the views' names, or else `fallback`. */
export function listView<View extends string>(views: Record<View, string>, fallback: View) {
  return z.enum(Object.keys(views) as [View, ...View[]]).catch(fallback);
}

/** A checkbox: ticked is true, anything else false. */
export const checkbox = z
  .boolean()
  .optional()
  .transform((value) => value === true);

/**
 * The address words of a page (an event's, a draw's), optional: left empty, one is made from the
 * title. `reserved` are the words the area's own pages use; `example` shows the shape.
 */
export function slugField(options: { max: number; reserved: ReadonlySet<string>; example: string }) {
  return z
    .string()
    .trim()
    .toLowerCase()
    .max(options.max, MESSAGES.tooLong(options.max))
    .regex(SLUG_PATTERN, MESSAGES.slug(options.example))
    .refine((slug) => !options.reserved.has(slug), MESSAGES.reservedSlug)
    .refine((slug) => !isUuid(slug), MESSAGES.idSlug)
    .optional()
    .transform((value) => value || null);
}
