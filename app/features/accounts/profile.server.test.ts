import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestDraw, DRAW_NOW } from "~/features/draws/draws.test-support";
import { enterGiveaway } from "~/features/draws/enter.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { getProfile, saveProfile, updateProfile } from "./profile.server";
import { ProfileSchema } from "./schemas";

const database = freshDatabasePerFile();

const profile = (handle: string, extra: Record<string, string> = {}) =>
  ProfileSchema.parse({ handle, name: "Test Driver", terms: "on", ...extra });

async function member(email: string, handle?: string) {
  const { db } = database();
  const id = email.split("@")[0]!;
  await db.insert(users).values({ id, name: "Test Driver", email, handle, termsAcceptedAt: new Date() });
  return id;
}

describe("updateProfile", () => {
  it("keeps handles unique whatever their case", async () => {
    const { db } = database();
    const first = await member("first@example.com", "speedy");
    const second = await member("second@example.com");

    expect(await updateProfile(db, second, profile("Speedy"))).toEqual({
      ok: false,
      field: "handle",
      message: "This handle is taken. Choose another.",
    });
    expect(await updateProfile(db, second, profile("speedy_two"))).toEqual({ ok: true });
    // Saving your own handle again is fine.
    expect(await updateProfile(db, first, profile("speedy", { town: "York" }))).toEqual({ ok: true });
    expect((await getProfile(db, first))?.town).toBe("York");
  });

  it("refuses the handles the site uses in its addresses", async () => {
    const { db } = database();
    const id = await member("reserved@example.com");
    expect(await updateProfile(db, id, profile("settings"))).toMatchObject({ ok: false, field: "handle" });
  });
});

describe("the date of birth", () => {
  it("is locked once the member has entered a draw: other changes still save", async () => {
    const { db } = database();
    const id = await member("entrant@example.com", "entrant");
    expect(await updateProfile(db, id, profile("entrant", { dateOfBirth: "1990-01-01" }))).toEqual({ ok: true });
    expect((await getProfile(db, id))?.dateOfBirthLocked).toBe(false);
    const draw = await createTestDraw(db, { kind: "giveaway", price: 0, bundles: [], maxPerMember: 1 });
    expect(
      await enterGiveaway(db, { drawId: draw.id, userId: id, answer: 1, confirmedAdult: true, now: DRAW_NOW }),
    ).toMatchObject({ ok: true });

    expect(await updateProfile(db, id, profile("entrant", { dateOfBirth: "2001-01-01" }))).toEqual({
      ok: false,
      field: "dateOfBirth",
      message: "Your date of birth is locked now that you have entered a prize draw. To change it, contact us.",
    });
    expect(await updateProfile(db, id, profile("entrant", { dateOfBirth: "1990-01-01", town: "York" }))).toEqual({
      ok: true,
    });
    expect(await getProfile(db, id)).toMatchObject({
      dateOfBirth: "1990-01-01",
      town: "York",
      dateOfBirthLocked: true,
    });
  });
});

describe("saveProfile", () => {
  it("leaves the profile as it was when the photo is not an image", async () => {
    const { db } = database();
    const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-profile-")));
    const id = await member("photo@example.com", "before");
    const avatar = new File([new TextEncoder().encode("not an image")], "car.jpg", { type: "image/jpeg" });

    const outcome = await saveProfile(db, storage, id, { ...profile("after"), avatar });

    expect(outcome).toEqual({ ok: false, field: "avatar", message: "Choose a JPEG, PNG, WebP or HEIC photo." });
    const [row] = await db.select({ handle: users.handle, image: users.image }).from(users).where(eq(users.id, id));
    expect(row).toEqual({ handle: "before", image: null });
  });
});

describe("ProfileSchema", () => {
  it("refuses a photo over 5 MB before it is read", () => {
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.jpg", { type: "image/jpeg" });
    const result = ProfileSchema.safeParse({ handle: "bigphoto", name: "Big", avatar: big });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ["avatar"], message: "Choose a photo of 5 MB or less" });
  });
});
