import { describe, expect, it } from "vitest";
import { allowConsoleError } from "./test-setup";

describe("console.error guard", () => {
  it("collects the errors a test expects instead of failing it", () => {
    const errors = allowConsoleError();
    console.error("expected failure", { code: 42 });
    expect(errors).toEqual([["expected failure", { code: 42 }]]);
  });

  it("is opted out for one test only", () => {
    // A fresh opt-in list proves the previous test's list was dropped when it ended.
    expect(allowConsoleError()).toEqual([]);
  });
});
