import { isUuid } from "~/server/db/uuid";

/** Lowercase letters and digits in words joined by single hyphens: "summer-meet-2027". */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The address words made from a title: "Cars & Coffee: Brooklands!" → "cars-and-coffee-brooklands".
 * Accents are dropped, "&" reads "and", apostrophes vanish, anything else separates words; at
 * most `max` characters, never ending in a hyphen, and `fallback` when nothing is left.
 */
export function slugify(title: string, options: { max: number; fallback: string }) {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, options.max)
    .replace(/-+$/, "");
  return slug || options.fallback;
}

/** Whether `slug` can be a page's address words: the pattern, the length, not an area's own word, not an id. */
export function isUsableSlug(slug: string, options: { max: number; reserved: ReadonlySet<string> }) {
  return SLUG_PATTERN.test(slug) && slug.length <= options.max && !options.reserved.has(slug) && !isUuid(slug);
}

/** The nth try at a free address: "summer-meet", "summer-meet-2", "summer-meet-3"… each within `max`. */
export function numberedSlug(base: string, n: number, max: number) {
  if (n === 1) return base.slice(0, max).replace(/-+$/, "");
  const suffix = `-${n}`;
  return `${base.slice(0, max - suffix.length).replace(/-+$/, "")}${suffix}`;
}
