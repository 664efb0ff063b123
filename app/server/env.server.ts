import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isOn } from "./flag";

const optional = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no", ""])
  .optional()
  .transform((value) => (value === undefined || value === "" ? undefined : isOn(value)));

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    SITE_URL: z.url({ message: "SITE_URL must be an absolute URL such as https://club.example" }).optional(),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: optional.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    AUTH_SECRET: optional.pipe(z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional()),
    /** What `npm run backup` encrypts a backup with and `npm run restore` opens it with (docs/backup.md); kept as typed. */
    BACKUP_PASSPHRASE: z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.string().min(12, "BACKUP_PASSPHRASE must be at least 12 characters").optional()),
    SEED_DEMO: flag,
    SMTP_URL: optional.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
        .optional(),
    ),
    MAIL_FROM: z.string().default("Pitlane <no-reply@localhost>"),
    TWILIO_ACCOUNT_SID: optional,
    TWILIO_AUTH_TOKEN: optional,
    TWILIO_FROM: optional,
    STRIPE_SECRET_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    /**
     * Apple Wallet passes for tickets (docs/gate.md, "Wallet passes"): the Pass Type ID and team,
     * and PEM files of the pass certificate, its key (and passphrase) and Apple's WWDR
     * intermediate. All or none; without them there is no "Add to Apple Wallet".
     */
    APPLE_WALLET_PASS_TYPE_ID: optional,
    APPLE_WALLET_TEAM_ID: optional,
    APPLE_WALLET_CERT_FILE: optional,
    APPLE_WALLET_KEY_FILE: optional,
    APPLE_WALLET_KEY_PASSPHRASE: optional,
    APPLE_WALLET_WWDR_FILE: optional,
    /** Google Wallet: the issuer id and the service account's JSON key file. Both or neither. */
    GOOGLE_WALLET_ISSUER_ID: optional,
    GOOGLE_WALLET_KEY_FILE: optional,
    /** Another address for Stripe's API: stripe-mock, or a stand-in in the load and crash tests. */
    STRIPE_API_URL: optional.pipe(
      z.url({ message: "STRIPE_API_URL must be an absolute URL such as http://localhost:12111" }).optional(),
    ),
    /**
     * Which checkout takes payment: `stripe` (needs STRIPE_SECRET_KEY) or `test`, the built-in
     * checkout where no money moves. Unset, it follows STRIPE_SECRET_KEY, and a site on PostgreSQL
     * or on a public address without Stripe keys must say `test` (docs/payments.md).
     */
    PAYMENTS: optional.pipe(z.enum(["stripe", "test"], { message: "PAYMENTS must be stripe or test" }).optional()),
    /** How long starting payment holds the places. */
    HOLD_MINUTES: z.coerce
      .number({ message: "HOLD_MINUTES must be a whole number of minutes" })
      .int("HOLD_MINUTES must be a whole number of minutes")
      .min(1, "HOLD_MINUTES must be from 1 to 1440")
      .max(1440, "HOLD_MINUTES must be from 1 to 1440")
      .default(15),
    /** Media in an S3-compatible bucket instead of DATA_DIR/media (docs/media.md). */
    S3_BUCKET: optional.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "S3_BUCKET must be a bucket name such as club-media")
        .optional(),
    ),
    S3_REGION: optional,
    /** An S3-compatible service's address (MinIO, Cloudflare R2, Backblaze B2…); unset for AWS. */
    S3_ENDPOINT: optional.pipe(
      z.url({ message: "S3_ENDPOINT must be an absolute URL such as https://s3.example.com" }).optional(),
    ),
    S3_ACCESS_KEY_ID: optional,
    S3_SECRET_ACCESS_KEY: optional,
    /** Where browsers load public media from: the bucket's public address or a CDN in front of it. */
    S3_PUBLIC_URL: optional.pipe(
      z.url({ message: "S3_PUBLIC_URL must be an absolute URL such as https://media.club.example" }).optional(),
    ),
    S3_FORCE_PATH_STYLE: flag,
    GOOGLE_MAPS_API_KEY: optional,
    GOOGLE_CLIENT_ID: optional,
    GOOGLE_CLIENT_SECRET: optional,
    FACEBOOK_CLIENT_ID: optional,
    FACEBOOK_CLIENT_SECRET: optional,
    APPLE_CLIENT_ID: optional,
    APPLE_CLIENT_SECRET: optional,
    SITE_NAME: z.string().trim().min(1).max(60).default("Pitlane"),
    /** Where members send complaints about prize draws (/responsible-play); unset, the address in MAIL_FROM. */
    COMPLAINTS_EMAIL: optional.pipe(
      z.email({ message: "COMPLAINTS_EMAIL must be an email address such as complaints@club.example" }).optional(),
    ),
    CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, "CURRENCY must be an ISO 4217 code such as GBP")
      .default("GBP"),
    TIME_ZONE: z
      .string()
      .refine(isTimeZone, "TIME_ZONE must be an IANA time zone such as Europe/London")
      .default("Europe/London"),
    DEFAULT_COUNTRY: z
      .string()
      .regex(/^[A-Z]{2}$/, "DEFAULT_COUNTRY must be a two-letter country code")
      .default("GB"),
    /** Countries whose numbers may get a text code (ISO 3166 codes, comma-separated). Unset: DEFAULT_COUNTRY. */
    SMS_COUNTRIES: optional.pipe(
      z
        .string()
        .regex(/^[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*$/, "SMS_COUNTRIES must be two-letter country codes such as GB,IE")
        .optional(),
    ),
    /** Text codes the whole site sends in a day at most (a cap on what SMS pumping can cost). */
    SMS_DAILY_LIMIT: z.coerce
      .number({ message: "SMS_DAILY_LIMIT must be a whole number" })
      .int("SMS_DAILY_LIMIT must be a whole number")
      .min(0, "SMS_DAILY_LIMIT must be 0 or more")
      .default(500),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: flag,
    /** Seconds a stopping server gives its requests and open connections before closing them (docs/deploy.md). */
    SHUTDOWN_TIMEOUT: z.coerce
      .number({ message: "SHUTDOWN_TIMEOUT must be a number of seconds" })
      .min(1, "SHUTDOWN_TIMEOUT must be from 1 to 600 seconds")
      .max(600, "SHUTDOWN_TIMEOUT must be from 1 to 600 seconds")
      .default(25),
    /** The bearer token a scraper sends to read /metrics; without one, /metrics does not exist. */
    METRICS_TOKEN: optional,
    BODY_LIMIT: z.string().default("1mb"),
    /**
     * Memory the page cache for anonymous visitors may hold (rendered pages with their gzip and
     * brotli forms), in megabytes; 0 turns the cache off.
     */
    PAGE_CACHE_MB: z.coerce
      .number({ message: "PAGE_CACHE_MB must be a number of megabytes" })
      .min(0, "PAGE_CACHE_MB must be 0 or more")
      .max(16_384, "PAGE_CACHE_MB must be at most 16384")
      .default(64),
    /** Threads that decode and encode uploaded pictures (docs/media.md); unset, one fewer than the CPUs, at least one. */
    MEDIA_WORKERS: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.coerce
        .number({ message: "MEDIA_WORKERS must be a whole number from 1 to 64" })
        .int("MEDIA_WORKERS must be a whole number from 1 to 64")
        .min(1, "MEDIA_WORKERS must be a whole number from 1 to 64")
        .max(64, "MEDIA_WORKERS must be a whole number from 1 to 64")
        .optional(),
    ),
    /** Uploads that may wait for a picture worker, site-wide; beyond that, "busy, try again". */
    MEDIA_QUEUE: z.coerce
      .number({ message: "MEDIA_QUEUE must be a whole number from 0 to 1000" })
      .int("MEDIA_QUEUE must be a whole number from 0 to 1000")
      .min(0, "MEDIA_QUEUE must be a whole number from 0 to 1000")
      .max(1000, "MEDIA_QUEUE must be a whole number from 0 to 1000")
      .default(16),
    /** Uploads one member may have waiting or being made at once. */
    MEDIA_QUEUE_PER_MEMBER: z.coerce
      .number({ message: "MEDIA_QUEUE_PER_MEMBER must be a whole number from 1 to 100" })
      .int("MEDIA_QUEUE_PER_MEMBER must be a whole number from 1 to 100")
      .min(1, "MEDIA_QUEUE_PER_MEMBER must be a whole number from 1 to 100")
      .max(100, "MEDIA_QUEUE_PER_MEMBER must be a whole number from 1 to 100")
      .default(4),
    /** Cars one member may keep in their garage (docs/garage.md). */
    GARAGE_MAX_CARS: z.coerce
      .number({ message: "GARAGE_MAX_CARS must be a whole number from 1 to 1000" })
      .int("GARAGE_MAX_CARS must be a whole number from 1 to 1000")
      .min(1, "GARAGE_MAX_CARS must be a whole number from 1 to 1000")
      .max(1000, "GARAGE_MAX_CARS must be a whole number from 1 to 1000")
      .default(20),
    /** Photos one car may have. */
    GARAGE_MAX_PHOTOS_PER_CAR: z.coerce
      .number({ message: "GARAGE_MAX_PHOTOS_PER_CAR must be a whole number from 1 to 200" })
      .int("GARAGE_MAX_PHOTOS_PER_CAR must be a whole number from 1 to 200")
      .min(1, "GARAGE_MAX_PHOTOS_PER_CAR must be a whole number from 1 to 200")
      .max(200, "GARAGE_MAX_PHOTOS_PER_CAR must be a whole number from 1 to 200")
      .default(20),
    /** Photos one member may have across all their cars. */
    GARAGE_MAX_PHOTOS: z.coerce
      .number({ message: "GARAGE_MAX_PHOTOS must be a whole number from 1 to 10000" })
      .int("GARAGE_MAX_PHOTOS must be a whole number from 1 to 10000")
      .min(1, "GARAGE_MAX_PHOTOS must be a whole number from 1 to 10000")
      .max(10_000, "GARAGE_MAX_PHOTOS must be a whole number from 1 to 10000")
      .default(200),
    ENABLE_TEST_FIXTURES: flag,
    /**
     * Whether organizers and admins must sign in with a second factor to open the staff pages.
     * Unset: required, except on a local demo site (http://localhost).
     */
    STAFF_TWO_FACTOR: optional.pipe(
      z.enum(["required", "optional"], { message: "STAFF_TWO_FACTOR must be required or optional" }).optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM];
    if (twilio.some(Boolean) && !twilio.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["TWILIO_ACCOUNT_SID"],
        message: "set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none",
      });
    }
    // Without the webhook secret no payment notification could be verified (docs/payments.md).
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "set STRIPE_WEBHOOK_SECRET (whsec_…) with STRIPE_SECRET_KEY",
      });
    }
    if (env.PAYMENTS === "stripe" && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: "custom", path: ["PAYMENTS"], message: "PAYMENTS=stripe needs STRIPE_SECRET_KEY" });
    }
    if (env.PAYMENTS === "test" && env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENTS"],
        message: "PAYMENTS=test takes no payments: remove STRIPE_SECRET_KEY, or PAYMENTS to use Stripe",
      });
    }
    // A real site that forgot its Stripe keys would hand out tickets for nothing: free test
    // payments are only ever the default on a laptop's embedded database.
    if (!env.PAYMENTS && !env.STRIPE_SECRET_KEY && (env.DATABASE_URL || isPublicSite(env))) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENTS"],
        message:
          "no payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=test to take free test payments (no money moves)",
      });
    }
    // The fixtures print tickets for anyone who asks: they exist for the end-to-end suite, which
    // runs on http://localhost, and never on a site others can reach.
    if (env.ENABLE_TEST_FIXTURES && isPublicSite(env)) {
      ctx.addIssue({
        code: "custom",
        path: ["ENABLE_TEST_FIXTURES"],
        message: "ENABLE_TEST_FIXTURES is only for a site on http://localhost, 127.0.0.1 or [::1]: unset it",
      });
    }
    const s3 = [env.S3_REGION, env.S3_ENDPOINT, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY, env.S3_PUBLIC_URL];
    if (!env.S3_BUCKET && (s3.some(Boolean) || env.S3_FORCE_PATH_STYLE)) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "set S3_BUCKET with the other S3_ settings" });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_ACCESS_KEY_ID"],
        message: "set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default credentials)",
      });
    }
    const apple = [
      env.APPLE_WALLET_PASS_TYPE_ID,
      env.APPLE_WALLET_TEAM_ID,
      env.APPLE_WALLET_CERT_FILE,
      env.APPLE_WALLET_KEY_FILE,
      env.APPLE_WALLET_WWDR_FILE,
    ];
    if (apple.some(Boolean) && !apple.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["APPLE_WALLET_PASS_TYPE_ID"],
        message:
          "set all of APPLE_WALLET_PASS_TYPE_ID, APPLE_WALLET_TEAM_ID, APPLE_WALLET_CERT_FILE, APPLE_WALLET_KEY_FILE and APPLE_WALLET_WWDR_FILE, or none",
      });
    }
    if (Boolean(env.GOOGLE_WALLET_ISSUER_ID) !== Boolean(env.GOOGLE_WALLET_KEY_FILE)) {
      ctx.addIssue({
        code: "custom",
        path: ["GOOGLE_WALLET_ISSUER_ID"],
        message: "set both GOOGLE_WALLET_ISSUER_ID and GOOGLE_WALLET_KEY_FILE, or neither",
      });
    }
    if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "AUTH_SECRET is required in production when several servers share DATABASE_URL",
      });
    }
  });

