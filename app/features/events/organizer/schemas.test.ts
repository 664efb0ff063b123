import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { coverSchema, eventFormSchema, isUsableSlug, ticketTypeSchema } from "./schemas";

const NOW = new Date("2027-01-10T12:00:00Z");
const schema = eventFormSchema({ currency: "GBP", now: NOW });

const valid = {
  title: "Summer Sunday Meet",
  type: "meet",
  timeZone: "Europe/London",
  startsAt: "2027-06-12T09:00",
  endsAt: "2027-06-12T16:00",
  venue: "Brooklands Museum",
  town: "Weybridge",
};

/** The first message for each field that failed. */
function errorsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0] ?? "")] ??= issue.message;
  return errors;
}

describe("the event form", () => {
  it("reads times in the event's own zone", () => {
    const london = schema.parse(valid);
    expect(london.startsAt.toISOString()).toBe("2027-06-12T08:00:00.000Z");
    const tokyo = schema.parse({ ...valid, timeZone: "Asia/Tokyo" });
    expect(tokyo.startsAt.toISOString()).toBe("2027-06-12T00:00:00.000Z");
    expect(london.slug).toBeNull();
    expect(london.capacity).toBeNull();
    expect(london.applicationFee).toBe(0);
  });

  it("refuses an end before the start, events over 14 days, and dates that do not exist", () => {
    expect(errorsOf(schema.safeParse({ ...valid, endsAt: "2027-06-12T08:00" }))).toEqual({
      endsAt: "The end must be after the start",
    });
    expect(errorsOf(schema.safeParse({ ...valid, endsAt: "2027-06-27T10:00" }))).toEqual({
      endsAt: "An event can last at most 14 days",
    });
    expect(errorsOf(schema.safeParse({ ...valid, startsAt: "2027-02-30T09:00" }))).toEqual({
      startsAt: "Enter a real date and time like 2027-06-12 09:30",
    });
    expect(errorsOf(schema.safeParse({ ...valid, startsAt: "next tuesday" }))).toEqual({
      startsAt: "Enter a date and time like 2027-06-12 09:30",
    });
    expect(errorsOf(schema.safeParse({ ...valid, startsAt: "1999-06-12T09:00", endsAt: "1999-06-12T16:00" }))).toEqual({
      startsAt: "Enter a date in 2000 or later",
    });
    expect(errorsOf(schema.safeParse({ ...valid, startsAt: "2040-06-12T09:00", endsAt: "2040-06-12T10:00" }))).toEqual({
      startsAt: "Enter a date at most 5 years from now",
    });
  });

  it("explains a time skipped when the clocks go forward", () => {
    const errors = errorsOf(schema.safeParse({ ...valid, startsAt: "2027-03-28T01:30", endsAt: "2027-03-28T05:00" }));
    expect(errors.startsAt).toBe(
      "This time does not exist in Europe/London: the clocks go forward then. Choose a time an hour later.",
    );
  });

  it("checks the sales window and the applications deadline against the event", () => {
    expect(
      errorsOf(schema.safeParse({ ...valid, salesStartAt: "2027-06-01T10:00", salesEndAt: "2027-05-01T10:00" })),
    ).toEqual({ salesEndAt: "Sales must close after they open" });
    expect(errorsOf(schema.safeParse({ ...valid, salesEndAt: "2027-06-13T10:00" }))).toEqual({
      salesEndAt: "Sales must close by the time the event ends",
    });
    expect(errorsOf(schema.safeParse({ ...valid, applicationsDeadline: "2027-07-01T10:00" }))).toEqual({
      applicationsDeadline: "The deadline must be before the event ends",
    });
  });

  it("shows every field's problem at once, the date rules included", () => {
    const errors = errorsOf(schema.safeParse({ ...valid, title: "", endsAt: "2027-06-11T09:00" }));
    expect(errors).toEqual({ title: "Enter the event's title", endsAt: "The end must be after the start" });
  });

  it("gives a field message for 5 MB of text in any field", () => {
    const huge = "x".repeat(5 * 1024 * 1024);
    const errors = errorsOf(
      schema.safeParse({
        ...valid,
        title: huge,
        summary: huge,
        description: huge,
        venue: huge,
        address: huge,
        town: huge,
        postcode: huge,
        slug: huge,
        applicationCriteria: huge,
        startsAt: huge,
        timeZone: huge,
      }),
    );
    expect(errors).toMatchObject({
      title: "Use at most 120 characters",
      summary: "Use at most 280 characters",
      description: "Use at most 20,000 characters",
      venue: "Use at most 120 characters",
      address: "Use at most 200 characters",
      town: "Use at most 80 characters",
      postcode: "Use at most 16 characters",
      slug: "Use at most 80 characters",
      applicationCriteria: "Use at most 5,000 characters",
      startsAt: "Enter a date and time like 2027-06-12 09:30",
      timeZone: "Choose a time zone from the list",
    });
  });

  it("refuses markup in names, and keeps it as plain text in the Markdown description", () => {
    expect(errorsOf(schema.safeParse({ ...valid, title: "<script>alert(1)</script>" }))).toEqual({
      title: "Leave out < and >",
    });
    expect(errorsOf(schema.safeParse({ ...valid, venue: "<img src=x onerror=alert(1)>" }))).toEqual({
      venue: "Leave out < and >",
    });
    expect(errorsOf(schema.safeParse({ ...valid, title: "Meet\u0000night" }))).toEqual({
      title: "Use one line of ordinary text",
    });
    const parsed = schema.parse({ ...valid, description: "<script>alert(1)</script> **bold**" });
    expect(parsed.description).toBe("<script>alert(1)</script> **bold**");
    expect(errorsOf(schema.safeParse({ ...valid, description: "bad\u0000byte" }))).toEqual({
      description: "Remove the invisible control characters",
    });
  });

  it("accepts only usable web addresses", () => {
    expect(schema.parse({ ...valid, slug: " Summer-Meet " }).slug).toBe("summer-meet");
    expect(errorsOf(schema.safeParse({ ...valid, slug: "new" }))).toEqual({
      slug: "This word is used by the site's own pages: choose another",
    });
    expect(errorsOf(schema.safeParse({ ...valid, slug: "calendar.ics" })).slug).toMatch(/lowercase letters/);
    expect(errorsOf(schema.safeParse({ ...valid, slug: "../admin" })).slug).toMatch(/lowercase letters/);
    expect(errorsOf(schema.safeParse({ ...valid, slug: "0f8fad5b-d9cb-469f-a165-70867728950e" }))).toEqual({
      slug: "Choose words rather than an id",
    });
    expect(isUsableSlug("summer-meet-2")).toBe(true);
    expect(isUsableSlug("search")).toBe(false);
  });

  it("checks zones, capacities, coordinates and the fee", () => {
    expect(errorsOf(schema.safeParse({ ...valid, timeZone: "Mars/Olympus_Mons" }))).toEqual({
      timeZone: "Choose a time zone from the list",
    });
    expect(errorsOf(schema.safeParse({ ...valid, capacity: 0 }))).toEqual({ capacity: "Enter at least 1" });
    expect(errorsOf(schema.safeParse({ ...valid, capacity: 100_001 }))).toEqual({ capacity: "Enter at most 100,000" });
    expect(errorsOf(schema.safeParse({ ...valid, capacity: 2.5 }))).toEqual({
      capacity: "Enter the capacity as a whole number",
    });
    expect(errorsOf(schema.safeParse({ ...valid, latitude: 91, longitude: 0 }))).toEqual({
      latitude: "Enter a latitude between -90 and 90",
    });
    expect(errorsOf(schema.safeParse({ ...valid, latitude: 51.3 }))).toEqual({
      longitude: "Enter the longitude too, or neither",
    });
    expect(errorsOf(schema.safeParse({ ...valid, applicationFee: "-5" }))).toEqual({
      applicationFee: "Enter an amount like 12.50 in £ (0 for free)",
    });
    expect(schema.parse({ ...valid, applicationFee: "£12.50" }).applicationFee).toBe(1250);
  });
});

