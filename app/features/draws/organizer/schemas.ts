import { z } from "zod";
import { type FieldIssue, parseLocalDateTime, readLocalField } from "~/features/dates/time-zones";
import {
  ANGLE,
  LINE_BREAK_OR_CONTROL,
  line,
  listPage,
  listView,
  localTime,
  MESSAGES,
  moneyField,
  type PriceTier,
  prose,
  requiredProse,
  slugField as slugFieldOf,
  tooLong,
  wholeNumber,
} from "~/features/forms/fields";
import { isUsableSlug } from "~/features/forms/slug";
import { MAX_PRICE_MINOR, moneyInputValue, parseMoney } from "~/ui/money";
import {
  DRAW_KINDS,
  type DrawBundle,
  type DrawKind,
  type InstantWin,
  UNDERSOLD_POLICIES,
  type UndersoldPolicy,
} from "../../../../db/schema/draws";

// The organizer's draw forms: one schema per form, run in the browser for instant feedback and
// again on the server as the authority. Times are typed in the site's time zone
// (docs/draws-organizer.md, "Times").

export const DRAW_LIMITS = {
  title: 120,
  slug: 80,
  summary: 280,
  description: 20_000,
  rules: 20_000,
  prize: 200,
  question: 200,
  option: 120,
  options: 5,
  postalRoute: 2_000,
  beaconSource: 300,
  beaconValue: 500,
  totalEntries: 1_000_000,
  extendDays: 60,
  bundles: 10,
  instantWins: 200,
  instantPrize: 120,
  cancelReason: 500,
  imageAlt: 200,
  images: 8,
  postalName: 120,
  postalAddress: 500,
  email: 254,
} as const;

export const DRAW_KIND_LABELS = {
  competition: "Competition (paid entries)",
  giveaway: "Giveaway (free, one entry each)",
} as const satisfies Record<DrawKind, string>;

export const UNDERSOLD_LABELS = {
  extend: "Extend once by the days below",
  cash: "Draw anyway, for the cash alternative",
  refund: "Cancel and refund every paid entry",
} as const satisfies Record<UndersoldPolicy, string>;

/** Slugs that would shadow a page under /giveaways/. */
const RESERVED_SLUGS = new Set(["new", "verify", "admin", "api", "all", "page", "search", "feed", "rss"]);
const slugField = slugFieldOf({ max: DRAW_LIMITS.slug, reserved: RESERVED_SLUGS, example: "porsche-911-2027" });

