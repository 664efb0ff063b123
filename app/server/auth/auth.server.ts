import { createHmac, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, magicLink, phoneNumber, twoFactor } from "better-auth/plugins";
import { and, eq } from "drizzle-orm";
import * as schema from "../../../db/schema";
import type { Db } from "../db/client.server";
import type { Env } from "../env.server";

/** OWASP ASVS minimum for argon2id, raised in time cost: 19 MiB, two passes, one lane. */
// `algorithm: 2` is Argon2id (the package's const enum cannot be imported here).
export const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
/** A session ends 30 days after sign-in however active it is (checked by the auth step). */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 60 * 60;
const RESET_TOKEN_SECONDS = 60 * 60;
/** How long an email confirmation link works; no other link or code that signs in lives longer. */
export const VERIFY_EMAIL_SECONDS = 24 * 60 * 60;
const MAGIC_LINK_SECONDS = 10 * 60;
export const PHONE_CODE_SECONDS = 10 * 60;
export const PHONE_CODE_TRIES = 5;
/** How long the code page of a sign-in stays open after the password was accepted. */
const SECOND_FACTOR_SECONDS = 10 * 60;
/** How long a device the member ticked "trust" on skips the code. */
const TRUSTED_DEVICE_SECONDS = 30 * 24 * 60 * 60;
const RECOVERY_CODE_COUNT = 10;

/**
 * The only requests that may start a session for an account with two-factor sign-in: the
 * password sign-in (which the two-factor plugin turns into a request for the code unless the
 * device is trusted), the code itself, and the requests that renew the session of a member
 * already signed in (setting up two-factor, changing the password or the profile). A magic link,
 * a social sign-in or an email confirmation would skip the code, so they start no session for
 * such an account: the member signs in with their password and code instead.
 */
const SECOND_FACTOR_SAFE_PATHS = [/^\/sign-in\/email$/, /^\/two-factor\//, /^\/change-password$/, /^\/update-user$/];

function startsSessionWithoutCode(path: string | undefined) {
  return path !== undefined && !SECOND_FACTOR_SAFE_PATHS.some((pattern) => pattern.test(path));
}

/**
 * The browser that signed up carries this cookie until the address is confirmed, so a
 * confirmation link opened there is the sign-up's own (see `claimedAccounts`).
 */
const SIGN_UP_COOKIE = "pitlane.sign_up";

function signUpToken(secret: string, email: string) {
  return createHmac("sha256", secret).update(`sign-up:${email.toLowerCase()}`).digest("base64url");
}

/** The Set-Cookie header that marks this browser as the one that signed `email` up. */
export function signUpCookie(secret: string, email: string, https: boolean) {
  return `${SIGN_UP_COOKIE}=${signUpToken(secret, email)}; Max-Age=${VERIFY_EMAIL_SECONDS}; Path=/; HttpOnly; SameSite=Lax${https ? "; Secure" : ""}`;
}

function signedUpHere(secret: string, headers: Headers | undefined, email: string) {
  const match = /(?:^|;\s*)pitlane\.sign_up=([^;]+)/.exec(headers?.get("cookie") ?? "");
  const given = Buffer.from(match?.[1] ?? "");
  const expected = Buffer.from(signUpToken(secret, email));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type HookContext = { path?: string; headers?: Headers; request?: Request } | null | undefined;

/**
 * Pre-hijacking: someone can sign up with another person's address and a password they know,
 * and wait. The account stays unconfirmed, so that password opens nothing, until the address's
 * owner confirms it: by a sign-in link, or by the confirmation link the sign-up sent them.
 * - A sign-in link claims the account for its owner: Better Auth itself removes every sign-in
 *   method of an unconfirmed account and ends its sessions before it signs the owner in.
 * - The confirmation link keeps the password only when it is opened in the browser that signed
 *   up. Opened anywhere else, the password is removed and every session ends: the owner signs in
 *   with email links, or sets a password in Settings.
 */
function claimedAccounts(db: Db, secret: string) {
  const claims = new WeakMap<object, boolean>();
  return {
    before(data: Record<string, unknown>, context: HookContext) {
      const path = context?.path;
      if (!context || data.emailVerified !== true || "email" in data) return;
      if (path === "/verify-email") claims.set(context, true);
    },
    async after(user: { id: string; email: string }, context: HookContext) {
      if (!context || !claims.get(context)) return;
      claims.delete(context);
      const headers = context.headers ?? context.request?.headers;
      if (signedUpHere(secret, headers, user.email)) return;
      await db
        .delete(schema.accounts)
        .where(and(eq(schema.accounts.userId, user.id), eq(schema.accounts.providerId, "credential")));
      await db.delete(schema.sessions).where(eq(schema.sessions.userId, user.id));
    },
  };
}

type Recipient = { email: string; name: string };

/**
 * The messages Better Auth asks the site to send, written by the accounts area and handed in by
 * the composition root. Each returns once the message is queued.
 */
export type AuthMessages = {
  /** Someone tried to sign up with an address that already has an account. */
  existingAccount(user: Recipient): Promise<void>;
  resetPassword(user: Recipient, url: string): Promise<void>;
  /** A confirmation link: of a new account, or (told apart by its token) of a change of address. */
  verification(user: Recipient, url: string, token: string): Promise<void>;
  magicLink(email: string, url: string): Promise<void>;
  phoneCode(to: string, code: string): Promise<void>;
  /** After any update of an account's row: tells the old address when the email changed. */
  accountUpdated(user: Recipient & Record<string, unknown>, context: unknown): Promise<void>;
};

export type AuthDependencies = {
  db: Db;
  env: Env;
  messages: AuthMessages;
  /** The accounts area's password length rule, which Better Auth enforces as well. */
  passwordLength: { min: number; max: number };
};

/**
 * Providers whose addresses are known to be their users' own (Google and Apple confirm them): a
 * sign-in with one joins the existing account of that address. Any other provider (Facebook)
 * joins an account only when it says the address is verified, which Facebook's never is here, and
 * Better Auth also requires the account's own address to have been confirmed.
 */
export const TRUSTED_PROVIDERS = ["google", "apple"];

/** The social providers whose credentials are configured; their buttons show only then. */
export function configuredProviders(env: Env) {
  return {
    ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } }
      : {}),
    ...(env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET
      ? {
          facebook: {
            clientId: env.FACEBOOK_CLIENT_ID,
            clientSecret: env.FACEBOOK_CLIENT_SECRET,
            // Facebook lets people sign up with addresses it never confirmed: its address is never
            // taken as verified, so a Facebook sign-in can never join an existing account.
            mapProfileToUser: () => ({ emailVerified: false }),
          },
        }
      : {}),
    ...(env.APPLE_CLIENT_ID && env.APPLE_CLIENT_SECRET
      ? { apple: { clientId: env.APPLE_CLIENT_ID, clientSecret: env.APPLE_CLIENT_SECRET } }
      : {}),
  };
}

