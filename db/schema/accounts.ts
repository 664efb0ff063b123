import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// The tables Better Auth reads and writes (user, session, account, verification, rate limit),
// with the member's profile kept on the user row. Property names are the ones Better Auth uses.

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // admin plugin
    role: text("role").notNull().default("member"),
    banned: boolean("banned").default(false),
    banReason: text("ban_reason"),
    banExpires: timestamp("ban_expires", { withTimezone: true }),
    // phone-number plugin (E.164)
    phoneNumber: text("phone_number"),
    phoneNumberVerified: boolean("phone_number_verified").default(false),
    // profile (onboarding and settings)
    handle: text("handle"),
    town: text("town"),
    // Whether other people see the town and the photo on the member's community pages; off until
    // the member turns it on (docs/community.md).
    townPublic: boolean("town_public").notNull().default(false),
    avatarPublic: boolean("avatar_public").notNull().default(false),
    dateOfBirth: date("date_of_birth"),
    instagram: text("instagram"),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    marketingConsent: boolean("marketing_consent").notNull().default(false),
    notifyEvents: boolean("notify_events").notNull().default(true),
    notifyDraws: boolean("notify_draws").notNull().default(true),
    notifyOrders: boolean("notify_orders").notNull().default(true),
    onboardedAt: timestamp("onboarded_at", { withTimezone: true }),
    // two-factor plugin
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  },
  (table) => [
    uniqueIndex("users_email_key").on(sql`lower(${table.email})`),
    uniqueIndex("users_handle_key").on(sql`lower(${table.handle})`),
    uniqueIndex("users_phone_number_key").on(table.phoneNumber),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token: text("token").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/**
 * An authenticator app's secret and the hashed recovery codes of a member who set up two-factor
 * sign-in (Better Auth's two-factor plugin; it encrypts both with the auth secret).
 */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [index("two_factors_user_id_idx").on(table.userId), index("two_factors_secret_idx").on(table.secret)],
);

/** Better Auth's own limiter for direct calls to /api/auth/*. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Attempts counted by the site's own forms (sign-in, sign-up, reset, codes): a fixed window per
 * key, shared by every instance because it lives in the database.
 */
export const attemptLimits = pgTable("attempt_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
});

/**
 * Addresses a member asked to move away from (recorded when a change of email is asked for), so
 * deleting the account can also erase the messages sent to them.
 */
export const earlierEmails = pgTable(
  "earlier_emails",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.email] })],
);
