import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { articleFormSchema } from "~/features/articles/schemas";
import { drawFormFields } from "~/features/draws/organizer/schemas";
import { eventFormFields } from "~/features/events/organizer/schemas";
import { carSchema } from "~/features/garage/schemas";
import { productSchema, shopSettingsSchema, variantSchema } from "~/features/shop/schemas";
import { moneyField, wholeNumber } from "./fields";
import { isUsableSlug, numberedSlug, slugify } from "./slug";

/** The first message `schema` gives for `value`, or null when it accepts it. */
function messageFor(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

// The same mistake on any form gets the same words: one field of each kind, taken from every
// form that has one, is given the same bad value.
describe("one wording per rule, on every form", () => {
  const events = eventFormFields({ currency: "GBP" }).shape;
  const draws = drawFormFields({ currency: "GBP" }).shape;
  const articles = articleFormSchema.shape;
  const products = productSchema.shape;
  const variants = variantSchema({ optionNames: ["Size"], currency: "GBP" }).shape;
  const shopSettings = shopSettingsSchema({ currency: "GBP" }).shape;
  const cars = carSchema().shape;

  it("says how long text may be in the same words", () => {
    const long = "x".repeat(100_001);
    for (const [field, max] of [
      [events.title, 120],
      [draws.title, 120],
      [articles.title, 140],
      [products.title, 120],
      [cars.make, null],
    ] as const) {
      const message = messageFor(field, long);
      expect(message).toMatch(/^Use at most [\d,]+ characters$/);
      if (max) expect(message).toBe(`Use at most ${max} characters`);
    }
  });

  it("says how an address must be written in the same words", () => {
    for (const field of [events.slug, draws.slug, articles.slug, products.slug]) {
      expect(messageFor(field, "Summer Meet!")).toMatch(/^Use lowercase letters, numbers and single hyphens, like /);
    }
  });

  it("asks for whole numbers and amounts in the same words", () => {
    expect(messageFor(wholeNumber(1, 50, "the most per order"), 2.5)).toBe(
      "Enter the most per order as a whole number",
    );
    expect(messageFor(variants.maxPerOrder, 2.5)).toBe("Enter the most per order as a whole number");
    expect(messageFor(variants.maxPerOrder, 5000)).toBe("Enter at most 1,000");
    expect(messageFor(wholeNumber(1, 50, "the most per order"), 500)).toBe("Enter at most 50");
    expect(messageFor(moneyField("GBP", "Enter a price"), "12.3.4")).toMatch(/^Enter an amount like 12\.50/);
    expect(messageFor(variants.price, "12.3.4")).toBe("Enter an amount like 12.50 in £ (0 for free)");
    expect(messageFor(shopSettings.flatFee, "12.3.4")).toBe("Enter an amount like 12.50 in £ (0 for free)");
    expect(messageFor(events.applicationFee, "12.3.4")).toBe("Enter an amount like 12.50 in £ (0 for free)");
    expect(messageFor(draws.prizeValue, "12.3.4")).toBe("Enter an amount like 12.50 in £ (0 for free)");
  });

  it("refuses line breaks and markup characters in one-line text in the same words", () => {
    expect(messageFor(events.title, "Summer\nMeet")).toBe("Use one line of ordinary text");
    expect(messageFor(draws.title, "Summer\nMeet")).toBe("Use one line of ordinary text");
    expect(messageFor(articles.title, "Summer\nMeet")).toBe("Use one line of ordinary text");
    expect(messageFor(products.title, "Summer\nTee")).toBe("Use one line of ordinary text");
    expect(messageFor(variants.sku, "TEE\nM")).toBe("Use one line of ordinary text");
    expect(messageFor(events.title, "<b>Meet</b>")).toBe("Leave out < and >");
    expect(messageFor(products.title, "<b>Tee</b>")).toBe("Leave out < and >");
  });
});

describe("address words", () => {
  it("are made from a title the same way in every area", () => {
    const options = { max: 80, fallback: "event" };
    expect(slugify("Cars & Coffee: Brooklands!", options)).toBe("cars-and-coffee-brooklands");
    expect(slugify("  Rétro Rallye — Nürburgring 2027 ", options)).toBe("retro-rallye-nurburgring-2027");
    expect(slugify("Mike's V8 Night", options)).toBe("mikes-v8-night");
    expect(slugify("🚗🚗🚗", { max: 80, fallback: "draw" })).toBe("draw");
    expect(slugify(`${"a".repeat(50)} ${"b".repeat(50)}`, options)).toBe(`${"a".repeat(50)}-${"b".repeat(29)}`);
    expect(slugify(`${"a".repeat(79)} b`, options)).toBe("a".repeat(79));
  });

  it("are numbered within the length limit when taken", () => {
    expect(numberedSlug("summer-meet", 1, 80)).toBe("summer-meet");
    expect(numberedSlug("summer-meet", 2, 80)).toBe("summer-meet-2");
    expect(numberedSlug("a".repeat(80), 12, 80)).toBe(`${"a".repeat(77)}-12`);
  });

  it("are refused when they would shadow a page or look like an id", () => {
    const rules = { max: 80, reserved: new Set(["new"]) };
    expect(isUsableSlug("summer-meet", rules)).toBe(true);
    expect(isUsableSlug("new", rules)).toBe(false);
    expect(isUsableSlug("3f2b8c1e-0000-4000-8000-000000000000", rules)).toBe(false);
    expect(isUsableSlug("Summer-Meet", rules)).toBe(false);
  });
});
