import { z } from "zod";
import { dateOfBirthField } from "~/features/accounts/schemas";
import { listSearch } from "~/features/forms/fields";

export const ROLE_LABELS = { member: "Member", organizer: "Organizer", admin: "Admin" } as const;
export const ROLE_AS_NOUN = { member: "a member", organizer: "an organizer", admin: "an admin" } as const;
export type RoleName = keyof typeof ROLE_LABELS;
const roleNames = Object.keys(ROLE_LABELS) as [RoleName, ...RoleName[]];

export const ROLE_FILTER_LABELS = {
  all: "All roles",
  staff: "Staff (organizers and admins)",
  member: "Members",
  organizer: "Organizers",
  admin: "Admins",
} as const;

export const MEMBER_SORT_LABELS = { newest: "Newest first", storage: "Most photo storage first" } as const;

/** The members list's address: `?q=…&role=…&sort=…&page=…`. Nonsense falls back to the defaults. */
export const MembersQuerySchema = z.object({
  q: listSearch,
  role: z.enum(Object.keys(ROLE_FILTER_LABELS) as [keyof typeof ROLE_FILTER_LABELS]).catch("all"),
  sort: z.enum(Object.keys(MEMBER_SORT_LABELS) as [keyof typeof MEMBER_SORT_LABELS]).catch("newest"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export const MembersActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set-role"),
    userId: z.string().min(1).max(100),
    role: z.enum(roleNames, { error: "Choose a role from the list" }),
    // Asked for when the admin's sign-in is more than a few minutes old.
    password: z.string().max(128).optional(),
  }),
  // A member's date of birth is locked once they enter a prize draw: an admin corrects it.
  z.object({
    intent: z.literal("set-date-of-birth"),
    userId: z.string().min(1).max(100),
    dateOfBirth: dateOfBirthField(),
    reason: z.string().trim().min(1, "Say why the date of birth changes").max(300, "Use at most 300 characters"),
  }),
]);
