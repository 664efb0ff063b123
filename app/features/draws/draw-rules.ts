import { countOf, formatCount, plural } from "~/ui/plural";
import type { DrawBundle, DrawKind, DrawStatus } from "../../../db/schema";

/**
 * The rules of entering a prize draw, as pure functions (docs/draws.md): the draw page and the
 * cart use them as advice against counts read without locks; checkout and settlement use them
 * again on counts read under the draw's row lock, which is what holds the caps.
 */

const ENTRANT_MIN_AGE = 18;

export type DrawForEntry = {
  id: string;
  title: string;
  kind: DrawKind;
  status: DrawStatus;
  price: number;
  bundles: DrawBundle[];
  totalEntries: number;
  maxPerMember: number;
  opensAt: Date;
  closesAt: Date;
  optionCount: number;
  /** Members may choose their entry numbers. */
  allowPicks: boolean;
};

/** Counts read for a draw: entries allocated, entries held by buyers paying, and the member's. */
export type DrawCounts = { allocated: number; held: number; mine: number };

export type EntryProblem = {
  code:
    | "not_found"
    | "not_open"
    | "closed"
    | "sold_out"
    | "not_enough"
    | "limit"
    | "bundle"
    | "answer"
    | "free_once"
    | "age"
    | "age_unconfirmed"
    | "phone"
    | "staff"
    | "picks"
    | "taken";
  message: string;
  drawId: string;
  /** Entries the member may still add, for "limit" and "not_enough". */
  remaining?: number;
};

/**
 * The bundles a draw sells, smallest first: always a single entry at the draw's price (for members
 * too), then the organiser's bundles with their member and tier prices. A giveaway has one free entry and
 * nothing else.
 */
export function bundlesOf(draw: Pick<DrawForEntry, "kind" | "price" | "bundles">): DrawBundle[] {
  if (draw.kind === "giveaway") return [{ entries: 1, price: 0 }];
  const byEntries = new Map<number, DrawBundle>([[1, { entries: 1, price: draw.price }]]);
  for (const bundle of draw.bundles) if (bundle.entries > 1) byEntries.set(bundle.entries, bundle);
  return [...byEntries.values()]
    .map(({ entries, price, memberPrice, tierPrices }) => ({
      entries,
      price,
      ...(memberPrice === undefined ? {} : { memberPrice }),
      ...(tierPrices === undefined ? {} : { tierPrices }),
    }))
    .sort((a, b) => a.entries - b.entries);
}

export function bundleFor(draw: Pick<DrawForEntry, "kind" | "price" | "bundles">, entries: number) {
  return bundlesOf(draw).find((bundle) => bundle.entries === entries) ?? null;
}

/** Entries neither allocated nor held. */
function entriesLeft(draw: Pick<DrawForEntry, "totalEntries">, counts: Pick<DrawCounts, "allocated" | "held">) {
  return Math.max(0, draw.totalEntries - counts.allocated - counts.held);
}

/** Whole percent of entries allocated, rounded down so a draw shows 100 % only when sold out. */
export function percentSold(draw: Pick<DrawForEntry, "totalEntries">, allocated: number) {
  return Math.min(100, Math.floor((allocated * 100) / draw.totalEntries));
}

export type DrawPhase = "upcoming" | "open" | "closed";

/** Whether entries are taken now: live, opened and not yet at its closing time. */
export function drawPhase(draw: Pick<DrawForEntry, "status" | "opensAt" | "closesAt">, now: Date): DrawPhase {
  if (draw.status !== "live" || now >= draw.closesAt) return "closed";
  return now < draw.opensAt ? "upcoming" : "open";
}

/** Age in whole years on `now` (UTC calendar), from a `YYYY-MM-DD` date of birth. */
export function ageOn(dateOfBirth: string, now: Date) {
  const [year = 0, month = 1, day = 1] = dateOfBirth.split("-").map(Number);
  let age = now.getUTCFullYear() - year;
  const beforeBirthday = now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day);
  if (beforeBirthday) age--;
  return age;
}

export type Entrant = {
  /** Organizers and admins run the draws: they may not enter them. */
  staff?: boolean;
  dateOfBirth: string | null;
  phoneVerified: boolean;
  /** The entrant ticked "I am 18 or over" with these entries. */
  confirmedAdult: boolean;
};

