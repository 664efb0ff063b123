import { describe, expect, it } from "vitest";
import { countOf, plural } from "./plural";

describe("counted nouns", () => {
  it("take the singular for one and the plural for none, several and fractions", () => {
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(0, "entry", "entries")).toBe("0 entries");
    expect(countOf(5, "entry", "entries")).toBe("5 entries");
    expect(plural(1.5, "hour", "hours")).toBe("hours");
  });

  it("group thousands as the site does everywhere else", () => {
    expect(countOf(6000, "entry", "entries")).toBe("6,000 entries");
  });
});
