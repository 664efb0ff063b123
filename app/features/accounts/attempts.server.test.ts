import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { clearAttempts, countAttempt, describeWait, limitImageUploads, TooManyAttempts } from "./attempts.server";

const database = freshDatabasePerFile();
const rule = { max: 3, windowSeconds: 60 };

describe("countAttempt", () => {
  it("allows up to the limit, then refuses with the time left in the window", async () => {
    const { db } = database();
    const now = new Date("2026-06-01T12:00:00Z");
    for (let i = 0; i < 3; i++) expect(await countAttempt(db, "k1", rule, now)).toMatchObject({ allowed: true });
    const later = new Date(now.getTime() + 15_000);
    expect(await countAttempt(db, "k1", rule, later)).toMatchObject({ allowed: false, retryAfterSeconds: 45 });
  });

  it("starts a new window once the old one has ended", async () => {
    const { db } = database();
    const now = new Date("2026-06-01T12:00:00Z");
    for (let i = 0; i < 4; i++) await countAttempt(db, "k2", rule, now);
    const afterWindow = new Date(now.getTime() + 61_000);
    expect(await countAttempt(db, "k2", rule, afterWindow)).toMatchObject({ allowed: true });
  });

  it("keeps keys apart and forgets a key when cleared", async () => {
    const { db } = database();
    const now = new Date();
    for (let i = 0; i < 4; i++) await countAttempt(db, "k3", rule, now);
    expect((await countAttempt(db, "k4", rule, now)).allowed).toBe(true);
    await clearAttempts(db, "k3");
    expect((await countAttempt(db, "k3", rule, now)).allowed).toBe(true);
  });

  it("counts every one of many concurrent attempts", async () => {
    const { db } = database();
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => countAttempt(db, "burst", { max: 10, windowSeconds: 60 }, now)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
  });
});

describe("describeWait", () => {
  it("says the wait in words", () => {
    expect(describeWait(1)).toBe("1 second");
    expect(describeWait(45)).toBe("45 seconds");
    expect(describeWait(61)).toBe("2 minutes");
    expect(describeWait(3600)).toBe("1 hour");
    expect(describeWait(5400)).toBe("2 hours");
  });
});

describe("limitImageUploads", () => {
  it("takes ten photos per member and thirty per network in ten minutes", async () => {
    const { db } = database();
    for (let i = 0; i < 10; i++) await limitImageUploads(db, { userId: "uploader", ip: "192.0.2.50" });
    await expect(limitImageUploads(db, { userId: "uploader", ip: "192.0.2.51" })).rejects.toThrow(TooManyAttempts);
    // Other members on the same network share its thirty.
    for (let i = 0; i < 20; i++) await limitImageUploads(db, { userId: `neighbour-${i}`, ip: "192.0.2.50" });
    await expect(limitImageUploads(db, { userId: "one-more", ip: "192.0.2.50" })).rejects.toThrow(TooManyAttempts);
  });
});
