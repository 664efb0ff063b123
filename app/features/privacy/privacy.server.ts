import { and, desc, eq, or, sql } from "drizzle-orm";
import { deleteAvatarFiles } from "~/features/accounts/avatar.server";
import { type MemberDataSection, memberRowsSection } from "~/features/accounts/member-data-section";
import { providerName } from "~/features/accounts/settings.server";
import { carPhotoMedia } from "~/features/garage/car-photo-media.server";
import { deleteMemberPhotoFiles, garageMemberData, memberPhotoFiles } from "~/features/garage/member-data.server";
import { carPhotoSources } from "~/features/media/car-photo-urls";
import { commerceMemberData } from "~/features/orders/member-data.server";
import type { Db } from "~/server/db/client.server";
import { containing, endingWith } from "~/server/db/like";
import type { Storage } from "~/server/storage/storage.server";
import {
  accounts,
  attemptLimits,
  earlierEmails,
  outboundMessages,
  sessions,
  users,
  verifications,
} from "../../../db/schema";

const profileData: MemberDataSection = {
  name: "profile",
  tables: ["users"],
  async collect(db, userId) {
    const [profile] = await db
      .select({
        id: users.id,
        email: users.email,
        emailVerified: users.emailVerified,
        name: users.name,
        handle: users.handle,
        image: users.image,
        town: users.town,
        /** The member's choices of what others see on their community pages (docs/community.md "Profiles"). */
        shownToOthers: { town: users.townPublic, photo: users.avatarPublic },
        dateOfBirth: users.dateOfBirth,
        instagram: users.instagram,
        phoneNumber: users.phoneNumber,
        phoneNumberVerified: users.phoneNumberVerified,
        role: users.role,
        termsAcceptedAt: users.termsAcceptedAt,
        onboardedAt: users.onboardedAt,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
        notifications: {
          eventNews: users.notifyEvents,
          drawResults: users.notifyDraws,
          orderUpdates: users.notifyOrders,
          marketing: users.marketingConsent,
        },
      })
      .from(users)
      .where(eq(users.id, userId));
    return profile ?? null;
  },
};

const sessionData = memberRowsSection({
  name: "sessions",
  table: sessions,
  owner: sessions.userId,
  // The tokens are secrets that would let anyone holding the file sign in: never exported.
  columns: {
    signedInAt: sessions.createdAt,
    lastActiveAt: sessions.updatedAt,
    expiresAt: sessions.expiresAt,
    ipAddress: sessions.ipAddress,
    userAgent: sessions.userAgent,
  },
  newest: sessions.createdAt,
});

const connectedAccountData: MemberDataSection = {
  name: "connectedAccounts",
  tables: ["accounts"],
  async collect(db, userId) {
    const rows = await db
      .select({ providerId: accounts.providerId, createdAt: accounts.createdAt })
      .from(accounts)
      .where(eq(accounts.userId, userId));
    return rows.map((row) => ({ provider: providerName(row.providerId), connectedAt: row.createdAt }));
  },
  erase: async (tx, userId) => {
    await tx.delete(accounts).where(eq(accounts.userId, userId));
  },
};

const messageData: MemberDataSection = {
  name: "messages",
  tables: ["outbound_messages"],
  async collect(db, userId) {
    const contact = await contactOf(db, userId);
    if (!contact) return [];
    return db
      .select({
        channel: outboundMessages.channel,
        to: outboundMessages.to,
        subject: outboundMessages.subject,
        text: outboundMessages.text,
        sentAt: outboundMessages.sentAt,
      })
      .from(outboundMessages)
      .where(sentTo(contact))
      .orderBy(desc(outboundMessages.sentAt));
  },
  erase: async (tx, userId) => {
    const contact = await contactOf(tx, userId);
    if (contact) await tx.delete(outboundMessages).where(sentTo(contact));
  },
};

// Orders, tickets and the cart (app/features/orders/member-data.server.ts).
/** Every area's sections, in the order the export file lists them. */
const sections: MemberDataSection[] = [
  profileData,
  sessionData,
  connectedAccountData,
  messageData,
  ...commerceMemberData,
  // Cars, photos, likes, reports and show-car applications (app/features/garage/member-data.server.ts).
  ...garageMemberData((hash) => carPhotoSources(hash, "gallery").src),
];

/** The member's addresses: the current one first, then those they changed away from (lower case). */
type Contact = { emails: string[]; phoneNumber: string | null };

