import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { users } from "../../../db/schema";

/** The optional profile details the account overview nudges the member to add. */
const DETAILS = [
  { key: "image", label: "a photo" },
  { key: "town", label: "your town" },
  { key: "dateOfBirth", label: "your date of birth" },
  { key: "instagram", label: "your Instagram" },
] as const;

/** What the members' home page shows: who the member is and what their account still needs. */
export async function getAccountOverview(db: Db, userId: string) {
  const [row] = await db
    .select({
      name: users.name,
      handle: users.handle,
      image: users.image,
      town: users.town,
      dateOfBirth: users.dateOfBirth,
      instagram: users.instagram,
      emailVerified: users.emailVerified,
      phoneNumber: users.phoneNumber,
      phoneNumberVerified: users.phoneNumberVerified,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  const missing = DETAILS.filter((detail) => !row[detail.key]).map((detail) => detail.label);
  return {
    name: row.name,
    handle: row.handle,
    image: row.image,
    memberSince: row.createdAt.toISOString(),
    emailVerified: row.emailVerified,
    phoneVerified: Boolean(row.phoneNumber && row.phoneNumberVerified),
    profile: { filled: DETAILS.length - missing.length, total: DETAILS.length, missing },
  };
}