export function isUsableDrawSlug(slug: string) {
  return isUsableSlug(slug, { max: DRAW_LIMITS.slug, reserved: RESERVED_SLUGS });
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const splitLines = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((row) => row.trim())
    .filter(Boolean);

/** One tier's price after a bundle's prices: its slug, then what its members pay ("family 5.00"). */
const TIER_PRICE = /[\s,;]+([a-z][a-z0-9-]*)(?:\s+members?)?(?:\s+pay)?\s*:?\s*([^\s,;]+)/giy;

/**
 * Bundles typed one a line as "entries price", then optionally what members pay, then optionally
 * what members of a tier pay, by the tier's slug: "5 8.00", "5 for £8", "10 x 15",
 * "5 8.00 members 6.00", "5 for £8, members £6", "5 8.00 members 6.00 family 5.00". A single
 * entry is always sold at the entry price, so bundles start at 2 entries.
 */
export function parseBundles(text: string, tiers: readonly PriceTier[] = []): Parsed<DrawBundle[]> {
  const rows = splitLines(text);
  if (rows.length > DRAW_LIMITS.bundles) return { ok: false, message: `Offer at most ${DRAW_LIMITS.bundles} bundles` };
  const bundles: DrawBundle[] = [];
  for (const [index, row] of rows.entries()) {
    const match =
      /^(\d{1,7})\s*(?:for|x|×|:|=|@)?\s*(\S+?)(?:[\s,;]+members?(?:\s+pay)?\s*:?\s*([^\s,;]+))?((?:[\s,;]+[a-z][a-z0-9-]*(?:\s+members?)?(?:\s+pay)?\s*:?\s*[^\s,;]+)*)$/i.exec(
        row,
      );
    const where = `Line ${index + 1}`;
    if (!match) return { ok: false, message: `${where}: write the entries then the price, like “5 8.00”` };
    const entries = Number(match[1]);
    const price = parseMoney(match[2]!);
    const memberPrice = match[3] === undefined ? undefined : parseMoney(match[3]);
    if (entries < 2) return { ok: false, message: `${where}: a bundle has 2 entries or more` };
    if (price === null || price > MAX_PRICE_MINOR) return { ok: false, message: `${where}: write the price like 8.00` };
    if (price === 0) return { ok: false, message: `${where}: a bundle needs a price above 0` };
    if (memberPrice === null) return { ok: false, message: `${where}: write the member price like 6.00` };
    if (memberPrice !== undefined && memberPrice > price)
      return { ok: false, message: `${where}: ${lowerFirst(MESSAGES.memberPriceAbove)}` };
    if (bundles.some((bundle) => bundle.entries === entries))
      return { ok: false, message: `${where}: there is already a bundle of ${entries} entries` };
    const tierPrices: Record<string, number> = {};
    for (const [, slug, typed] of match[4]!.matchAll(TIER_PRICE)) {
      const tier = tiers.find((candidate) => candidate.slug === slug!.toLowerCase());
      if (!tier) return { ok: false, message: `${where}: no membership tier is called “${slug}”` };
      const tierPrice = parseMoney(typed!);
      if (tierPrice === null) return { ok: false, message: `${where}: write what ${tier.name} members pay like 6.00` };
      if (tierPrice > price)
        return { ok: false, message: `${where}: ${lowerFirst(MESSAGES.tierPriceAbove(tier.name))}` };
      tierPrices[tier.id] = tierPrice;
    }
    bundles.push({
      entries,
      price,
      ...(memberPrice === undefined ? {} : { memberPrice }),
      ...(Object.keys(tierPrices).length === 0 ? {} : { tierPrices }),
    });
  }
  return { ok: true, value: bundles.sort((a, b) => a.entries - b.entries) };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * Instant wins typed one a line as "entry number, then the prize": "17 £50 fuel card",
 * "250: A set of mats". Numbers are unique; the prize is one line of text (no tabs), as the
 * committed list (ADR 0013) needs.
 */
export function parseInstantWins(text: string): Parsed<InstantWin[]> {
  const rows = splitLines(text);
  if (rows.length > DRAW_LIMITS.instantWins)
    return { ok: false, message: `Add at most ${DRAW_LIMITS.instantWins} instant wins` };
  const wins: InstantWin[] = [];
  for (const [index, row] of rows.entries()) {
    const where = `Line ${index + 1}`;
    const match = /^#?(\d{1,7})\s*(?:[:=→-]|->)?\s*(.*)$/.exec(row);
    if (!match) return { ok: false, message: `${where}: start with the entry number, like “17 £50 fuel card”` };
    const number = Number(match[1]);
    const prize = match[2]!.trim();
    if (number < 1) return { ok: false, message: `${where}: entry numbers start at 1` };
    if (!prize) return { ok: false, message: `${where}: say what entry ${number} wins` };
    if (/\t/.test(prize) || LINE_BREAK_OR_CONTROL.test(prize))
      return { ok: false, message: `${where}: write the prize as ordinary text, without tabs` };
    if (ANGLE.test(prize)) return { ok: false, message: `${where}: leave out < and >` };
    if (prize.length > DRAW_LIMITS.instantPrize)
      return { ok: false, message: `${where}: describe the prize in at most ${DRAW_LIMITS.instantPrize} characters` };
    if (wins.some((win) => win.number === number))
      return { ok: false, message: `${where}: entry ${number} already has an instant win` };
    wins.push({ number, prize });
  }
  return { ok: true, value: wins.sort((a, b) => a.number - b.number) };
}

/** The lines the bundles and instant-win boxes show for saved values (tier prices by the tiers' slugs). */
export const bundlesText = (bundles: DrawBundle[], tiers: readonly PriceTier[] = []) =>
  bundles
    .map((bundle) =>
      [
        `${bundle.entries} ${moneyInputValue(bundle.price)}`,
        bundle.memberPrice === undefined ? null : `members ${moneyInputValue(bundle.memberPrice)}`,
        ...tiers.map((tier) => {
          const tierPrice = bundle.tierPrices?.[tier.id];
          return tierPrice === undefined ? null : `${tier.slug} ${moneyInputValue(tierPrice)}`;
        }),
      ]
        .filter((part) => part !== null)
        .join(" "),
    )
    .join("\n");
export const instantWinsText = (wins: InstantWin[]) => wins.map((win) => `${win.number} ${win.prize}`).join("\n");

const listText = (max: number) =>
  z
    .string()
    .max(max, tooLong(max))
    .optional()
    .transform((value) => value ?? "");

/** The fields that stay editable once a draw is live: its words, never its terms of entry. */
function safeDrawFields() {
  return z.object({
    summary: prose(DRAW_LIMITS.summary),
    description: prose(DRAW_LIMITS.description),
    rules: prose(DRAW_LIMITS.rules),
    postalRoute: prose(DRAW_LIMITS.postalRoute),
  });
}

export const SafeDrawSchema = safeDrawFields();
export type SafeDrawInput = z.output<typeof SafeDrawSchema>;

/** Every field of the draw form, one by one; the browser's constraints come from these. */
export function drawFormFields(options: { currency: string }) {
  return safeDrawFields().extend({
    title: line(DRAW_LIMITS.title, "Enter the draw's title"),
    slug: slugField,
    kind: z.enum(DRAW_KINDS, { error: "Choose a competition or a giveaway" }),
    prize: line(DRAW_LIMITS.prize, "Say what the prize is"),
    prizeValue: moneyField(options.currency, "Enter the prize's value"),
    cashAlternative: moneyField(options.currency, "")
      .optional()
      .transform((value) => value ?? null),
    price: moneyField(options.currency, "Enter the price of one entry (0 for a giveaway)")
      .optional()
      .transform((value) => value ?? 0),
    bundles: listText(2_000),
    totalEntries: wholeNumber(1, DRAW_LIMITS.totalEntries, "the number of entries"),
    maxPerMember: wholeNumber(1, DRAW_LIMITS.totalEntries, "the limit per person"),
    minEntries: wholeNumber(1, DRAW_LIMITS.totalEntries, "the minimum")
      .optional()
      .transform((value) => value ?? 1),
    undersoldPolicy: z.enum(UNDERSOLD_POLICIES, { error: "Choose what happens if too few enter" }),
    extendDays: wholeNumber(1, DRAW_LIMITS.extendDays, "the days")
      .optional()
      .transform((value) => value ?? 7),
    opensAt: localTime("Enter when entries open"),
    closesAt: localTime("Enter when entries close"),
    question: line(DRAW_LIMITS.question, "Ask the skill question"),
    options: z
      .array(
        z
          .string()
          .trim()
          .max(DRAW_LIMITS.option, tooLong(DRAW_LIMITS.option))
          .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), "Use one line of ordinary text")
          .refine((value) => !ANGLE.test(value), "Leave out < and >")
          .optional(),
      )
      .max(DRAW_LIMITS.options, `Offer at most ${DRAW_LIMITS.options} answers`)
      .optional()
      .transform((value) => value ?? []),
    answer: wholeNumber(0, DRAW_LIMITS.options - 1, "the right answer").optional(),
    beaconSource: line(DRAW_LIMITS.beaconSource, "Name the public value that will decide the draw"),
    instantWins: listText(30_000),
    /** A checkbox: "on" when ticked. */
    allowPicks: z
      .string()
      .optional()
      .transform((value) => value === "on"),
  });
}

