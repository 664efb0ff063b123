import { getZodConstraint } from "@conform-to/zod/v4";
import { getCountries } from "libphonenumber-js/core";
import metadata from "libphonenumber-js/min/metadata";
import { describe, expect, it } from "vitest";
import {
  COUNTRIES,
  countryName,
  defaultCountryFromRequest,
  flagEmoji,
  formatPhone,
  formatPhoneAsYouType,
  isE164Phone,
  PhoneSchema,
  parsePhone,
  phoneNumberOf,
  VerifyPhoneSchema,
  verifyPhoneSchema,
} from "./phone";

describe("parsePhone", () => {
  it("reads a national number for the chosen country and gives E.164", () => {
    expect(parsePhone("07400 123456", "GB")).toEqual({ ok: true, number: "+447400123456", country: "GB" });
    expect(parsePhone("(07400) 123-456", "GB")).toEqual({ ok: true, number: "+447400123456", country: "GB" });
    expect(parsePhone("06 12 34 56 78", "FR")).toEqual({ ok: true, number: "+33612345678", country: "FR" });
    expect(parsePhone("(213) 373-4253", "US")).toEqual({ ok: true, number: "+12133734253", country: "US" });
  });

  it("takes a national number of the site's country as typed when it is not valid for the chosen one", () => {
    // A UK member whose dropdown started on the United States.
    expect(parsePhone("07400 123456", "US")).toEqual({ ok: false, message: "This number is too long" });
    expect(parsePhone("07400 123456", "US", "GB")).toEqual({ ok: true, number: "+447400123456", country: "GB" });
    // A number valid for the chosen country stays that country's.
    expect(parsePhone("(213) 373-4253", "US", "GB")).toEqual({ ok: true, number: "+12133734253", country: "US" });
    // Not valid for either: the chosen country's message.
    expect(parsePhone("12", "US", "GB")).toEqual(parsePhone("12", "US"));
    // An international number is never read as national.
    expect(parsePhone("+1 07400 123456", "US", "GB").ok).toBe(false);
  });

  it("reads a national number of the site's country in the /verifyPhone form", () => {
    const form = { intent: "send", country: "US", phone: "07400 123456" };
    expect(VerifyPhoneSchema.safeParse(form).success).toBe(false);
    const parsed = verifyPhoneSchema("GB").safeParse(form);
    expect(parsed.success).toBe(true);
    if (parsed.success && parsed.data.intent === "send") {
      expect(phoneNumberOf(parsed.data, "GB")).toEqual({ phoneNumber: "+447400123456", country: "GB" });
    }
  });

  it("reads an international number whatever the chosen country, and names its region", () => {
    expect(parsePhone("+33 6 12 34 56 78", "GB")).toEqual({ ok: true, number: "+33612345678", country: "FR" });
    expect(parsePhone("+44 7400 123456", "DE")).toEqual({ ok: true, number: "+447400123456", country: "GB" });
    // The international dialling prefix of the chosen country works as a "+".
    expect(parsePhone("0033 6 12 34 56 78", "GB")).toEqual({ ok: true, number: "+33612345678", country: "FR" });
  });

  it("asks for a number when there is none", () => {
    expect(parsePhone("", "GB")).toEqual({ ok: false, message: "Enter a phone number" });
    expect(parsePhone("   ", "GB")).toEqual({ ok: false, message: "Enter a phone number" });
    expect(parsePhone("+", "GB")).toEqual({ ok: false, message: "Enter a phone number" });
  });

  it("refuses letters and markup", () => {
    const message = "Use digits only (spaces, dashes and brackets are fine)";
    expect(parsePhone("1-800-FLOWERS", "US")).toEqual({ ok: false, message });
    expect(parsePhone("<script>07700</script>", "GB")).toEqual({ ok: false, message });
    expect(parsePhone("07400 123456 ext 5", "GB")).toEqual({ ok: false, message });
  });

  it("keeps the national number between 2 and 17 digits", () => {
    expect(parsePhone("1", "GB")).toEqual({ ok: false, message: "This number is too short" });
    expect(parsePhone("123", "GB")).toEqual({ ok: false, message: "This number is too short" });
    expect(parsePhone("123456789012345678", "GB")).toEqual({ ok: false, message: "This number is too long" });
    expect(parsePhone("+44 1234 5678 9012 3456 78", "GB")).toEqual({ ok: false, message: "This number is too long" });
  });

  it("names the country whose rules a number breaks", () => {
    const notUk = { ok: false, message: "This is not a valid number for United Kingdom" };
    expect(parsePhone("0770 090 01", "GB")).toEqual(notUk);
    // Ofcom's range for drama is not a real number.
    expect(parsePhone("07700 900123", "GB")).toEqual(notUk);
    expect(parsePhone("+44 7700 900123", "FR")).toEqual(notUk);
    expect(parsePhone("+33 0 12 34 56 78", "GB")).toEqual({
      ok: false,
      message: "This is not a valid number for France",
    });
    expect(parsePhone("(123) 456-7890", "US")).toEqual({
      ok: false,
      message: "This is not a valid number for United States",
    });
    expect(parsePhone("+999 1234 5678", "GB")).toEqual({ ok: false, message: "Check the country code after the +" });
  });

  it("trims the input at 250 characters before reading it", () => {
    const padded = `07400 123456${" ".repeat(240)}99999`;
    expect(padded.length).toBeGreaterThan(250);
    expect(parsePhone(padded, "GB")).toEqual({ ok: true, number: "+447400123456", country: "GB" });
  });
});