/** Whether this person may enter this draw at all (UK prize-draw rules). */
export function entrantProblem(
  draw: Pick<DrawForEntry, "id" | "kind">,
  entrant: Entrant,
  now: Date,
): EntryProblem | null {
  const drawId = draw.id;
  if (entrant.staff) {
    return { code: "staff", message: "Staff run the club's prize draws, so they cannot enter them", drawId };
  }
  if (!entrant.dateOfBirth) {
    return {
      code: "age",
      message: "Add your date of birth to your profile to enter: entrants must be 18 or over",
      drawId,
    };
  }
  if (ageOn(entrant.dateOfBirth, now) < ENTRANT_MIN_AGE) {
    return { code: "age", message: "You must be 18 or over to enter prize draws", drawId };
  }
  if (!entrant.confirmedAdult) {
    return { code: "age_unconfirmed", message: "Confirm that you are 18 or over", drawId };
  }
  if (draw.kind === "competition" && !entrant.phoneVerified) {
    return { code: "phone", message: "Verify your phone number to enter paid competitions", drawId };
  }
  return null;
}

function entries(count: number) {
  return countOf(count, "entry", "entries");
}

/**
 * Whether `adding` more entries fit: the draw open, a known bundle and answer, the member's limit
 * (which counts every route: paid, postal and free) and what is left.
 */
export function entryLineProblem(
  draw: DrawForEntry,
  counts: DrawCounts,
  line: { entriesPerUnit: number; quantity: number; answer: number },
  now: Date,
  /** Entries of this draw already counted for the same order or cart, beyond `counts`. */
  alsoAdding = 0,
): EntryProblem | null {
  const drawId = draw.id;
  const phase = drawPhase(draw, now);
  if (phase === "upcoming") return { code: "not_open", message: `${draw.title} is not open for entries yet`, drawId };
  if (phase === "closed") return { code: "closed", message: `${draw.title} has closed`, drawId };
  if (!bundleFor(draw, line.entriesPerUnit)) {
    return { code: "bundle", message: "That bundle is no longer offered: choose another", drawId };
  }
  if (!Number.isInteger(line.answer) || line.answer < 0 || line.answer >= draw.optionCount) {
    return { code: "answer", message: "Choose an answer to the question", drawId };
  }
  const adding = line.entriesPerUnit * line.quantity;
  const already = counts.mine + alsoAdding;
  if (draw.kind === "giveaway" && already + adding > 1) {
    return { code: "free_once", message: "You have already entered this giveaway", drawId, remaining: 0 };
  }
  const allowance = draw.maxPerMember - already;
  if (adding > allowance) {
    return {
      code: "limit",
      message:
        allowance <= 0
          ? `You have reached the limit of ${entries(draw.maxPerMember)} per person`
          : `You can add ${entries(allowance)} more (the limit is ${entries(draw.maxPerMember)} per person)`,
      drawId,
      remaining: Math.max(0, allowance),
    };
  }
  const left = Math.max(0, entriesLeft(draw, counts) - alsoAdding);
  if (left === 0) return { code: "sold_out", message: `${draw.title} is sold out`, drawId, remaining: 0 };
  if (adding > left) {
    return { code: "not_enough", message: `Only ${entries(left)} left in ${draw.title}`, drawId, remaining: left };
  }
  return null;
}

/** "1 in 2,500": the chance of one entry winning when every entry is sold. */
export function oddsAtFullSale(totalEntries: number) {
  return `1 in ${formatCount(totalEntries)}`;
}

/** "Jamie T." from "Jamie Taylor": how winners are named in public. */
export function maskedName(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "A member";
  const [first, ...rest] = parts;
  const last = rest.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first!;
}

/** Why a list of instant wins cannot be published, or null: numbers unique and within the draw. */
export function instantWinsProblem(wins: readonly { number: number; prize: string }[], totalEntries: number) {
  const seen = new Set<number>();
  for (const win of wins) {
    if (!Number.isInteger(win.number) || win.number < 1 || win.number > totalEntries) {
      return `Instant-win entry numbers must be between 1 and ${totalEntries}.`;
    }
    if (seen.has(win.number)) return `Entry ${win.number} is listed twice among the instant wins.`;
    if (!win.prize.trim() || /[\t\n\r]/.test(win.prize)) {
      return `Name the prize of instant win ${win.number} on one line.`;
    }
    seen.add(win.number);
  }
  return null;
}