/** The session cookie's name: `__Host-` over HTTPS (Secure, no Domain, Path=/). */
export function sessionCookieName(siteUrl: string) {
  return siteUrl.startsWith("https://") ? "__Host-pitlane.session_token" : "pitlane.session_token";
}

export function createAuth({ db, env, messages, passwordLength }: AuthDependencies) {
  const https = env.SITE_URL.startsWith("https://");
  const claims = claimedAccounts(db, env.AUTH_SECRET);
  return betterAuth({
    appName: env.SITE_NAME,
    baseURL: env.SITE_URL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET,
    trustedOrigins: [env.SITE_URL],
    database: drizzleAdapter(db, { provider: "pg", usePlural: true, schema }),
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordLength.min,
      maxPasswordLength: passwordLength.max,
      // A new account is signed in by its confirmation link; the sign-up answer is the same
      // whether or not the address already had an account (no enumeration).
      autoSignIn: false,
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        await messages.existingAccount(user);
      },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      password: {
        hash: (password) => hash(password, ARGON2ID),
        verify: ({ hash: stored, password }) => verify(stored, password),
      },
      // The link opens the site's own page, which asks for the new password.
      sendResetPassword: async ({ user, token }) => {
        await messages.resetPassword(user, `${env.SITE_URL}/changePassword?token=${encodeURIComponent(token)}`);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_EMAIL_SECONDS,
      sendVerificationEmail: async ({ user, url, token }) => {
        await messages.verification(user, url, token);
      },
    },
    socialProviders: configuredProviders(env),
    account: { accountLinking: { enabled: true, trustedProviders: TRUSTED_PROVIDERS } },
    user: {
      additionalFields: {
        handle: { type: "string", required: false, input: false },
        town: { type: "string", required: false, input: false },
        onboardedAt: { type: "date", required: false, input: false },
        // Set by the site's sign-up form, which requires the box to be ticked.
        termsAcceptedAt: { type: "date", required: false, input: true },
      },
      changeEmail: { enabled: true },
    },
    databaseHooks: {
      session: {
        create: {
          before: async (session, context) => {
            if (!startsSessionWithoutCode(context?.path)) return;
            const [user] = await db
              .select({ twoFactorEnabled: schema.users.twoFactorEnabled })
              .from(schema.users)
              .where(eq(schema.users.id, session.userId));
            if (user?.twoFactorEnabled) return false;
          },
        },
      },
      user: {
        update: {
          before: async (data, context) => {
            claims.before(data, context as HookContext);
          },
          after: async (user, context) => {
            await claims.after(user, context as HookContext);
            await messages.accountUpdated(user, context);
          },
        },
      },
    },
    session: {
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: 24 * 60 * 60,
      freshAge: 10 * 60,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/*": { window: 60, max: 10 },
        "/sign-up/*": { window: 60, max: 5 },
        "/request-password-reset": { window: 60, max: 5 },
        "/phone-number/*": { window: 60, max: 5 },
        "/magic-link/*": { window: 60, max: 10 },
      },
    },
    advanced: {
      // In production the session cookie is `__Host-`: Secure, no Domain, Path=/ (it cannot be
      // set or overwritten by a sibling subdomain).
      useSecureCookies: false,
      cookiePrefix: "pitlane",
      cookies: https ? { session_token: { name: sessionCookieName(env.SITE_URL) } } : undefined,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https, path: "/" },
      ipAddress: { ipAddressHeaders: ["x-pitlane-client-ip"] },
    },
    plugins: [
      admin({ defaultRole: "member", adminRoles: ["admin"] }),
      magicLink({
        expiresIn: MAGIC_LINK_SECONDS,
        disableSignUp: false,
        sendMagicLink: async ({ email, url }) => {
          await messages.magicLink(email, url);
        },
      }),
      twoFactor({
        issuer: env.SITE_NAME,
        totpOptions: { digits: 6, period: 30 },
        backupCodeOptions: { amount: RECOVERY_CODE_COUNT, length: 10, storeBackupCodes: "encrypted" },
        twoFactorCookieMaxAge: SECOND_FACTOR_SECONDS,
        trustDeviceMaxAge: TRUSTED_DEVICE_SECONDS,
      }),
      phoneNumber({
        otpLength: 6,
        expiresIn: PHONE_CODE_SECONDS,
        allowedAttempts: PHONE_CODE_TRIES,
        sendOTP: async ({ phoneNumber: to, code }) => {
          await messages.phoneCode(to, code);
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
