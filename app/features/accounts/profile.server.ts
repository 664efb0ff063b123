import { and, eq, exists, ne, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { drawEntries, users } from "../../../db/schema";
import { prepareAvatar, saveAvatar } from "./avatar.server";
import type { ProfileInput } from "./schemas";

export type Profile = {
  handle: string | null;
  name: string;
  town: string | null;
  townPublic: boolean;
  avatarPublic: boolean;
  dateOfBirth: string | null;
  /** Once the member has entered a prize draw, only staff change the date of birth (audited). */
  dateOfBirthLocked: boolean;
  instagram: string | null;
  marketingConsent: boolean;
  termsAccepted: boolean;
  image: string | null;
};

export async function getProfile(db: Db, userId: string): Promise<Profile | null> {
  const [row] = await db
    .select({
      handle: users.handle,
      name: users.name,
      town: users.town,
      townPublic: users.townPublic,
      avatarPublic: users.avatarPublic,
      dateOfBirth: users.dateOfBirth,
      instagram: users.instagram,
      marketingConsent: users.marketingConsent,
      termsAcceptedAt: users.termsAcceptedAt,
      image: users.image,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  const { termsAcceptedAt, ...profile } = row;
  return {
    ...profile,
    dateOfBirthLocked: await hasEnteredDraws(db, userId),
    termsAccepted: termsAcceptedAt !== null,
  };
}

/** Any entry in a prize draw, by any route and in any state: the age it was checked against stands. */
const enteredDraws = (userId: string) =>
  exists(sql`(select 1 from ${drawEntries} where ${drawEntries.userId} = ${userId})`);

async function hasEnteredDraws(db: Db, userId: string) {
  const [row] = await db
    .select({ entered: enteredDraws(userId) })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.entered);
}

const DATE_OF_BIRTH_LOCKED =
  "Your date of birth is locked now that you have entered a prize draw. To change it, contact us.";

export type ProfileUpdate = { ok: true } | { ok: false; field: "handle" | "terms" | "dateOfBirth"; message: string };

/** Handles the site itself uses in its addresses, which no member may take. */
const RESERVED_HANDLES = new Set([
  "admin",
  "administrator",
  "cars",
  "community",
  "events",
  "giveaways",
  "help",
  "members",
  "moderator",
  "pitlane",
  "settings",
  "shop",
  "staff",
  "support",
]);

/**
 * Saves the member's profile (onboarding and settings). The handle is unique whatever its case;
 * the unique index settles a race between two members choosing the same one.
 */
export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<ProfileUpdate> {
  if (RESERVED_HANDLES.has(input.handle))
    return { ok: false, field: "handle", message: "This handle is reserved. Choose another." };
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.handle}) = ${input.handle}`, ne(users.id, userId)));
  if (taken) return { ok: false, field: "handle", message: "This handle is taken. Choose another." };
  const [current] = await db
    .select({ termsAcceptedAt: users.termsAcceptedAt, dateOfBirth: users.dateOfBirth })
    .from(users)
    .where(eq(users.id, userId));
  if (!current?.termsAcceptedAt && input.terms !== "on") {
    return { ok: false, field: "terms", message: "Accept the terms and the privacy notice to continue" };
  }
  const keepsDateOfBirth = (current?.dateOfBirth ?? null) === (input.dateOfBirth ?? null);
  const locked = { ok: false as const, field: "dateOfBirth" as const, message: DATE_OF_BIRTH_LOCKED };
  if (!keepsDateOfBirth && (await hasEnteredDraws(db, userId))) return locked;
  try {
    const saved = await db
      .update(users)
      .set({
        handle: input.handle,
        name: input.name,
        town: input.town,
        townPublic: input.townPublic,
        avatarPublic: input.avatarPublic,
        dateOfBirth: input.dateOfBirth,
        instagram: input.instagram,
        marketingConsent: input.marketingConsent,
        termsAcceptedAt: current?.termsAcceptedAt ?? new Date(),
        onboardedAt: sql`coalesce(${users.onboardedAt}, now())`,
        updatedAt: new Date(),
      })
      // An entry made since the check above still locks the date of birth.
      .where(and(eq(users.id, userId), keepsDateOfBirth ? undefined : sql`not ${enteredDraws(userId)}`))
      .returning({ id: users.id });
    if (saved.length === 0 && !keepsDateOfBirth) return locked;
  } catch (error) {
    if (isUniqueViolation(error))
      return { ok: false, field: "handle", message: "This handle is taken. Choose another." };
    throw error;
  }
  return { ok: true };
}

export type ProfileSave = ProfileUpdate | { ok: false; field: "avatar"; message: string };

/**
 * Saves the profile and, when one was chosen, the new avatar. The photo is checked before
 * anything is saved, so a bad photo leaves the profile as it was.
 */
export async function saveProfile(db: Db, storage: Storage, userId: string, input: ProfileInput): Promise<ProfileSave> {
  const avatar = input.avatar ? await prepareAvatar(new Uint8Array(await input.avatar.arrayBuffer())) : null;
  if (avatar && !avatar.ok) return { ok: false, field: "avatar", message: avatar.message };
  const outcome = await updateProfile(db, userId, input);
  if (!outcome.ok) return outcome;
  if (avatar) await saveAvatar(db, storage, userId, avatar);
  return { ok: true };
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

/** A starting handle from the member's name: "Sam O'Driver" → "samodriver". */
export function suggestHandle(name: string) {
  const base = name.normalize("NFKD").replace(/[^\w]/g, "").toLowerCase().slice(0, 20);
  return base.length >= 3 ? base : "";
}
