import { intlMemo } from "./intl-memo";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "12 November 2026": the day `date` falls on in `timeZone`. */
export function formatDay(date: Date, timeZone: string) {
  return intlMemo(`day ${timeZone} ${date.getTime()}`, () => {
    let formatter = formatters.get(timeZone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone });
      formatters.set(timeZone, formatter);
    }
    return formatter.format(date);
  });
}
