import { z } from "zod";

// One schema per account form: the browser runs them for instant feedback, the server runs them
// again as the authority (the account rules are in docs/security.md).

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

const trimmed = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`);

export const emailField = z
  .string({ error: "Enter your email address" })
  .trim()
  .min(1, "Enter your email address")
  .max(254, "That email address is too long")
  .pipe(z.email({ error: "Enter an email address like name@example.com" }))
  .transform((email) => email.toLowerCase());

const newPasswordField = z
  .string({ error: "Choose a password" })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`);

/** Signing in checks the password, not its shape: only an absurd length is refused early. */
const currentPasswordField = z
  .string({ error: "Enter your password" })
  .min(1, "Enter your password")
  .max(PASSWORD_MAX, "That password is too long");

export const nameField = trimmed(80).pipe(
  z
    .string()
    .min(1, "Enter your name")
    .regex(/^[^<>{}]*$/, "Use letters, spaces and punctuation only"),
);

export const redirectToField = z.string().max(2000).optional();

export const CreateAccountSchema = z.object({
  name: z.string({ error: "Enter your name" }).pipe(nameField),
  email: emailField,
  password: newPasswordField,
  terms: z.literal("on", { error: "Accept the terms and the privacy notice to create an account" }),
  redirectTo: redirectToField,
});

export const SignInSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("password"),
    email: emailField,
    password: currentPasswordField,
    redirectTo: redirectToField,
  }),
  z.object({ intent: z.literal("magic-link"), email: emailField, redirectTo: redirectToField }),
]);

const codeField = z
  .string({ error: "Enter the code from your app" })
  .trim()
  .min(1, "Enter the code from your app")
  .max(20, "That code is too long");

/** The second step of a password sign-in: a code from the app or a recovery code. */
export const SignInCodeSchema = z.object({
  code: codeField,
  trustDevice: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  redirectTo: redirectToField,
});

/** The forms of /settings/twoFactor, told apart by their `intent`. */
export const TwoFactorSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), password: currentPasswordField }),
  z.object({
    intent: z.literal("confirm"),
    code: codeField,
    // Sent back so a wrong code shows the same set-up again.
    totpURI: z
      .string()
      .max(500)
      .regex(/^otpauth:\/\/totp\//)
      .optional(),
    recoveryCodes: z
      .string()
      .max(500)
      .optional()
      .transform((codes) => codes?.split(/\s+/).filter((code) => /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(code))),
  }),
  z.object({ intent: z.literal("recovery-codes"), password: currentPasswordField }),
  z.object({ intent: z.literal("turn-off"), password: currentPasswordField }),
]);

export const EmailLinkSchema = z.object({ email: emailField, redirectTo: redirectToField });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1).max(500),
    password: newPasswordField,
    confirm: z.string({ error: "Repeat the new password" }),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    message: "The two passwords are different",
  });

export const ChangePasswordSchema = z
  .object({
    currentPassword: currentPasswordField,
    password: newPasswordField,
    confirm: z.string({ error: "Repeat the new password" }),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    message: "The two passwords are different",
  })
  .refine((value) => value.password !== value.currentPassword, {
    path: ["password"],
    message: "Choose a password different from the current one",
  });

const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9_.]{1,22}[a-z0-9])$/;

const handleField = z
  .string({ error: "Choose a handle" })
  .trim()
  .toLowerCase()
  .min(3, "Use at least 3 characters")
  .max(24, "Use at most 24 characters")
  .regex(HANDLE_PATTERN, "Use lowercase letters, numbers, dots and underscores; start and end with a letter or number");

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .regex(/^[^<>{}]*$/, "Use letters, numbers and punctuation only")
    .optional()
    .transform((value) => value || null);

const instagramField = z
  .string()
  .trim()
  .transform((value) =>
    value
      .replace(/^@/, "")
      .replace(/^https?:\/\/(www\.)?instagram\.com\//i, "")
      .replace(/\/$/, ""),
  )
  .pipe(
    z
      .string()
      .max(30, "Instagram handles have at most 30 characters")
      .regex(/^[A-Za-z0-9._]*$/, "Use the handle only, like @my.car"),
  )
  .optional()
  .transform((value) => value || null);

/** Members must be at least 13 to hold an account; draws check 18+ separately. */
export function dateOfBirthField(today = new Date()) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || /^\d{4}-\d{2}-\d{2}$/.test(value), "Enter a date like 1990-05-31")
    .refine((value) => {
      if (value === null) return true;
      const date = new Date(`${value}T00:00:00Z`);
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
      const age = (today.getTime() - date.getTime()) / (365.2425 * 24 * 3600 * 1000);
      return age >= 13 && age <= 120;
    }, "Enter a real date of birth (you must be 13 or over)");
}

const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** The declared type is not trusted: the server checks the file's content (avatar.server.ts). */
const avatarField = z
  .file({ error: "Choose a photo" })
  .max(AVATAR_MAX_BYTES, "Choose a photo of 5 MB or less")
  .optional();

export const ProfileSchema = z.object({
  handle: handleField,
  name: z.string({ error: "Enter your name" }).pipe(nameField),
  town: optionalText(80),
  // Whether others see the town and the photo on the member's community pages.
  townPublic: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  avatarPublic: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  dateOfBirth: dateOfBirthField(),
  instagram: instagramField,
  marketingConsent: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  terms: z.literal("on").optional(),
  avatar: avatarField,
});

export type ProfileInput = z.infer<typeof ProfileSchema>;

const checkbox = z
  .literal("on")
  .optional()
  .transform((value) => value === "on");

/** The forms of /settings, told apart by their `intent`. */
export const SettingsProfileSchema = ProfileSchema.omit({ marketingConsent: true, terms: true }).extend({
  intent: z.literal("profile"),
});

const RemoveAvatarSchema = z.object({ intent: z.literal("remove-avatar") });

export const ChangeEmailSchema = z.object({
  intent: z.literal("email"),
  newEmail: emailField,
  currentPassword: currentPasswordField,
});

export const NotificationsSchema = z.object({
  intent: z.literal("notifications"),
  notifyEvents: checkbox,
  notifyDraws: checkbox,
  notifyOrders: checkbox,
  marketingConsent: checkbox,
});

export type NotificationPreferences = Omit<z.infer<typeof NotificationsSchema>, "intent">;

const UnlinkAccountSchema = z.object({
  intent: z.literal("unlink"),
  accountId: z.string().min(1).max(200),
});

export const DeleteAccountSchema = z.object({
  intent: z.literal("delete"),
  confirmation: z
    .string({ error: "Type your email address to confirm" })
    .trim()
    .min(1, "Type your email address to confirm")
    .max(254, "That email address is too long")
    .transform((value) => value.toLowerCase()),
  // Needed unless the member signed in within the last few minutes.
  currentPassword: z.string().max(PASSWORD_MAX, "That password is too long").optional(),
});

const SignOutDeviceSchema = z.object({
  intent: z.literal("sign-out-device"),
  sessionId: z.string().min(1).max(200),
});

const SignOutOtherDevicesSchema = z.object({ intent: z.literal("sign-out-other-devices") });

export const SettingsSchema = z.discriminatedUnion("intent", [
  SettingsProfileSchema,
  RemoveAvatarSchema,
  ChangeEmailSchema,
  NotificationsSchema,
  UnlinkAccountSchema,
  DeleteAccountSchema,
  SignOutDeviceSchema,
  SignOutOtherDevicesSchema,
]);