describe("the ticket-type form", () => {
  const weekend = {
    currency: "GBP",
    timeZone: "Europe/London",
    startsAt: new Date("2027-06-12T08:00:00Z"),
    endsAt: new Date("2027-06-13T16:00:00Z"),
  };
  const tickets = ticketTypeSchema(weekend);

  it("stores pounds as pence and defaults to every day and 10 per order", () => {
    expect(tickets.parse({ name: "Weekend pass", price: "25" })).toMatchObject({
      price: 2500,
      days: ["2027-06-12", "2027-06-13"],
      maxPerOrder: 10,
      capacity: null,
      hidden: false,
    });
    expect(tickets.parse({ name: "Sunday", price: "0", days: ["2027-06-13"] })).toMatchObject({
      price: 0,
      days: ["2027-06-13"],
    });
  });

  it("takes a member price, members only and a members' presale, and refuses a member price above the price", () => {
    expect(
      tickets.parse({
        name: "Adult",
        price: "20",
        memberPrice: "15",
        membersOnly: true,
        memberSalesStartAt: "2027-05-01T09:00",
      }),
    ).toMatchObject({
      memberPrice: 1500,
      membersOnly: true,
      memberSalesStartAt: new Date("2027-05-01T08:00:00Z"),
    });
    expect(tickets.parse({ name: "Adult", price: "20" })).toMatchObject({
      memberPrice: null,
      membersOnly: false,
      memberSalesStartAt: null,
    });
    expect(errorsOf(tickets.safeParse({ name: "Adult", price: "20", memberPrice: "25" }))).toEqual({
      memberPrice: "Make the member price no more than the price",
    });
  });

  it("takes what each tier's members pay, leaves blank ones out, and refuses one above the price", () => {
    const family = { id: "5f0c1d7e-2a4b-4c6d-8e9f-0a1b2c3d4e5f", slug: "family", name: "Family" };
    const junior = { id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", slug: "junior", name: "Junior" };
    const withTiers = ticketTypeSchema({ ...weekend, tiers: [family, junior] });
    const form = (values: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries({ name: "Adult", price: "20", memberPrice: "15", ...values }))
        data.append(name, value);
      return parseWithZod(data, { schema: withTiers });
    };
    const saved = form({ [`tierPrices.${family.id}`]: "12.50", [`tierPrices.${junior.id}`]: "" });
    expect(saved.status === "success" && saved.value.tierPrices).toEqual({ [family.id]: 1250 });
    const none = form({});
    expect(none.status === "success" && none.value.tierPrices).toEqual({});
    const above = form({ [`tierPrices.${junior.id}`]: "20.01" });
    expect(above.status === "error" && above.error).toEqual({
      [`tierPrices.${junior.id}`]: ["Make what Junior members pay no more than the price"],
    });
    const elsewhere = form({ "tierPrices.someone-else": "1" });
    expect(elsewhere.status === "success" && elsewhere.value.tierPrices).toEqual({});
  });

  it("refuses negative, malformed and huge prices, and capacities out of range", () => {
    expect(errorsOf(tickets.safeParse({ name: "A", price: "-1" }))).toEqual({
      price: "Enter an amount like 12.50 in £ (0 for free)",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "12.345" }))).toEqual({
      price: "Enter an amount like 12.50 in £ (0 for free)",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "100000.01" }))).toEqual({
      price: "Enter at most £100,000.00",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "9".repeat(5_000_000) }))).toEqual({
      price: "Enter at most £100,000.00",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "1", capacity: -3 }))).toEqual({
      capacity: "Enter at least 1",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "1", capacity: 1e9 }))).toEqual({
      capacity: "Enter at most 100,000",
    });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "1", maxPerOrder: 51 }))).toEqual({
      maxPerOrder: "Enter at most 50",
    });
  });

  it("accepts only the event's days and a sales window inside the event", () => {
    expect(errorsOf(tickets.safeParse({ name: "A", price: "1", days: ["2027-06-14"] }))).toEqual({
      days: "Choose days of the event",
    });
    expect(
      errorsOf(
        tickets.safeParse({ name: "A", price: "1", salesStartAt: "2027-06-01T10:00", salesEndAt: "2027-05-01" }),
      ),
    ).toEqual({ salesEndAt: "Enter a date and time like 2027-06-12 09:30" });
    expect(errorsOf(tickets.safeParse({ name: "A", price: "1", salesEndAt: "2027-06-14T10:00" }))).toEqual({
      salesEndAt: "Sales must close by the time the event ends",
    });
  });
});

describe("the cover form", () => {
  it("needs an image the first time and always a description", () => {
    const first = coverSchema({ hasCover: false });
    expect(errorsOf(first.safeParse({ coverAlt: "Cars" }))).toEqual({ cover: "Choose an image" });
    expect(errorsOf(first.safeParse({ cover: new File(["x"], "a.jpg") }))).toEqual({
      coverAlt: "Describe the image for people who cannot see it",
    });
    expect(coverSchema({ hasCover: true }).safeParse({ coverAlt: "Cars at dusk" }).success).toBe(true);
  });
});