/** The instant wins among a member's entry numbers. */
export function instantWinsAmong(wins: readonly { number: number; prize: string }[], numbers: readonly number[]) {
  const mine = new Set(numbers);
  return wins.filter((win) => mine.has(win.number)).sort((a, b) => a.number - b.number);
}

/** The most numbers one form may name: more than any one bundle holds. */
const MAX_PICKS = 100;

/**
 * Reads the numbers a member typed ("7, 77 1234"), or null when the text is not a list of whole
 * numbers. Blank is no picks.
 */
export function parsePicks(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length > MAX_PICKS || parts.some((part) => !/^\d{1,7}$/.test(part))) return null;
  return parts.map(Number);
}

/**
 * Why these chosen numbers cannot go with `entries` entries of this draw, or null: the draw must
 * allow picks, each number be within it and chosen once, and no more numbers than entries.
 */
export function picksProblem(
  draw: Pick<DrawForEntry, "id" | "allowPicks" | "totalEntries">,
  picks: readonly number[],
  entries: number,
): EntryProblem | null {
  const drawId = draw.id;
  if (picks.length === 0) return null;
  if (!draw.allowPicks) return { code: "picks", message: "This draw chooses every number at random", drawId };
  const seen = new Set<number>();
  for (const number of picks) {
    if (!Number.isInteger(number) || number < 1 || number > draw.totalEntries) {
      return {
        code: "picks",
        message: `Choose numbers from 1 to ${formatCount(draw.totalEntries)}`,
        drawId,
      };
    }
    if (seen.has(number)) return { code: "picks", message: `You chose ${number} twice`, drawId };
    seen.add(number);
  }
  if (picks.length > entries) {
    return {
      code: "picks",
      message: `You chose ${countOf(picks.length, "number", "numbers")} for ${countOf(entries, "entry", "entries")}`,
      drawId,
    };
  }
  return null;
}

/** "Number 77 is taken", "Numbers 7 and 77 are taken": for numbers someone else has or holds. */
export function takenProblem(drawId: string, taken: readonly number[]): EntryProblem | null {
  if (taken.length === 0) return null;
  const list =
    taken.length === 1 ? String(taken[0]) : `${taken.slice(0, -1).join(", ")} and ${taken[taken.length - 1]}`;
  return {
    code: "taken",
    message: `${plural(taken.length, "Number", "Numbers")} ${list} ${plural(taken.length, "is", "are")} already taken: choose another`,
    drawId,
  };
}

/**
 * What a visitor chose on a draw's form before being asked to sign in: carried in the address
 * they come back to, so the draw opens again with the same answer, bundle and numbers.
 */
export type EntryChoice = { answer: number | null; bundle: number | null; picks: string; adult: boolean };

/** The query that carries `choice` through sign-in ("?answer=1&bundle=5"); empty parts are left out. */
export function entryChoiceQuery(choice: EntryChoice) {
  const query = new URLSearchParams();
  if (choice.answer !== null) query.set("answer", String(choice.answer));
  if (choice.bundle !== null) query.set("bundle", String(choice.bundle));
  if (choice.picks) query.set("picks", choice.picks);
  if (choice.adult) query.set("adult", "yes");
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * The choice an address carries, kept only where it fits this draw: an answer among its
 * options, a bundle it sells, numbers written as numbers. Anything else is dropped, not shown.
 */
export function entryChoiceFrom(
  query: URLSearchParams,
  draw: { options: readonly unknown[]; bundles: readonly DrawBundle[] },
): EntryChoice {
  const whole = (name: string) => {
    const text = query.get(name) ?? "";
    return /^\d{1,4}$/.test(text) ? Number(text) : null;
  };
  const answer = whole("answer");
  const bundle = whole("bundle");
  const picks = parsePicks((query.get("picks") ?? "").slice(0, 2000));
  return {
    answer: answer !== null && answer < draw.options.length ? answer : null,
    bundle: draw.bundles.some((offered) => offered.entries === bundle) ? bundle : null,
    picks: picks ? picks.join(", ") : "",
    adult: query.get("adult") === "yes",
  };
}
