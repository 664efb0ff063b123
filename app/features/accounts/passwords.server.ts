import { dictionary } from "@zxcvbn-ts/language-common";

// The common-password list of zxcvbn-ts (about 49 000 leaked passwords), kept on the server so
// browsers never download it.
let common: Set<string> | undefined;

export function isCommonPassword(password: string) {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((entry) => entry.toLowerCase()));
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  "This password is on a list of passwords that attackers try first. Choose a less common one.";