describe("PhoneSchema", () => {
  it("accepts valid fields, whose number phoneNumberOf gives in E.164 with its region", () => {
    const fields = PhoneSchema.parse({ country: "gb", phone: "07400 123456" });
    expect(fields).toEqual({ country: "GB", phone: "07400 123456" });
    expect(phoneNumberOf(fields)).toEqual({ phoneNumber: "+447400123456", country: "GB" });
    expect(phoneNumberOf(PhoneSchema.parse({ country: "GB", phone: "+33612345678" }))).toEqual({
      phoneNumber: "+33612345678",
      country: "FR",
    });
  });

  it("leaves the form's constraints readable by Conform", () => {
    expect(getZodConstraint(PhoneSchema)).toMatchObject({ country: { required: true }, phone: { required: true } });
    expect(Object.keys(getZodConstraint(VerifyPhoneSchema))).toEqual(
      expect.arrayContaining(["intent", "country", "phone", "phoneNumber", "code"]),
    );
  });

  it("puts each message on its field", () => {
    const issues = (input: unknown) =>
      PhoneSchema.safeParse(input).error?.issues.map((issue) => ({ path: issue.path, message: issue.message }));
    expect(issues({ country: "GB" })).toEqual([{ path: ["phone"], message: "Enter a phone number" }]);
    expect(issues({ country: "GB", phone: "0770 090 01" })).toEqual([
      { path: ["phone"], message: "This is not a valid number for United Kingdom" },
    ]);
    expect(issues({ country: "ZZ", phone: "07400 123456" })).toEqual([
      { path: ["country"], message: "Choose a country from the list" },
    ]);
    expect(issues({ phone: "07400 123456" })).toEqual([{ path: ["country"], message: "Choose a country" }]);
    expect(issues({})).toEqual([
      { path: ["country"], message: "Choose a country" },
      { path: ["phone"], message: "Enter a phone number" },
    ]);
  });
});

