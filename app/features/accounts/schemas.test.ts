import { describe, expect, it } from "vitest";
import { estimatePasswordStrength } from "./password-strength";
import { isCommonPassword } from "./passwords.server";
import { CreateAccountSchema, dateOfBirthField, ProfileSchema } from "./schemas";

const valid = { name: "Sam Driver", email: "Sam@Example.com ", password: "correct horse battery", terms: "on" };

function fieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

describe("CreateAccountSchema", () => {
  it("accepts a good sign-up and normalises the email", () => {
    const result = CreateAccountSchema.safeParse(valid);
    expect(result.success).toBe(true);
    expect(result.data?.email).toBe("sam@example.com");
  });

  it("explains each bad field", () => {
    const result = CreateAccountSchema.safeParse({ name: " ", email: "nope", password: "short", terms: undefined });
    expect(fieldErrors(result)).toEqual({
      name: "Enter your name",
      email: "Enter an email address like name@example.com",
      password: "Use at least 10 characters",
      terms: "Accept the terms and the privacy notice to create an account",
    });
  });

  it("refuses passwords over 128 characters, markup in names and huge input", () => {
    const result = CreateAccountSchema.safeParse({
      ...valid,
      name: "<script>alert(1)</script>",
      password: "x".repeat(129),
      email: `${"a".repeat(1_000_000)}@example.com`,
    });
    expect(Object.keys(fieldErrors(result)).sort()).toEqual(["email", "name", "password"]);
  });

  it("accepts unicode names", () => {
    expect(CreateAccountSchema.safeParse({ ...valid, name: "Zoë Ångström 李" }).success).toBe(true);
  });
});

describe("ProfileSchema", () => {
  it("lowercases the handle and strips an Instagram URL to the handle", () => {
    const result = ProfileSchema.safeParse({
      handle: "SamsGarage",
      name: "Sam",
      instagram: "https://www.instagram.com/sams.garage/",
    });
    expect(result.data).toMatchObject({ handle: "samsgarage", instagram: "sams.garage", town: null });
  });

  it("refuses handles with spaces or symbols", () => {
    expect(ProfileSchema.safeParse({ handle: "sam garage", name: "Sam" }).success).toBe(false);
    expect(ProfileSchema.safeParse({ handle: "_sam", name: "Sam" }).success).toBe(false);
  });

  it("checks the date of birth is real and at least 13 years ago", () => {
    const field = dateOfBirthField(new Date("2026-06-01T00:00:00Z"));
    expect(field.safeParse("1990-02-28").success).toBe(true);
    expect(field.safeParse("1990-02-30").success).toBe(false);
    expect(field.safeParse("2020-01-01").success).toBe(false);
    expect(field.safeParse("").data).toBeNull();
  });
});

describe("passwords", () => {
  it("knows common passwords whatever their case", () => {
    expect(isCommonPassword("password1234")).toBe(true);
    expect(isCommonPassword("QWERTYUIOP")).toBe(true);
    expect(isCommonPassword("pitlane-member-demo")).toBe(false);
  });

  it("grades strength for the hint", () => {
    expect(estimatePasswordStrength("short").score).toBe(0);
    expect(estimatePasswordStrength("aaaaaaaaaaaa").score).toBe(1);
    expect(estimatePasswordStrength("correct horse battery staple").score).toBeGreaterThanOrEqual(3);
  });
});
