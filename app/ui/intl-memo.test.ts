import { afterEach, describe, expect, it, vi } from "vitest";

// The module keeps what it read from the page: each test loads it afresh.
async function freshMemo() {
  vi.resetModules();
  return import("./intl-memo");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("intlMemo", () => {
  it("on the server, records each answer of the render being recorded", async () => {
    const { intlMemo, intlMemoBlock, recordIntlAnswers } = await freshMemo();
    const answers = new Map<string, unknown>();
    recordIntlAnswers(() => answers);
    expect(intlMemo("money GBP 1250 false", () => "£12.50")).toBe("£12.50");
    expect(intlMemo("parts UTC 0", () => ({ day: "1", month: "January" }))).toEqual({ day: "1", month: "January" });
    expect(Object.fromEntries(answers)).toEqual({
      "money GBP 1250 false": "£12.50",
      "parts UTC 0": { day: "1", month: "January" },
    });
    expect(intlMemoBlock(new Map(), "n")).toBe("");
    // A text can never close the block early.
    expect(intlMemoBlock(new Map([["k", "</script><script>alert(1)"]]), "n")).toBe(
      '<script type="application/json" id="intl-memo" nonce="n">{"k":"\\u003c/script>\\u003cscript>alert(1)"}</script>',
    );
  });

  it("in the browser, answers from the page's block without computing, and computes what it lacks", async () => {
    const block = { textContent: JSON.stringify({ "count 1200": "1,200" }) };
    const getElementById = vi.fn((id: string) => (id === "intl-memo" ? block : null));
    vi.stubGlobal("document", { getElementById });
    const { intlMemo } = await freshMemo();
    const compute = vi.fn(() => "computed");
    expect(intlMemo("count 1200", compute)).toBe("1,200");
    expect(compute).not.toHaveBeenCalled();
    expect(intlMemo("count 7", compute)).toBe("computed");
    expect(intlMemo("count 1200", compute)).toBe("1,200");
    expect(getElementById).toHaveBeenCalledTimes(1);
  });

  it("in the browser, looks again while the block has not arrived, and survives a broken one", async () => {
    let block: { textContent: string } | null = null;
    vi.stubGlobal("document", { getElementById: () => block });
    const { intlMemo } = await freshMemo();
    expect(intlMemo("day UTC 0", () => "1 January 1970")).toBe("1 January 1970");
    block = { textContent: JSON.stringify({ "day UTC 0": "from the page" }) };
    expect(intlMemo("day UTC 0", () => "computed")).toBe("from the page");

    block = { textContent: "{not json" };
    const again = await freshMemo();
    expect(again.intlMemo("day UTC 0", () => "computed")).toBe("computed");
  });
});