type Issue = FieldIssue;

/** The whole draw form, on /admin/draws/new and on a draft's page. */
export function drawFormSchema(options: { currency: string; timeZone: string; tiers?: readonly PriceTier[] }) {
  const { timeZone } = options;
  return drawFormFields(options).transform((value, ctx) => {
    const issues: Issue[] = [];
    const at = (local: string, path: string) => readLocalField(local, timeZone, path, issues);
    const opensAt = at(value.opensAt, "opensAt");
    const closesAt = at(value.closesAt, "closesAt");
    if (opensAt && closesAt && closesAt <= opensAt)
      issues.push({ path: ["closesAt"], message: "Entries must close after they open" });
    if (opensAt && opensAt.getUTCFullYear() < 2000)
      issues.push({ path: ["opensAt"], message: "Enter a date in 2000 or later" });

    // The answer is the position of a box, so a gap among the options moves nothing.
    const filled = value.options.map((text, index) => ({ text: text ?? "", index })).filter((row) => row.text);
    if (filled.length < 2) issues.push({ path: ["options"], message: "Offer between 2 and 5 answers" });
    const texts = filled.map((row) => row.text.toLowerCase());
    if (new Set(texts).size !== texts.length)
      issues.push({ path: ["options"], message: "Make every answer different" });
    const answer = filled.findIndex((row) => row.index === value.answer);
    if (value.answer === undefined) issues.push({ path: ["answer"], message: "Choose the right answer" });
    else if (answer < 0)
      issues.push({ path: ["answer"], message: "The right answer must be one of the answers filled in" });

    const bundles = parseBundles(value.bundles, options.tiers);
    if (!bundles.ok) issues.push({ path: ["bundles"], message: bundles.message });
    const wins = parseInstantWins(value.instantWins);
    if (!wins.ok) issues.push({ path: ["instantWins"], message: wins.message });

    const total = value.totalEntries;
    if (value.maxPerMember > total)
      issues.push({ path: ["maxPerMember"], message: "The limit per person cannot be more than the entries" });
    if (value.minEntries > total)
      issues.push({ path: ["minEntries"], message: "The minimum cannot be more than the entries" });
    if (bundles.ok && bundles.value.some((bundle) => bundle.entries > total))
      issues.push({ path: ["bundles"], message: "A bundle cannot hold more entries than the draw has" });
    if (wins.ok && wins.value.some((win) => win.number > total))
      issues.push({ path: ["instantWins"], message: `Instant wins must be entry numbers from 1 to ${total}` });

    // A member who chose a number would know in advance whether it wins at once.
    if (value.allowPicks && wins.ok && wins.value.length > 0)
      issues.push({
        path: ["allowPicks"],
        message: "A draw with instant wins gives every number at random: remove the instant wins or this choice",
      });

    if (value.kind === "giveaway") {
      if (value.price !== 0) issues.push({ path: ["price"], message: "A giveaway is free: leave the price at 0" });
      if (bundles.ok && bundles.value.length > 0)
        issues.push({ path: ["bundles"], message: "A giveaway has one free entry each: remove the bundles" });
      if (value.allowPicks)
        issues.push({ path: ["allowPicks"], message: "A giveaway's one free entry gets its number at random" });
    } else {
      if (value.price === 0) issues.push({ path: ["price"], message: "Enter the price of one entry" });
      if (value.undersoldPolicy === "cash" && value.cashAlternative === null)
        issues.push({ path: ["cashAlternative"], message: "Drawing for the cash alternative needs one: enter it" });
    }
    if (value.cashAlternative !== null && value.cashAlternative > value.prizeValue)
      issues.push({ path: ["cashAlternative"], message: "The cash alternative cannot be more than the prize's value" });

    for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
    if (issues.length > 0 || !opensAt || !closesAt || !bundles.ok || !wins.ok) return z.NEVER;
    return {
      title: value.title,
      slug: value.slug,
      kind: value.kind,
      summary: value.summary,
      description: value.description,
      rules: value.rules,
      postalRoute: value.postalRoute,
      prize: value.prize,
      prizeValue: value.prizeValue,
      cashAlternative: value.cashAlternative,
      price: value.price,
      bundles: bundles.value,
      totalEntries: total,
      maxPerMember: value.maxPerMember,
      minEntries: value.minEntries,
      undersoldPolicy: value.undersoldPolicy,
      extendDays: value.extendDays,
      opensAt,
      closesAt,
      question: value.question,
      options: filled.map((row) => row.text),
      answer,
      beaconSource: value.beaconSource,
      instantWins: wins.value,
      allowPicks: value.allowPicks,
    };
  });
}

