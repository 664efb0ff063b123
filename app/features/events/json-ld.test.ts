import { describe, expect, it } from "vitest";
import { eventJsonLd, type JsonLdEvent, serializeJsonLd } from "./json-ld";

const event: JsonLdEvent = {
  slug: "silverstone-summer-festival",
  title: "Silverstone Summer Festival",
  summary: "Two days of cars and clubs on the Grand Prix circuit.",
  status: "published",
  startsAt: "2027-06-12T08:00:00.000Z",
  endsAt: "2027-06-13T17:00:00.000Z",
  timeZone: "Europe/London",
  venue: "Silverstone Circuit",
  address: "Dadford Road",
  town: "Silverstone",
  postcode: "NN12 8TN",
  cover: { hash: "abc123" },
  publishedAt: "2027-01-05T10:00:00.000Z",
};
const site = { name: "Pitlane", url: "https://club.example", currency: "GBP", countryCode: "GB" };

describe("schema.org Event data", () => {
  it("describes the event, its place, organizer and offers", () => {
    const data = eventJsonLd(
      event,
      [
        { name: "Saturday", price: 2500, state: { kind: "on_sale" }, validFrom: null },
        { name: "Weekend pass", price: 4250, state: { kind: "sold_out" }, validFrom: null },
        { name: "Late release", price: 3000, state: { kind: "not_yet" }, validFrom: "2027-05-01T09:00:00.000Z" },
      ],
      site,
    );
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Event",
      name: "Silverstone Summer Festival",
      startDate: "2027-06-12T09:00:00+01:00",
      endDate: "2027-06-13T18:00:00+01:00",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      url: "https://club.example/events/silverstone-summer-festival",
      image: ["https://club.example/media/events/abc123-1600.webp"],
      location: {
        "@type": "Place",
        name: "Silverstone Circuit",
        address: {
          "@type": "PostalAddress",
          streetAddress: "Dadford Road",
          addressLocality: "Silverstone",
          postalCode: "NN12 8TN",
          addressCountry: "GB",
        },
      },
      organizer: { "@type": "Organization", name: "Pitlane", url: "https://club.example" },
    });
    expect(data.offers).toEqual([
      {
        "@type": "Offer",
        name: "Saturday",
        price: "25.00",
        priceCurrency: "GBP",
        availability: "https://schema.org/InStock",
        validFrom: "2027-01-05T10:00:00+00:00",
        url: "https://club.example/events/silverstone-summer-festival",
      },
      expect.objectContaining({ price: "42.50", availability: "https://schema.org/SoldOut" }),
      expect.objectContaining({ availability: "https://schema.org/PreOrder", validFrom: "2027-05-01T10:00:00+01:00" }),
    ]);
  });

  it("says when an event is cancelled and leaves out what it does not know", () => {
    const data = eventJsonLd(
      { ...event, status: "cancelled", cover: { hash: null }, address: "", postcode: "", summary: "" },
      [],
      site,
    );
    expect(data.eventStatus).toBe("https://schema.org/EventCancelled");
    const json = JSON.parse(serializeJsonLd(data));
    expect(json).not.toHaveProperty("image");
    expect(json).not.toHaveProperty("description");
    expect(json.location.address).toEqual({
      "@type": "PostalAddress",
      addressLocality: "Silverstone",
      addressCountry: "GB",
    });
    expect(json.offers).toEqual([]);
  });

  it("cannot close its script element, and still reads back as the same data", () => {
    const hostile = { ...event, title: "</script><script>alert(1)</script> & more\u2028" };
    const text = serializeJsonLd(eventJsonLd(hostile, [], site));
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(text).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(text).name).toBe(hostile.title);
  });
});
