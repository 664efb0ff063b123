import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessions as sessionRows, users } from "../../../db/schema";
import { createLoadContext, type SessionUser, userContext } from "../context.server";
import { freshDatabasePerFile } from "../db/test-database";
import { parseEnv } from "../env.server";
import type { Runtime } from "../runtime.server";
import { type Auth, type AuthMessages, createAuth } from "./auth.server";
import { authStep } from "./session.server";
import { type KeptSignIn, SessionCache } from "./session-cache.server";

function signInOf(id: string, expiresAt = new Date("2027-01-01T00:00:00Z")): KeptSignIn {
  return { token: `token-${id}`, expiresAt, user: { id } as SessionUser };
}

/** A cache that believes it hears the database's notices, with a clock the test moves. */
async function hearingCache(options: { ttlMs?: number; capacity?: number } = {}) {
  let now = Date.parse("2026-11-28T10:00:00Z");
  const cache = new SessionCache({ ...options, now: () => now });
  await cache.hear({ listen: async () => async () => {} });
  const later = (ms: number) => {
    now += ms;
  };
  return { cache, later, now: () => now };
}

describe("the sign-ins a server keeps", () => {
  it("keeps nothing until it hears the database's notices, and nothing after it stops", async () => {
    const cache = new SessionCache();
    cache.keep("c1", signInOf("m1"), cache.generation);
    expect(cache.find("c1")).toBeUndefined();

    const stop = await cache.hear({ listen: async () => async () => {} });
    cache.keep("c1", signInOf("m1"), cache.generation);
    expect(cache.find("c1")?.user.id).toBe("m1");

    await stop();
    expect(cache.find("c1")).toBeUndefined();
    cache.keep("c1", signInOf("m1"), cache.generation);
    expect(cache.find("c1")).toBeUndefined();
  });

  it("forgets a sign-in after its time, or when its session expires first", async () => {
    const { cache, later, now } = await hearingCache({ ttlMs: 30_000 });
    cache.keep("long", signInOf("m1"), cache.generation);
    cache.keep("ending", signInOf("m2", new Date(now() + 10_000)), cache.generation);
    later(10_000);
    expect(cache.find("long")).toBeDefined();
    expect(cache.find("ending")).toBeUndefined();
    later(20_000);
    expect(cache.find("long")).toBeUndefined();
  });

  it("drops one member's sign-ins on their notice, and every sign-in on an empty one or a lost connection", async () => {
    const { cache } = await hearingCache();
    cache.keep("phone", signInOf("m1"), cache.generation);
    cache.keep("laptop", signInOf("m1"), cache.generation);
    cache.keep("other", signInOf("m2"), cache.generation);

    cache.heard("m1");
    expect([cache.find("phone"), cache.find("laptop")]).toEqual([undefined, undefined]);
    expect(cache.find("other")?.user.id).toBe("m2");

    cache.heard("");
    expect(cache.find("other")).toBeUndefined();
    cache.keep("other", signInOf("m2"), cache.generation);
    cache.heard(null);
    expect(cache.stats().kept).toBe(0);
  });

  it("does not keep a lookup that began before a change was heard", async () => {
    const { cache } = await hearingCache();
    const before = cache.generation;
    cache.heard("m1");
    cache.keep("phone", signInOf("m1"), before);
    expect(cache.find("phone")).toBeUndefined();
  });

  it("counts the reads it answered and those it did not", async () => {
    const { cache } = await hearingCache();
    expect(cache.find("c1")).toBeUndefined();
    cache.keep("c1", signInOf("m1"), cache.generation);
    cache.find("c1");
    cache.find("c1");
    expect(cache.stats()).toEqual({ kept: 1, found: 2, missed: 1 });
  });

  it("holds at most its capacity, letting the longest kept go first", async () => {
    const { cache } = await hearingCache({ capacity: 2 });
    cache.keep("a", signInOf("m1"), cache.generation);
    cache.keep("b", signInOf("m2"), cache.generation);
    cache.keep("c", signInOf("m3"), cache.generation);
    expect(cache.stats().kept).toBe(2);
    expect(cache.find("a")).toBeUndefined();
    expect(cache.find("c")?.user.id).toBe("m3");
  });
});

