import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvError, isLocalSite, parseEnv } from "./env.server";

const SECRET = "s".repeat(32);

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-env-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function problemsOf(source: Record<string, string | undefined>) {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error("parseEnv accepted an invalid environment");
}

describe("parseEnv", () => {
  it("runs a laptop install with no configuration", () => {
    const env = parseEnv({ DATA_DIR: dataDir });
    expect(env).toMatchObject({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "0.0.0.0",
      SITE_URL: "http://localhost:3000",
      DATA_DIR: dataDir,
      DATABASE_POOL_SIZE: 10,
      MAIL_FROM: "Pitlane <no-reply@localhost>",
      SITE_NAME: "Pitlane",
      CURRENCY: "GBP",
      TIME_ZONE: "Europe/London",
      DEFAULT_COUNTRY: "GB",
      LOG_LEVEL: "info",
      BODY_LIMIT: "1mb",
    });
    // Unset providers mean the embedded database and the local mailbox.
    for (const key of ["DATABASE_URL", "SEED_DEMO", "SMTP_URL", "TWILIO_ACCOUNT_SID", "STRIPE_SECRET_KEY"] as const) {
      expect(env[key]).toBeUndefined();
    }
  });

  it("resolves DATA_DIR to an absolute path, ./data by default", () => {
    expect(parseEnv({ AUTH_SECRET: SECRET }).DATA_DIR).toBe(path.resolve("data"));
    expect(parseEnv({ AUTH_SECRET: SECRET, DATA_DIR: "relative/dir" }).DATA_DIR).toBe(path.resolve("relative/dir"));
  });

  it("derives SITE_URL from PORT and drops a trailing slash from a given one", () => {
    expect(parseEnv({ DATA_DIR: dataDir, PORT: "8080" }).SITE_URL).toBe("http://localhost:8080");
    expect(parseEnv({ DATA_DIR: dataDir, SITE_URL: "https://club.example/", PAYMENTS: "test" }).SITE_URL).toBe(
      "https://club.example",
    );
  });

  it("treats empty strings as unset, as a .env file with blank values means", () => {
    const env = parseEnv({ DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "  ", TWILIO_FROM: "", SEED_DEMO: "" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.TWILIO_FROM).toBeUndefined();
    expect(env.SEED_DEMO).toBeUndefined();
  });

  it("holds tickets for HOLD_MINUTES while paying, 15 by default, from 1 to 1440", () => {
    expect(parseEnv({ DATA_DIR: dataDir }).HOLD_MINUTES).toBe(15);
    expect(parseEnv({ DATA_DIR: dataDir, HOLD_MINUTES: "20" }).HOLD_MINUTES).toBe(20);
    for (const value of ["0", "1441", "2.5", "soon"]) {
      expect(problemsOf({ DATA_DIR: dataDir, HOLD_MINUTES: value }).join(" ")).toMatch(/HOLD_MINUTES/);
    }
  });

  it("reads on/off flags", () => {
    expect(parseEnv({ DATA_DIR: dataDir, SEED_DEMO: "yes" }).SEED_DEMO).toBe(true);
    expect(parseEnv({ DATA_DIR: dataDir, SEED_DEMO: "0" }).SEED_DEMO).toBe(false);
    expect(problemsOf({ DATA_DIR: dataDir, SEED_DEMO: "maybe" })).toEqual([expect.stringMatching(/^SEED_DEMO: /)]);
  });

  it("lists every problem at once", () => {
    const problems = problemsOf({
      NODE_ENV: "development",
      DATA_DIR: dataDir,
      DATABASE_URL: "mysql://db.example/pitlane",
      PAYMENTS: "test",
      CURRENCY: "pounds",
      TIME_ZONE: "Mars/Olympus_Mons",
      TWILIO_ACCOUNT_SID: "AC123",
    });
    expect(problems).toEqual([
      "DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql://",
      "CURRENCY: CURRENCY must be an ISO 4217 code such as GBP",
      "TIME_ZONE: TIME_ZONE must be an IANA time zone such as Europe/London",
      "TWILIO_ACCOUNT_SID: set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none",
    ]);
  });

  it("puts every problem in the error message, one per line", () => {
    expect(() => parseEnv({ DATA_DIR: dataDir, CURRENCY: "gbp", PORT: "70000" })).toThrow(
      /^Invalid configuration:\n {2}- PORT: .+\n {2}- CURRENCY: CURRENCY must be an ISO 4217 code such as GBP$/,
    );
  });

  it("accepts both PostgreSQL URL schemes", () => {
    for (const url of ["postgres://u@db/pitlane", "postgresql://u@db/pitlane"]) {
      expect(
        parseEnv({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, DATABASE_URL: url, PAYMENTS: "test" }).DATABASE_URL,
      ).toBe(url);
    }
  });

  it("accepts a real IANA time zone and refuses a lower-case currency", () => {
    expect(parseEnv({ DATA_DIR: dataDir, TIME_ZONE: "America/New_York" }).TIME_ZONE).toBe("America/New_York");
    expect(problemsOf({ DATA_DIR: dataDir, CURRENCY: "eur" })).toEqual([
      "CURRENCY: CURRENCY must be an ISO 4217 code such as GBP",
    ]);
  });

  it("refuses a partial Twilio configuration and accepts a complete one", () => {
    const twilio = { TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+447700900000" };
    for (const missing of Object.keys(twilio)) {
      const partial = { ...twilio, [missing]: undefined };
      expect(problemsOf({ DATA_DIR: dataDir, ...partial })).toEqual([
        "TWILIO_ACCOUNT_SID: set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none",
      ]);
    }
    expect(parseEnv({ DATA_DIR: dataDir, ...twilio })).toMatchObject(twilio);
  });

  it("requires the Stripe webhook secret with the Stripe key", () => {
    expect(problemsOf({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: "sk_test_123" })).toEqual([
      "STRIPE_WEBHOOK_SECRET: set STRIPE_WEBHOOK_SECRET (whsec_…) with STRIPE_SECRET_KEY",
    ]);
    const stripe = { STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_123" };
    expect(parseEnv({ DATA_DIR: dataDir, ...stripe })).toMatchObject(stripe);
  });

  it("takes free test payments by default only on a local site's embedded database", () => {
    expect(parseEnv({ DATA_DIR: dataDir }).PAYMENTS).toBe("test");
    expect(parseEnv({ DATA_DIR: dataDir, SITE_URL: "http://127.0.0.1:8080" }).PAYMENTS).toBe("test");
    const none = [
      "PAYMENTS: no payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=test to take free test payments (no money moves)",
    ];
    const postgres = { DATA_DIR: dataDir, AUTH_SECRET: SECRET, DATABASE_URL: "postgres://db/pitlane" };
    expect(problemsOf(postgres)).toEqual(none);
    expect(problemsOf({ DATA_DIR: dataDir, SITE_URL: "https://club.example" })).toEqual(none);
    expect(parseEnv({ ...postgres, PAYMENTS: "test" }).PAYMENTS).toBe("test");
    expect(parseEnv({ DATA_DIR: dataDir, SITE_URL: "https://club.example", PAYMENTS: "test" }).PAYMENTS).toBe("test");
  });

  it("takes payments through Stripe when its keys are set, and refuses PAYMENTS that contradicts them", () => {
    const stripe = { STRIPE_SECRET_KEY: "sk_test_123", STRIPE_WEBHOOK_SECRET: "whsec_123" };
    const postgres = { DATA_DIR: dataDir, AUTH_SECRET: SECRET, DATABASE_URL: "postgres://db/pitlane" };
    expect(parseEnv({ ...postgres, ...stripe }).PAYMENTS).toBe("stripe");
    expect(parseEnv({ ...postgres, ...stripe, PAYMENTS: "stripe" }).PAYMENTS).toBe("stripe");
    expect(problemsOf({ ...postgres, PAYMENTS: "stripe" })).toEqual([
      "PAYMENTS: PAYMENTS=stripe needs STRIPE_SECRET_KEY",
    ]);
    expect(problemsOf({ ...postgres, ...stripe, PAYMENTS: "test" })).toEqual([
      "PAYMENTS: PAYMENTS=test takes no payments: remove STRIPE_SECRET_KEY, or PAYMENTS to use Stripe",
    ]);
    expect(problemsOf({ DATA_DIR: dataDir, PAYMENTS: "free" })).toEqual(["PAYMENTS: PAYMENTS must be stripe or test"]);
  });

  it("turns the test fixtures on for a local site only", () => {
    expect(parseEnv({ DATA_DIR: dataDir, ENABLE_TEST_FIXTURES: "1", SITE_URL: "http://localhost:4173" })).toMatchObject(
      {
        ENABLE_TEST_FIXTURES: true,
      },
    );
    for (const url of ["https://club.example", "http://club.example", "https://localhost"]) {
      expect(problemsOf({ DATA_DIR: dataDir, ENABLE_TEST_FIXTURES: "1", SITE_URL: url, PAYMENTS: "test" })).toEqual([
        "ENABLE_TEST_FIXTURES: ENABLE_TEST_FIXTURES is only for a site on http://localhost, 127.0.0.1 or [::1]: unset it",
      ]);
    }
    expect(
      parseEnv({ DATA_DIR: dataDir, ENABLE_TEST_FIXTURES: "0", SITE_URL: "https://club.example", PAYMENTS: "test" }),
    ).toBeTruthy();
  });

  it("texts codes to the site's own country unless SMS_COUNTRIES says which, up to SMS_DAILY_LIMIT a day", () => {
    expect(parseEnv({ DATA_DIR: dataDir })).toMatchObject({ SMS_COUNTRIES: ["GB"], SMS_DAILY_LIMIT: 500 });
    expect(parseEnv({ DATA_DIR: dataDir, DEFAULT_COUNTRY: "IE" }).SMS_COUNTRIES).toEqual(["IE"]);
    expect(parseEnv({ DATA_DIR: dataDir, SMS_COUNTRIES: "gb, ie,GB", SMS_DAILY_LIMIT: "50" })).toMatchObject({
      SMS_COUNTRIES: ["GB", "IE"],
      SMS_DAILY_LIMIT: 50,
    });
    expect(() => parseEnv({ DATA_DIR: dataDir, SMS_COUNTRIES: "United Kingdom" })).toThrow(
      "SMS_COUNTRIES must be two-letter country codes such as GB,IE",
    );
  });

  it("requires staff two-factor sign-in except on a local demo, unless told otherwise", () => {
    expect(parseEnv({ DATA_DIR: dataDir }).STAFF_TWO_FACTOR).toBe("optional");
    const site = { DATA_DIR: dataDir, SITE_URL: "https://club.example", PAYMENTS: "test" };
    expect(parseEnv(site).STAFF_TWO_FACTOR).toBe("required");
    expect(parseEnv({ ...site, STAFF_TWO_FACTOR: "optional" }).STAFF_TWO_FACTOR).toBe("optional");
    expect(() => parseEnv({ ...site, STAFF_TWO_FACTOR: "sometimes" })).toThrow(
      "STAFF_TWO_FACTOR must be required or optional",
    );
  });

  it("knows a local site from a public one", () => {
    for (const url of ["http://localhost:3000", "http://127.0.0.1", "http://[::1]:8080"]) {
      expect(isLocalSite(url), url).toBe(true);
    }
    for (const url of [
      "https://club.example",
      "https://localhost",
      "http://192.168.1.5:3000",
      "http://localhost.example",
    ]) {
      expect(isLocalSite(url), url).toBe(false);
    }
  });

  it("requires AUTH_SECRET in production on a shared PostgreSQL, not in development", () => {
    const shared = { DATA_DIR: dataDir, DATABASE_URL: "postgres://db/pitlane", PAYMENTS: "test" };
    expect(problemsOf(shared)).toEqual([
      "AUTH_SECRET: AUTH_SECRET is required in production when several servers share DATABASE_URL",
    ]);
    expect(parseEnv({ ...shared, NODE_ENV: "development" }).AUTH_SECRET).toHaveLength(43);
    expect(problemsOf({ ...shared, AUTH_SECRET: "short" })).toEqual([
      "AUTH_SECRET: AUTH_SECRET must be at least 32 characters",
    ]);
  });

  it("generates AUTH_SECRET once into DATA_DIR and returns the same one afterwards", () => {
    const nested = path.join(dataDir, "not", "yet", "made");
    const first = parseEnv({ DATA_DIR: nested }).AUTH_SECRET;
    const file = path.join(nested, "auth-secret");
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(file, "utf8")).toBe(first);
    // Only the owner may read the secret that signs sessions.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEnv({ DATA_DIR: nested }).AUTH_SECRET).toBe(first);
    expect(parseEnv({ DATA_DIR: dataDir }).AUTH_SECRET).not.toBe(first);
  });

  it("keeps media on disk unless S3_BUCKET is set, and checks the S3 settings", () => {
    const local = parseEnv({ DATA_DIR: dataDir });
    expect(local.S3_BUCKET).toBeUndefined();
    const s3 = parseEnv({
      DATA_DIR: dataDir,
      S3_BUCKET: "club-media",
      S3_REGION: "auto",
      S3_ENDPOINT: "https://account.r2.cloudflarestorage.com",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://media.club.example",
      S3_FORCE_PATH_STYLE: "1",
    });
    expect(s3).toMatchObject({ S3_BUCKET: "club-media", S3_FORCE_PATH_STYLE: true });
    expect(problemsOf({ DATA_DIR: dataDir, S3_BUCKET: "Club Media" }).join(" ")).toMatch(
      /S3_BUCKET must be a bucket name/,
    );
    expect(problemsOf({ DATA_DIR: dataDir, S3_ENDPOINT: "http://127.0.0.1:9000" }).join(" ")).toMatch(
      /set S3_BUCKET with the other S3_ settings/,
    );
    expect(problemsOf({ DATA_DIR: dataDir, S3_BUCKET: "club-media", S3_ACCESS_KEY_ID: "key" }).join(" ")).toMatch(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
    expect(problemsOf({ DATA_DIR: dataDir, S3_BUCKET: "club-media", S3_PUBLIC_URL: "media" }).join(" ")).toMatch(
      /S3_PUBLIC_URL must be an absolute URL/,
    );
  });

  it("uses a configured AUTH_SECRET without writing one", () => {
    expect(parseEnv({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).AUTH_SECRET).toBe(SECRET);
    expect(() => statSync(path.join(dataDir, "auth-secret"))).toThrow(/ENOENT/);
  });
});