export type DrawInput = z.output<ReturnType<typeof drawFormSchema>>;
export type DrawFormShape = z.input<ReturnType<typeof drawFormFields>>;
export type DrawFormDefaults = { [Field in keyof DrawFormShape]?: Field extends "options" ? string[] : string | null };

export const CancelDrawSchema = z.object({
  reason: requiredProse(DRAW_LIMITS.cancelReason, "Say why the draw is cancelled: entrants will read it"),
});

export const BeaconSchema = z.object({
  beaconValue: line(
    DRAW_LIMITS.beaconValue,
    "Enter the beacon as its source publishes it: a drand round number, or a Lotto result like 01-12-23-34-45-56+07",
  ),
});

/** Closing and drawing cannot be undone: the organizer ticks a box first. */
export const ConfirmSchema = z.object({
  confirm: z.boolean({ error: "Tick the box to confirm" }).refine((value) => value, "Tick the box to confirm"),
});

export function postalEntryFields(options: { optionCount: number }) {
  return z.object({
    name: line(DRAW_LIMITS.postalName, "Enter the entrant's name, as on the envelope"),
    address: requiredProse(DRAW_LIMITS.postalAddress, "Enter the entrant's address"),
    receivedAt: localTime("Enter when the entry arrived"),
    answer: wholeNumber(0, Math.max(0, options.optionCount - 1), "the answer").optional(),
    email: z
      .email({ error: "Enter an email address like name@example.com, or leave it empty" })
      .max(DRAW_LIMITS.email, tooLong(DRAW_LIMITS.email))
      .optional()
      .transform((value) => value?.toLowerCase() ?? null),
  });
}