describe("the auth step with kept sign-ins", () => {
  const database = freshDatabasePerFile();
  const cache = new SessionCache();
  let auth: Auth;
  let env: ReturnType<typeof parseEnv>;
  let stopHearing: () => Promise<void>;

  beforeAll(async () => {
    env = parseEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-sign-ins-")),
      SITE_URL: "http://localhost:3000",
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      LOG_LEVEL: "silent",
    });
    const quiet = async () => {};
    const messages: AuthMessages = {
      existingAccount: quiet,
      resetPassword: quiet,
      verification: quiet,
      magicLink: quiet,
      phoneCode: quiet,
      accountUpdated: quiet,
    };
    auth = createAuth({ db: database().db, env, messages, passwordLength: { min: 12, max: 128 } });
    stopHearing = await cache.hear(database());
  });
  afterAll(async () => {
    await stopHearing();
  });

  /** A member signed up and signed in; answers their id and their browser's Cookie header. */
  async function signedInMember(email: string) {
    const password = "a long test password 42";
    const { user } = await auth.api.signUpEmail({ body: { name: "Kept Member", email, password } });
    await database().db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
    const signedIn = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    const cookie = signedIn.headers
      .getSetCookie()
      .map((pair) => pair.split(";")[0])
      .join("; ");
    return { id: user.id, cookie };
  }

  /** Runs the auth step for one request; answers the member it put in the context, or null. */
  async function whoIs(cookie: string, method = "GET") {
    const context = createLoadContext({ auth, sessions: cache, env } as unknown as Runtime, {
      nonce: "n",
      requestId: "r",
      ip: "127.0.0.1",
    });
    const url = new URL("http://localhost:3000/garage");
    const request = new Request(url, { method, headers: { cookie } });
    let user: SessionUser | null = null;
    await authStep({ request, context, url, params: {}, pattern: "/garage" } as never, async () => {
      user = context.get(userContext);
      return new Response("ok");
    });
    return user as SessionUser | null;
  }

  it("reads a member's session once for their page reads, and afresh for every form post", async () => {
    const member = await signedInMember("kept-reads@example.com");
    const lookups = vi.spyOn(auth.api, "getSession");
    try {
      expect((await whoIs(member.cookie))?.id).toBe(member.id);
      expect((await whoIs(member.cookie))?.id).toBe(member.id);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect((await whoIs(member.cookie, "POST"))?.id).toBe(member.id);
      expect(lookups).toHaveBeenCalledTimes(2);
    } finally {
      lookups.mockRestore();
    }
  });

  it("signs a member out of every page read once their session ends, however it was ended", async () => {
    const member = await signedInMember("kept-ended@example.com");
    expect((await whoIs(member.cookie))?.id).toBe(member.id);
    // Ended behind the auth library's back, as a tool or another server would.
    await database().db.delete(sessionRows).where(eq(sessionRows.userId, member.id));
    await vi.waitFor(async () => expect(await whoIs(member.cookie)).toBeNull());
  });

  it("shows a changed role on the next page read", async () => {
    const member = await signedInMember("kept-role@example.com");
    expect((await whoIs(member.cookie))?.role).toBe("member");
    await database().db.update(users).set({ role: "organizer" }).where(eq(users.id, member.id));
    await vi.waitFor(async () => expect((await whoIs(member.cookie))?.role).toBe("organizer"));
  });

  it("finds nothing kept by a look-alike cookie sent beside the session's, or by the name sent twice", async () => {
    const member = await signedInMember("kept-look-alike@example.com");
    const lookAlike = "__Host-pitlane.session_token=planted.value";
    expect((await whoIs(`${lookAlike}; ${member.cookie}`))?.id).toBe(member.id);
    expect(await whoIs(lookAlike)).toBeNull();

    const lookups = vi.spyOn(auth.api, "getSession");
    try {
      const twice = `${member.cookie}; pitlane.session_token=other.value`;
      await whoIs(twice);
      await whoIs(twice);
      expect(lookups).toHaveBeenCalledTimes(2);
    } finally {
      lookups.mockRestore();
    }
  });

  it("keeps nobody for a cookie that names no session", async () => {
    expect(await whoIs("pitlane.session_token=forged.value")).toBeNull();
    expect(await whoIs("other=1")).toBeNull();
  });
});