function siteUrlOf(env: { SITE_URL?: string; PORT: number }) {
  return (env.SITE_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/$/, "");
}

/**
 * Whether the site is only reached from this machine (http://localhost, 127.0.0.1 or [::1]):
 * the only place where demo accounts with public passwords, free test payments by default and
 * the test fixtures belong.
 */
export function isLocalSite(siteUrl: string) {
  const url = URL.parse(siteUrl);
  return url?.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** In the checks below, an address that did not parse has been reported already. */
function isPublicSite(env: { SITE_URL?: string; PORT: number }) {
  return URL.canParse(siteUrlOf(env)) && !isLocalSite(siteUrlOf(env));
}

function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type Env = Omit<z.infer<typeof EnvSchema>, "SMS_COUNTRIES"> & {
  SITE_URL: string;
  DATA_DIR: string;
  AUTH_SECRET: string;
  SEED_DEMO: boolean | undefined;
  PAYMENTS: "stripe" | "test";
  STAFF_TWO_FACTOR: "required" | "optional";
  SMS_COUNTRIES: string[];
};

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses and validates the environment; throws an EnvError listing every problem at once. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`));
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = siteUrlOf(env);
  return {
    ...env,
    DATA_DIR: dataDir,
    SITE_URL: siteUrl,
    AUTH_SECRET: env.AUTH_SECRET ?? localSecret(dataDir),
    PAYMENTS: env.PAYMENTS ?? (env.STRIPE_SECRET_KEY ? "stripe" : "test"),
    STAFF_TWO_FACTOR: env.STAFF_TWO_FACTOR ?? (isLocalSite(siteUrl) ? "optional" : "required"),
    SMS_COUNTRIES: env.SMS_COUNTRIES
      ? [...new Set(env.SMS_COUNTRIES.split(",").map((code) => code.trim().toUpperCase()))]
      : [env.DEFAULT_COUNTRY],
  };
}

/** A secret generated once into DATA_DIR, so a laptop install needs no configuration. */
function localSecret(dataDir: string) {
  const file = path.join(dataDir, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

const globalEnv = globalThis as unknown as { __pitlaneEnv?: Env };

export function getEnv(): Env {
  globalEnv.__pitlaneEnv ??= parseEnv();
  return globalEnv.__pitlaneEnv;
}

/** Used by tests that need a different configuration in the same process. */
export function setEnv(env: Env) {
  globalEnv.__pitlaneEnv = env;
}
