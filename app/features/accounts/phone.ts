import {
  AsYouType,
  type CountryCallingCode,
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from "libphonenumber-js/core";
// The smallest metadata set (about 20 kB gzipped): enough to parse, format and check lengths.
import metadata from "libphonenumber-js/min/metadata";
import { z } from "zod";
import { COUNTRY_NAMES } from "./country-names";
import { redirectToField } from "./schemas";

// Phone number rules shared by the browser and the server, for the phone field (a country
// dropdown and the number): at most 25 characters typed, national or international format,
// national number of 2 to 17 digits, input trimmed at 250 characters, stored as E.164.

export type { CountryCode };

export const PHONE_FIELD_MAX_LENGTH = 25;
const PHONE_INPUT_LIMIT = 250;
const NATIONAL_NUMBER_MIN_DIGITS = 2;
const NATIONAL_NUMBER_MAX_DIGITS = 17;
export const PHONE_PLACEHOLDER = "Enter a phone number";

export type Country = { code: CountryCode; name: string; callingCode: string; flag: string };

/** The regional-indicator emoji of a two-letter code ("GB" → 🇬🇧). */
export function flagEmoji(code: string) {
  return String.fromCodePoint(...[...code.toUpperCase()].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

export function isCountry(code: string): code is CountryCode {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code as CountryCode, metadata);
}

/** Every region with a dialling code, sorted by English name: the dropdown's options. */
export const COUNTRIES: readonly Country[] = COUNTRY_NAMES.filter(([code]) => isCountry(code)).map(([code, name]) => ({
  code: code as CountryCode,
  name,
  callingCode: getCountryCallingCode(code as CountryCode, metadata),
  flag: flagEmoji(code),
}));

const namesByCode = new Map(COUNTRIES.map((country) => [country.code, country.name]));

export function countryName(code: string) {
  return namesByCode.get(code as CountryCode) ?? code;
}

/** The main region of a dialling code (+44 → GB, +1 → US), as the library's metadata orders them. */
function mainCountryOf(callingCode: string | undefined): CountryCode | undefined {
  const main = callingCode ? metadata.country_calling_codes[callingCode as CountryCallingCode]?.[0] : undefined;
  return main && isCountry(main) ? main : undefined;
}

export type ParsedPhone =
  | { ok: true; number: string; country: CountryCode | undefined }
  | { ok: false; message: string };

// Digits with the usual separators; a "+" only in front.
const PHONE_CHARACTERS = /^\+?[0-9\s().\-/]*$/;

/**
 * Reads what was typed in the phone field: a national number for `country`, or an international
 * one ("+33 6 12 34 56 78", "0033 …") whatever the country says. The check is the library's
 * `isValid()`: with the small metadata it tests the digits for some regions (the United Kingdom,
 * the United States…) and only the length for others.
 *
 * A national number that is not valid for `country` but is for `siteCountry` (the club's own
 * country) is taken as the latter: a member whose dropdown started on another country typed a
 * number the way people around the club write it.
 */
export function parsePhone(input: string, country: CountryCode, siteCountry?: string): ParsedPhone {
  const parsed = parsePhoneFor(input, country);
  if (parsed.ok || !siteCountry || siteCountry === country || !isCountry(siteCountry)) return parsed;
  if (input.trim().startsWith("+")) return parsed;
  const local = parsePhoneFor(input, siteCountry);
  return local.ok ? local : parsed;
}

function parsePhoneFor(input: string, country: CountryCode): ParsedPhone {
  const text = input.slice(0, PHONE_INPUT_LIMIT).trim();
  if (!text) return { ok: false, message: "Enter a phone number" };
  if (!PHONE_CHARACTERS.test(text)) {
    return { ok: false, message: "Use digits only (spaces, dashes and brackets are fine)" };
  }
  const international = text.startsWith("+");
  const where = () => {
    if (!international) return countryName(country);
    const formatter = new AsYouType(undefined, metadata);
    formatter.input(text);
    const region = formatter.getCountry() ?? mainCountryOf(formatter.getCallingCode());
    return region ? countryName(region) : "that country code";
  };

  const digits = text.replace(/\D/g, "").length;
  if (digits === 0) return { ok: false, message: "Enter a phone number" };
  const problem = validatePhoneNumberLength(text, { defaultCountry: country }, metadata);
  if (problem === "INVALID_COUNTRY") return { ok: false, message: "Check the country code after the +" };
  if (problem === "TOO_SHORT") return { ok: false, message: "This number is too short" };
  if (problem === "TOO_LONG") return { ok: false, message: "This number is too long" };
  if (problem) return { ok: false, message: `This is not a valid number for ${where()}` };

  const parsed = parsePhoneNumberFromString(text, { defaultCountry: country, extract: false }, metadata);
  if (!parsed?.isValid()) return { ok: false, message: `This is not a valid number for ${where()}` };
  const national = parsed.nationalNumber.length;
  if (national < NATIONAL_NUMBER_MIN_DIGITS) return { ok: false, message: "This number is too short" };
  if (national > NATIONAL_NUMBER_MAX_DIGITS) return { ok: false, message: "This number is too long" };
  return { ok: true, number: parsed.number, country: parsed.country ?? mainCountryOf(parsed.countryCallingCode) };
}

/** True for a number already in E.164 form that the rules above accept (a value sent back by the browser). */
export function isE164Phone(value: string) {
  if (!/^\+[1-9][0-9]{1,16}$/.test(value)) return false;
  const parsed = parsePhoneNumberFromString(value, { extract: false }, metadata);
  return parsed?.number === value && parsed.isValid();
}

/** The country of a number in E.164 form ("+447700900123" → "GB"), or null when it has none. */
export function countryOfPhone(e164: string): string | null {
  return parsePhoneNumberFromString(e164, { extract: false }, metadata)?.country ?? null;
}

/** "+447700900123" → "+44 7700 900123", for showing a stored number. */
export function formatPhone(e164: string) {
  return parsePhoneNumberFromString(e164, { extract: false }, metadata)?.formatInternational() ?? e164;
}

/**
 * Formats a partly typed number for `country` as the member types. An international number
 * ("+33…") also says which region it belongs to, so the dropdown can follow it.
 */
export function formatPhoneAsYouType(input: string, country: CountryCode): { text: string; country?: CountryCode } {
  const text = input.slice(0, PHONE_INPUT_LIMIT);
  if (text.trim().startsWith("+")) {
    const formatter = new AsYouType(undefined, metadata);
    const formatted = formatter.input(text);
    return { text: formatted, country: formatter.getCountry() ?? mainCountryOf(formatter.getCallingCode()) };
  }
  return { text: new AsYouType(country, metadata).input(text) };
}

/**
 * Language tags browsers and systems are set to out of the box, whatever country their user is
 * in: their region says nothing about where the member lives.
 */
const OUT_OF_THE_BOX_TAGS = new Set(["en-us"]);

/**
 * The country the dropdown starts on: the region of the first Accept-Language tag that names
 * one ("en-GB" → GB, "de-AT" → AT), else the site's own country. A tag that is only a common
 * default (`en-US`) does not outweigh the site's country. Never a third-party lookup.
 */
export function defaultCountryFromRequest(acceptLanguage: string | null | undefined, siteCountry: string): string {
  const tags = (acceptLanguage ?? "")
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/i.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of tags) {
    // language[-script][-REGION]…: the region is the first two-letter subtag after the language.
    const region = tag
      .split("-")
      .slice(1)
      .find((subtag) => /^[A-Za-z]{2}$/.test(subtag))
      ?.toUpperCase();
    if (region && isCountry(region)) {
      return OUT_OF_THE_BOX_TAGS.has(tag.toLowerCase()) && region !== siteCountry ? siteCountry : region;
    }
  }
  return siteCountry;
}

const countryField = z
  .string({ error: "Choose a country" })
  .trim()
  .toUpperCase()
  .refine(isCountry, "Choose a country from the list");

/** The phone form's two fields: a country from the dropdown and the number as typed. */
const phoneFields = { country: countryField, phone: z.string({ error: "Enter a phone number" }) };

/**
 * The refinement for an object schema built on `phoneFields`: puts the rules' message on the
 * `phone` field. (A refinement, not a transform, so Conform can still read the schema's
 * constraints; `phoneNumberOf` gives the number once the form is valid.)
 */
function checkPhoneFields(siteCountry?: string) {
  return (value: { country: unknown; phone: unknown }, ctx: z.RefinementCtx) => {
    if (typeof value.phone !== "string" || typeof value.country !== "string" || !isCountry(value.country)) return;
    const parsed = parsePhone(value.phone, value.country, siteCountry);
    if (!parsed.ok) ctx.addIssue({ code: "custom", path: ["phone"], message: parsed.message });
  };
}

/** The number in E.164 and its region (an international number may name another) of valid phone fields. */
export function phoneNumberOf(value: { country: string; phone: string }, siteCountry?: string) {
  const parsed = isCountry(value.country) ? parsePhone(value.phone, value.country, siteCountry) : null;
  if (!parsed?.ok) throw new Error("phoneNumberOf needs fields that passed checkPhoneFields");
  return { phoneNumber: parsed.number, country: parsed.country ?? value.country };
}

/** The phone fields on a site in `siteCountry` (whose national numbers are read as typed). */
function phoneSchema(siteCountry?: string) {
  return z.object(phoneFields).superRefine(checkPhoneFields(siteCountry));
}

export const PhoneSchema = phoneSchema();

/** A number sent back in E.164 form (the pending number between the two steps), checked again. */
const e164Field = z
  .string({ error: "Enter your phone number again" })
  .trim()
  .refine(isE164Phone, "Enter your phone number again");

/** The code from the text message; spaces and dashes pasted with it are dropped. */
const phoneCodeField = z
  .string({ error: "Enter the 6-digit code" })
  .transform((code) => code.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[0-9]{6}$/, "Enter the 6 digits from the text message"));

/** /verifyPhone on a site in `siteCountry`: send a code to a number, confirm it, or ask for a new one. */
export function verifyPhoneSchema(siteCountry?: string) {
  return z.discriminatedUnion("intent", [
    z
      .object({ intent: z.literal("send"), ...phoneFields, redirectTo: redirectToField })
      .superRefine(checkPhoneFields(siteCountry)),
    z.object({
      intent: z.literal("confirm"),
      phoneNumber: e164Field,
      code: phoneCodeField,
      redirectTo: redirectToField,
    }),
    z.object({ intent: z.literal("resend"), phoneNumber: e164Field, redirectTo: redirectToField }),
  ]);
}

export const VerifyPhoneSchema = verifyPhoneSchema();
