/**
 * Counted nouns in the site's one language: "1 entry", "5 entries", "1,200 cars". The plural
 * form is chosen by the locale's rules (Intl.PluralRules), never by comparing with one, so every
 * area words the same count the same way.
 */

const LOCALE = "en-GB";
const rules = new Intl.PluralRules(LOCALE);
const numbers = new Intl.NumberFormat(LOCALE);

/** The word that goes with `count`: `plural(2, "entry", "entries")` is "entries". */
export function plural(count: number, one: string, other: string) {
  return rules.select(count) === "one" ? one : other;
}

/** The count and its word: `countOf(1200, "car", "cars")` is "1,200 cars". */
export function countOf(count: number, one: string, other: string) {
  return `${numbers.format(count)} ${plural(count, one, other)}`;
}
