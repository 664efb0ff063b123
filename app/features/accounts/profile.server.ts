import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { prepareAvatar, saveAvatar } from "./avatar.server";
import type { ProfileInput } from "./schemas";

export type Profile = {
  handle: string | null;
  name: string;
  town: string | null;
  dateOfBirth: string | null;
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
  return { ...profile, termsAccepted: termsAcceptedAt !== null };
}

export type ProfileUpdate = { ok: true } | { ok: false; field: "handle" | "terms"; message: string };

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
  const [current] = await db.select({ termsAcceptedAt: users.termsAcceptedAt }).from(users).where(eq(users.id, userId));
  if (!current?.termsAcceptedAt && input.terms !== "on") {
    return { ok: false, field: "terms", message: "Accept the terms and the privacy notice to continue" };
  }
  try {
    await db
      .update(users)
      .set({
        handle: input.handle,
        name: input.name,
        town: input.town,
        dateOfBirth: input.dateOfBirth,
        instagram: input.instagram,
        marketingConsent: input.marketingConsent,
        termsAcceptedAt: current?.termsAcceptedAt ?? new Date(),
        onboardedAt: sql`coalesce(${users.onboardedAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
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
