import { describe, expect, it } from "vitest";
import { isHttpsUrl, normaliseTrackingNumber, trackingUrlFor } from "./carriers";
import { FulfilmentActionSchema, packingListIds } from "./schemas";

const orderId = "0b5c39b9-602a-4f0e-9d00-000000000001";

describe("tracking links", () => {
  it("builds each listed carrier's link from the number, without spaces", () => {
    expect(trackingUrlFor("royal_mail", "ab 1234 5678 9gb")).toBe(
      "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
    );
    expect(trackingUrlFor("dpd", "15501234567890")).toBe("https://track.dpd.co.uk/parcels/15501234567890");
    expect(trackingUrlFor("evri", "H01abc")).toBe("https://www.evri.com/track/parcel/H01ABC");
    expect(trackingUrlFor("other", "123456")).toBeNull();
    expect(normaliseTrackingNumber(" 1z-999 aa1 ")).toBe("1Z999AA1");
  });

  it("takes only https addresses for another carrier", () => {
    expect(isHttpsUrl("https://parcels.example/t/1")).toBe(true);
    for (const bad of [
      "http://parcels.example/t/1",
      "javascript:alert(1)",
      "parcels.example",
      "https://user:pw@parcels.example/",
    ]) {
      expect(isHttpsUrl(bad)).toBe(false);
    }
  });
});

describe("the ship form", () => {
  const parse = (form: Record<string, string>) =>
    FulfilmentActionSchema.safeParse({ intent: "ship", orderId, ...form });
  const messages = (result: ReturnType<typeof parse>) =>
    result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));

  it("accepts a carrier and a tracking number, normalised", () => {
    const result = parse({ carrier: "royal_mail", trackingNumber: "ab 123 456 789 gb" });
    expect(result.success && result.data).toMatchObject({ trackingNumber: "AB123456789GB" });
  });

  it("says what is wrong with each field", () => {
    expect(messages(parse({ carrier: "pigeon", trackingNumber: "" }))).toEqual({
      carrier: "Choose the carrier",
      trackingNumber: "Enter the tracking number",
    });
    expect(messages(parse({ carrier: "dpd", trackingNumber: "12<>" }))).toEqual({
      trackingNumber: "Use the letters and digits of the tracking number (6 to 40)",
    });
    expect(messages(parse({ carrier: "other", trackingNumber: "ABC123456" }))).toEqual({
      trackingUrl: "Enter the carrier's tracking page address",
    });
    expect(
      messages(parse({ carrier: "other", trackingNumber: "ABC123456", trackingUrl: "http://x.example/1" })),
    ).toEqual({
      trackingUrl: "Use a full https:// address",
    });
  });

  it("reads a packing list's order ids and ignores the rest", () => {
    expect(packingListIds(`${orderId.toUpperCase()}, nonsense,${orderId}`)).toEqual([orderId]);
    expect(packingListIds(null)).toEqual([]);
  });
});