describe("isE164Phone", () => {
  it("accepts only a possible number written in E.164", () => {
    expect(isE164Phone("+447400123456")).toBe(true);
    expect(isE164Phone("+33612345678")).toBe(true);
    expect(isE164Phone("447400123456")).toBe(false);
    expect(isE164Phone("+44 7400 123456")).toBe(false);
    expect(isE164Phone("+44770")).toBe(false);
    expect(isE164Phone("+447700900123")).toBe(false);
    expect(isE164Phone("+4407700900123")).toBe(false);
    expect(isE164Phone("")).toBe(false);
  });
});

describe("formatting", () => {
  it("formats as the member types, in the chosen country's style", () => {
    expect(formatPhoneAsYouType("07400123456", "GB")).toEqual({ text: "07400 123456" });
    expect(formatPhoneAsYouType("2133734253", "US")).toEqual({ text: "(213) 373-4253" });
    expect(formatPhoneAsYouType("0770", "GB")).toEqual({ text: "0770" });
  });

  it("follows an international number to its region", () => {
    expect(formatPhoneAsYouType("+33612345678", "GB")).toEqual({ text: "+33 6 12 34 56 78", country: "FR" });
    expect(formatPhoneAsYouType("+447400", "FR")).toEqual({ text: "+44 7400", country: "GB" });
  });

  it("shows a stored number in international form", () => {
    expect(formatPhone("+447400123456")).toBe("+44 7400 123456");
  });
});

describe("countries", () => {
  it("lists every region of the phone metadata once, named and sorted by name", () => {
    const codes = COUNTRIES.map((country) => country.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual([...getCountries(metadata)].sort());
    for (const country of COUNTRIES) expect(country.name, country.code).not.toBe(country.code);
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });

  it("has a flag, a name and a dialling code for each", () => {
    expect(COUNTRIES.find((country) => country.code === "GB")).toEqual({
      code: "GB",
      name: "United Kingdom",
      callingCode: "44",
      flag: "🇬🇧",
    });
    expect(flagEmoji("at")).toBe("🇦🇹");
    expect(countryName("DE")).toBe("Germany");
  });
});

describe("defaultCountryFromRequest", () => {
  it("takes the region of the first language tag that names one", () => {
    expect(defaultCountryFromRequest("en-GB,en;q=0.9", "US")).toBe("GB");
    expect(defaultCountryFromRequest("de-AT", "GB")).toBe("AT");
    expect(defaultCountryFromRequest("fr, fr-CA;q=0.8, en-US;q=0.5", "GB")).toBe("CA");
    expect(defaultCountryFromRequest("zh-Hant-TW", "GB")).toBe("TW");
    expect(defaultCountryFromRequest("pt-br", "GB")).toBe("BR");
  });

  it("follows the quality weights, not just the order", () => {
    expect(defaultCountryFromRequest("en-US;q=0.3, de-DE;q=0.9", "GB")).toBe("DE");
    expect(defaultCountryFromRequest("en-US;q=0, de-DE;q=0.1", "GB")).toBe("DE");
  });

  it("does not let an out-of-the-box en-US outweigh the site's country", () => {
    expect(defaultCountryFromRequest("en-US,en;q=0.9", "GB")).toBe("GB");
    expect(defaultCountryFromRequest("en-us", "FR")).toBe("FR");
    expect(defaultCountryFromRequest("en-US", "US")).toBe("US");
    // A region the member chose still counts.
    expect(defaultCountryFromRequest("en-CA,en-US;q=0.9", "GB")).toBe("CA");
  });

  it("falls back to the site default without a usable region", () => {
    expect(defaultCountryFromRequest(null, "GB")).toBe("GB");
    expect(defaultCountryFromRequest("", "FR")).toBe("FR");
    expect(defaultCountryFromRequest("en", "GB")).toBe("GB");
    expect(defaultCountryFromRequest("*", "GB")).toBe("GB");
    // A numeric region (Latin America) and an unknown one are not countries.
    expect(defaultCountryFromRequest("es-419, en-ZZ", "GB")).toBe("GB");
    expect(defaultCountryFromRequest("x".repeat(5000), "GB")).toBe("GB");
  });
});
