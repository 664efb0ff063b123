/**
 * The carriers staff post merch with, and where each one lets the buyer follow a parcel
 * (docs/fulfilment.md). `{n}` is replaced by the tracking number; "other" has no pattern: staff
 * paste the tracking page's address instead.
 */
export const CARRIERS = {
  royal_mail: { label: "Royal Mail", pattern: "https://www.royalmail.com/track-your-item#/tracking-results/{n}" },
  dpd: { label: "DPD", pattern: "https://track.dpd.co.uk/parcels/{n}" },
  evri: { label: "Evri", pattern: "https://www.evri.com/track/parcel/{n}" },
  dhl: { label: "DHL", pattern: "https://www.dhl.com/gb-en/home/tracking/tracking-parcel.html?tracking-id={n}" },
  ups: { label: "UPS", pattern: "https://www.ups.com/track?loc=en_GB&tracknum={n}" },
  parcelforce: { label: "Parcelforce", pattern: "https://www.parcelforce.com/track-trace?trackNumber={n}" },
  other: { label: "Other", pattern: null },
} as const satisfies Record<string, { label: string; pattern: string | null }>;

export type Carrier = keyof typeof CARRIERS;
export const CARRIER_IDS = Object.keys(CARRIERS) as Carrier[];

function isCarrier(value: unknown): value is Carrier {
  return typeof value === "string" && Object.hasOwn(CARRIERS, value);
}

/** "ab 1234 5678 9gb" → "AB123456789GB": what staff type or scan, without spaces. */
export function normaliseTrackingNumber(input: string) {
  return input.replace(/[\s-]+/g, "").toUpperCase();
}

/** Letters and digits, 6 to 40 of them: every listed carrier's numbers fit. */
export const TRACKING_NUMBER = /^[A-Z0-9]{6,40}$/;

/** The carrier's public tracking page for this parcel; null for "other" (staff give the link). */
export function trackingUrlFor(carrier: Carrier, trackingNumber: string): string | null {
  const pattern = CARRIERS[carrier].pattern;
  if (!pattern) return null;
  return pattern.replace("{n}", encodeURIComponent(normaliseTrackingNumber(trackingNumber)));
}

/** A tracking page given by staff: an absolute https address with a host, nothing else. */
export function isHttpsUrl(input: string) {
  try {
    const url = new URL(input);
    return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
  } catch {
    return false;
  }
}

export function carrierLabel(carrier: string | null) {
  return carrier && isCarrier(carrier) ? CARRIERS[carrier].label : (carrier ?? "");
}