async function contactOf(db: Db, userId: string): Promise<Contact | null> {
  const [row] = await db
    .select({ email: users.email, phoneNumber: users.phoneNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  const earlier = await db
    .select({ email: earlierEmails.email })
    .from(earlierEmails)
    .where(eq(earlierEmails.userId, userId));
  const emails = [...new Set([row.email, ...earlier.map((address) => address.email)].map((e) => e.toLowerCase()))];
  return { emails, phoneNumber: row.phoneNumber };
}

function sentTo({ emails, phoneNumber }: Contact) {
  const toEmail = and(
    eq(outboundMessages.channel, "email"),
    or(...emails.map((email) => sql`lower(${outboundMessages.to}) = ${email}`)),
  );
  return phoneNumber
    ? or(toEmail, and(eq(outboundMessages.channel, "sms"), eq(outboundMessages.to, phoneNumber)))
    : toEmail;
}

/** Column names whose values are secrets, left out of the catch-all whatever table they are in. */
const SECRET_COLUMN = /token|secret|password|hash|code/i;

/**
 * Rows of any other table that references the member, so the export is complete even for a
 * table whose area has not registered a section yet. Secret-looking columns are left out.
 */
async function otherRecords(db: Db, userId: string, covered: Set<string>) {
  const references = (await db.execute(sql`
    select cl.relname as "table", att.attname as "column"
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_namespace ns on ns.oid = cl.relnamespace
    join pg_attribute att on att.attrelid = con.conrelid and att.attnum = any(con.conkey)
    where con.contype = 'f' and con.confrelid = 'public.users'::regclass and ns.nspname = 'public'
    order by 1, 2`)) as unknown as { rows: { table: string; column: string }[] };
  const records: Record<string, Record<string, unknown>[]> = {};
  for (const { table, column } of references.rows) {
    if (covered.has(table)) continue;
    const result = (await db.execute(
      sql`select * from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    if (result.rows.length === 0) continue;
    const rows = result.rows.map((row) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => !SECRET_COLUMN.test(key))),
    );
    records[table] = [...(records[table] ?? []), ...rows];
  }
  return records;
}

export type MemberDataExport = { exportedAt: string } & Record<string, unknown>;

/** Everything the site keeps about a member, as one JSON document. */
export async function exportMemberData(db: Db, userId: string): Promise<MemberDataExport> {
  const result: MemberDataExport = { exportedAt: new Date().toISOString() };
  const covered = new Set<string>();
  for (const section of sections) {
    result[section.name] = await section.collect(db, userId);
    for (const table of section.tables) covered.add(table);
  }
  result.otherRecords = await otherRecords(db, userId, covered);
  return result;
}

export type DeletedMember = { email: string; name: string };

/**
 * Emails and texts still waiting in the job queue (or kept there after failing) carry the
 * member's addresses and their words: they go with the account. The queue's tables exist once
 * it has started on this database.
 */
async function eraseQueuedMessages(db: Db, { emails, phoneNumber }: Contact) {
  const present = (await db.execute(sql`select to_regclass('pgboss.job') is not null as "present"`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (!present.rows[0]?.present) return;
  const addresses = [...emails, ...(phoneNumber ? [phoneNumber] : [])];
  await db.execute(sql`
    delete from pgboss.job
    where name in ('email-send', 'sms-send')
      and lower(data->>'to') in (${sql.join(
        addresses.map((address) => sql`${address.toLowerCase()}`),
        sql`, `,
      )})`);
}

export function deletedMemberEmail(userId: string) {
  return `deleted-${userId}@invalid`;
}

/**
 * Deletes a member's account, keeping its orders for accounting with the personal data removed. In one transaction: sessions, sign-in methods, pending email and phone
 * links and codes, messages and every registered area's data go; the user row stays, so orders
 * keep their reference, but holds nothing personal and is banned, so it can never sign in again.
 * The stored avatar is removed after the transaction. Answers the old contact details (for the
 * goodbye email), or null when there is no such member.
 */
export async function deleteMemberAccount(
  db: Db,
  userId: string,
  options: { storage?: Storage } = {},
): Promise<DeletedMember | null> {
  // The rows go with the account; the photo files in storage are deleted after it.
  const photoFiles = await memberPhotoFiles(db, userId);
  const deleted = await db.transaction(async (tx) => {
    const [member] = await tx
      .select({ email: users.email, name: users.name, phoneNumber: users.phoneNumber, image: users.image })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!member) return null;
    const contact = (await contactOf(tx, userId))!;

    for (const section of sections) await section.erase?.(tx, userId);

    const email = member.email.toLowerCase();
    const phoneIdentifiers = member.phoneNumber
      ? [`phone-number-otp-${member.phoneNumber}`, `phone-number-reset-${member.phoneNumber}`]
      : [];
    await tx
      .delete(verifications)
      .where(
        or(
          eq(verifications.identifier, email),
          eq(verifications.value, userId),
          sql`position(${`"email":"${email}"`} in ${verifications.value}) > 0`,
          ...phoneIdentifiers.map((identifier) => eq(verifications.identifier, identifier)),
        ),
      );
    // Attempt counters are keyed by address, number or member (`sign-in:email:…`,
    // `phone-code-tries:<member>:<number>`, `email-change:<member>`).
    const keyParts = [...contact.emails, ...(member.phoneNumber ? [member.phoneNumber] : []), userId];
    await tx
      .delete(attemptLimits)
      .where(
        or(
          ...keyParts.flatMap((part) => [
            sql`lower(${attemptLimits.key}) like ${endingWith(`:${part.toLowerCase()}`)}`,
            sql`lower(${attemptLimits.key}) like ${containing(`:${part.toLowerCase()}:`)}`,
          ]),
        ),
      );
    await eraseQueuedMessages(tx, contact);
    await tx.delete(earlierEmails).where(eq(earlierEmails.userId, userId));

    await tx
      .update(users)
      .set({
        name: "Deleted member",
        email: deletedMemberEmail(userId),
        emailVerified: false,
        image: null,
        handle: null,
        town: null,
        townPublic: false,
        avatarPublic: false,
        dateOfBirth: null,
        instagram: null,
        phoneNumber: null,
        phoneNumberVerified: false,
        marketingConsent: false,
        notifyEvents: false,
        notifyDraws: false,
        notifyOrders: false,
        role: "member",
        banned: true,
        banReason: "Account deleted by its member",
        banExpires: null,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    return { email: member.email, name: member.name, image: member.image };
  });
  if (!deleted) return null;
  if (options.storage) {
    await deleteAvatarFiles(db, options.storage, deleted.image, userId);
    await deleteMemberPhotoFiles(db, options.storage, carPhotoMedia, photoFiles);
  }
  return { email: deleted.email, name: deleted.name };
}
