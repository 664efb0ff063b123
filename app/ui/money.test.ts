import { describe, expect, it } from "vitest";
import { currencySymbol, formatMoney, MAX_PRICE_MINOR, minorUnitsPerMajor, moneyInputValue, parseMoney } from "./money";

describe("formatMoney", () => {
  it("shows pounds and pence", () => {
    expect(formatMoney(1250, "GBP")).toBe("£12.50");
    expect(formatMoney(1, "GBP")).toBe("£0.01");
    expect(formatMoney(0, "GBP")).toBe("£0.00");
    expect(formatMoney(120000, "GBP")).toBe("£1,200.00");
  });

  it("drops the pence of whole amounts only when asked for a compact price", () => {
    expect(formatMoney(1500, "GBP", { compact: true })).toBe("£15");
    expect(formatMoney(1550, "GBP", { compact: true })).toBe("£15.50");
    expect(formatMoney(0, "GBP", { compact: true })).toBe("£0");
    expect(formatMoney(1500, "GBP")).toBe("£15.00");
  });

  it("shows refunds and the largest price without losing a penny", () => {
    expect(formatMoney(-500, "GBP")).toBe("-£5.00");
    expect(formatMoney(MAX_PRICE_MINOR, "GBP")).toBe("£100,000.00");
    expect(formatMoney(MAX_PRICE_MINOR * 1000 - 1, "GBP")).toBe("£99,999,999.99");
  });

  it("uses the configured currency's symbol", () => {
    expect(formatMoney(1250, "EUR")).toBe("€12.50");
    expect(currencySymbol("GBP")).toBe("£");
    expect(currencySymbol("EUR")).toBe("€");
  });
});

describe("parseMoney", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["0", 0],
    ["0.01", 1],
    ["0.29", 29],
    ["£12.50", 1250],
    ["£1,200.00", 120000],
    ["1,200", 120000],
    ["12,345,678.90", 1234567890],
    ["  12.50 ", 1250],
    ["007", 700],
    ["999999999.99", 99999999999],
  ])("reads %j as %i pence", (input, pence) => {
    expect(parseMoney(input)).toBe(pence);
  });

  it.each([
    "",
    " ",
    "-1",
    "£-1",
    "+1",
    "1e5",
    "12.345",
    "12.",
    ".5",
    "1,20",
    "1,2345",
    "12.5.0",
    "0x10",
    "Infinity",
    "NaN",
    "twelve",
    "12 50",
    "£12.50p",
    "１２",
    "1000000000",
    "99999999999999999999",
  ])("refuses %j", (input) => {
    expect(parseMoney(input)).toBeNull();
  });

  it("leaves the upper limit to the caller, which compares with MAX_PRICE_MINOR", () => {
    const huge = parseMoney("999999999");
    expect(huge).toBe(99999999900);
    expect(huge! > MAX_PRICE_MINOR).toBe(true);
    expect(parseMoney("100000")).toBe(MAX_PRICE_MINOR);
  });
});

describe("moneyInputValue", () => {
  it("writes minor units as a plain decimal", () => {
    expect(moneyInputValue(1250)).toBe("12.50");
    expect(moneyInputValue(5)).toBe("0.05");
    expect(moneyInputValue(0)).toBe("0.00");
  });

  it("reads back to the same pence for every price up to £1,000, with no floating-point drift", () => {
    for (let pence = 0; pence <= 100_000; pence++) {
      if (parseMoney(moneyInputValue(pence)) !== pence) throw new Error(`${pence} did not survive the round trip`);
    }
    for (const pence of [MAX_PRICE_MINOR, MAX_PRICE_MINOR - 1, 1005, 100_005, 4_503_599]) {
      expect(parseMoney(moneyInputValue(pence))).toBe(pence);
    }
  });
});

describe("edge cases of typed prices and other currencies", () => {
  it("refuses a stray leading comma and accepts a space after the symbol", () => {
    expect(parseMoney(",123")).toBeNull();
    expect(parseMoney("12,00")).toBeNull();
    expect(parseMoney("£ 12")).toBe(1200);
    expect(parseMoney("1,200.50")).toBe(120050);
  });

  it("knows currencies without minor units", () => {
    expect(minorUnitsPerMajor("GBP")).toBe(100);
    expect(minorUnitsPerMajor("JPY")).toBe(1);
    expect(formatMoney(1250, "JPY")).toBe("JP¥1,250");
  });
});
