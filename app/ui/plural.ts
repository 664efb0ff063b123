import { intlMemo } from "./intl-memo";

/**
 * Counted nouns in the site's one language: "1 entry", "5 entries", "1,200 cars". The plural
 * form is chosen by the locale's rules (Intl.PluralRules), never by comparing with one, so every
 * area words the same count the same way. The rules and the number format are made on first use,
 * not when a page's script loads: the first is dear in a browser (ui/intl-memo.ts).
 */

const LOCALE = "en-GB";
let rules: Intl.PluralRules | undefined;
let numbers: Intl.NumberFormat | undefined;

/** The word that goes with `count`: `plural(2, "entry", "entries")` is "entries". */
export function plural(count: number, one: string, other: string) {
  rules ??= new Intl.PluralRules(LOCALE);
  return rules.select(count) === "one" ? one : other;
}

/** A count with its thousands separated: `formatCount(1200)` is "1,200". */
export function formatCount(count: number) {
  return intlMemo(`count ${count}`, () => {
    numbers ??= new Intl.NumberFormat(LOCALE);
    return numbers.format(count);
  });
}

/** The count and its word: `countOf(1200, "car", "cars")` is "1,200 cars". */
export function countOf(count: number, one: string, other: string) {
  return `${formatCount(count)} ${plural(count, one, other)}`;
}
