/**
 * Money is integer minor units (pence) in the site's one currency.
 * These helpers are the only place amounts turn into text or back.
 */

import { intlMemo } from "./intl-memo";

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, whole: boolean) {
  const key = `${currency}:${whole}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat("en-GB", {
      style: "currency",
      currency,
      minimumFractionDigits: whole ? 0 : undefined,
      maximumFractionDigits: whole ? 0 : undefined,
    });
    formatters.set(key, cached);
  }
  return cached;
}

/** How many minor units make one major unit: 100 for GBP and EUR, 1 for JPY. */
export function minorUnitsPerMajor(currency: string) {
  return 10 ** (formatter(currency, false).resolvedOptions().maximumFractionDigits ?? 2);
}

/** "£12.50"; whole amounts drop the pence ("£15") where a price is shown as a headline. */
export function formatMoney(minor: number, currency: string, options: { compact?: boolean } = {}) {
  const compact = options.compact === true;
  return intlMemo(`money ${currency} ${minor} ${compact}`, () => {
    const perMajor = minorUnitsPerMajor(currency);
    const whole = compact && minor % perMajor === 0;
    return formatter(currency, whole).format(minor / perMajor);
  });
}

/** The currency's symbol ("£"), for labels next to price inputs. */
export function currencySymbol(currency: string) {
  return intlMemo(
    `symbol ${currency}`,
    () =>
      formatter(currency, true)
        .formatToParts(0)
        .find((part) => part.type === "currency")?.value ?? currency,
  );
}

/** The largest amount a single price may be: £100,000.00 keeps totals far inside a 32-bit integer. */
export const MAX_PRICE_MINOR = 10_000_000;

/**
 * Reads a price typed by a person ("12", "12.5", "£12.50", "1,200") into minor units; null when
 * it is not a plain non-negative amount with at most two decimals.
 */
export function parseMoney(input: string): number | null {
  const cleaned = input
    .trim()
    .replace(/^[£$€]\s*/, "")
    .replace(/(\d),(?=\d{3}(\D|$))/g, "$1");
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const pence = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  return Number.isSafeInteger(pence) ? pence : null;
}

/** Minor units as a plain decimal for form inputs: 1250 → "12.50". */
export function moneyInputValue(minor: number) {
  return (minor / 100).toFixed(2);
}