export function postalEntrySchema(options: { timeZone: string; optionCount: number }) {
  return postalEntryFields(options).transform((value, ctx) => {
    if (value.answer === undefined) {
      ctx.addIssue({ code: "custom", path: ["answer"], message: "Choose the answer the entrant gave" });
      return z.NEVER;
    }
    const read = parseLocalDateTime(value.receivedAt, options.timeZone);
    if (!read.ok) {
      ctx.addIssue({
        code: "custom",
        path: ["receivedAt"],
        message: "Enter a real date and time like 2027-06-12 09:30",
      });
      return z.NEVER;
    }
    return { ...value, answer: value.answer, receivedAt: read.instant };
  });
}

export type PostalEntryFormInput = z.output<ReturnType<typeof postalEntrySchema>>;

export const IMAGE_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";
const IMAGE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;

export const AddImageSchema = z.object({
  image: z
    .file({ error: "Choose an image" })
    .max(IMAGE_UPLOAD_MAX_BYTES, "Choose an image of at most 15 MB")
    .optional()
    .transform((file) => (file && file.size > 0 ? file : undefined))
    .refine((file) => file !== undefined, "Choose an image"),
  alt: line(DRAW_LIMITS.imageAlt, "Describe the photo for people who cannot see it"),
});

export const ImageHashSchema = z.object({ hash: z.string().regex(/^[0-9a-f]{32}$/, "That photo is gone: reload") });

export const ImageAltSchema = ImageHashSchema.extend({
  alt: line(DRAW_LIMITS.imageAlt, "Describe the photo for people who cannot see it"),
});

/** The draws list's address: `?show=…`. Nonsense falls back to the default. */
export const DRAW_FILTERS = {
  active: "Draft and live",
  ended: "Closed and drawn",
  cancelled: "Cancelled",
  all: "All",
} as const;
export type DrawFilter = keyof typeof DRAW_FILTERS;

export const DrawsQuerySchema = z.object({ show: listView(DRAW_FILTERS, "active"), page: listPage });

export const DrawIdSchema = z.uuid();
