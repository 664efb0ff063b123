import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { prepareAvatar, saveAvatar } from "~/features/accounts/avatar.server";
import { testAccounts } from "~/features/accounts/members.test-support";
import { requestEmailChange } from "~/features/accounts/settings.server";
import { signInWithPassword } from "~/features/accounts/sign-in.server";
import { deletedMemberEmail, deleteMemberAccount, exportMemberData } from "~/features/privacy/privacy.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import {
  accounts,
  attemptLimits,
  earlierEmails,
  outboundMessages,
  sessions,
  users,
  verifications,
} from "../../../db/schema";

const database = freshDatabasePerFile();

describe("exportMemberData", () => {
  it("holds the profile, sessions without tokens, sign-in methods and messages", async () => {
    const { db } = database();
    const { createMember } = testAccounts(db);
    const member = await createMember({ name: "Erin Export", email: "erin@example.com", handle: "erin" });
    const other = await createMember({ name: "Olly Other", email: "olly@example.com" });
    await db.update(users).set({ town: "York", townPublic: true }).where(eq(users.id, member.id));
    await db.insert(outboundMessages).values([
      { channel: "email", to: "erin@example.com", subject: "Your ticket", text: "See you there", transport: "mailbox" },
      { channel: "email", to: "olly@example.com", subject: "Not Erin's", text: "Hidden", transport: "mailbox" },
    ]);

    const exported = await exportMemberData(db, member.id);
    const text = JSON.stringify(exported);

    expect(exported.profile).toMatchObject({
      id: member.id,
      email: "erin@example.com",
      name: "Erin Export",
      handle: "erin",
      town: "York",
      shownToOthers: { town: true, photo: false },
      notifications: { eventNews: true, drawResults: true, orderUpdates: true, marketing: false },
    });
    expect(exported.connectedAccounts).toEqual([{ provider: "Password", connectedAt: expect.any(Date) }]);
    expect(exported.sessions).toHaveLength(1);
    expect(exported.messages).toEqual([expect.objectContaining({ subject: "Your ticket", to: "erin@example.com" })]);

    const [session] = await db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, member.id));
    const [credential] = await db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, member.id));
    expect(text).not.toContain(session!.token);
    expect(text).not.toContain(credential!.password!);
    expect(text).not.toContain(other.id);
    expect(text).not.toContain("Not Erin's");
  });

  it("includes rows of any other table that references the member, without secret columns", async () => {
    const { db } = database();
    const { createMember } = testAccounts(db);
    const member = await createMember({ name: "Gus Garage", email: "gus@example.com" });
    await db.execute(sql`
      create table test_parking_passes (
        id serial primary key,
        holder_id text not null references users(id),
        bay text not null,
        access_token text
      )`);
    await db.execute(
      sql`insert into test_parking_passes (holder_id, bay, access_token) values (${member.id}, 'B12', 'tok_secret')`,
    );

    const exported = await exportMemberData(db, member.id);
    expect(exported.otherRecords).toEqual({ test_parking_passes: [{ id: 1, holder_id: member.id, bay: "B12" }] });
    await db.execute(sql`drop table test_parking_passes`);
  });
});

describe("deleteMemberAccount", () => {
  it("removes personal data, sessions and sign-ins, and keeps an anonymous, banned row", async () => {
    const { db } = database();
    const { auth, storage, createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Dana Delete", email: "dana@example.com", handle: "dana" });
    const keeper = await createMember({ name: "Kim Keep", email: "kim@example.com", handle: "kim" });
    await db
      .update(users)
      .set({
        town: "Leeds",
        townPublic: true,
        avatarPublic: true,
        instagram: "dana.drives",
        dateOfBirth: "1990-04-01",
        phoneNumber: "+447700900123",
      })
      .where(eq(users.id, member.id));
    const avatar = await prepareAvatar(
      await sharp({ create: { width: 50, height: 50, channels: 3, background: "#345" } })
        .png()
        .toBuffer(),
    );
    if (!avatar.ok) throw new Error(avatar.message);
    await saveAvatar(db, storage, member.id, avatar);
    const expiresAt = new Date(Date.now() + 60_000);
    await db.insert(verifications).values([
      { id: "v1", identifier: "reset-password:abc", value: member.id, expiresAt },
      { id: "v2", identifier: "magic-1", value: '{"type":"magic-link","email":"dana@example.com"}', expiresAt },
      { id: "v3", identifier: "phone-number-otp-+447700900123", value: "123456:0", expiresAt },
      { id: "v4", identifier: "magic-2", value: '{"type":"magic-link","email":"kim@example.com"}', expiresAt },
    ]);
    await db.insert(attemptLimits).values({ key: "sign-in:email:dana@example.com", count: 2, windowEndsAt: expiresAt });
    await db.insert(outboundMessages).values({
      channel: "email",
      to: "dana@example.com",
      subject: "Hi",
      text: "Hello",
      transport: "mailbox",
    });

    const deleted = await deleteMemberAccount(db, member.id, { storage });
    expect(deleted).toEqual({ email: "dana@example.com", name: "Dana Delete" });

    const [row] = await db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({
      name: "Deleted member",
      email: deletedMemberEmail(member.id),
      handle: null,
      image: null,
      town: null,
      townPublic: false,
      avatarPublic: false,
      instagram: null,
      dateOfBirth: null,
      phoneNumber: null,
      marketingConsent: false,
      banned: true,
    });
    expect(JSON.stringify(row)).not.toMatch(/dana/i);
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await db.select().from(accounts).where(eq(accounts.userId, member.id))).toEqual([]);
    expect((await db.select({ id: verifications.id }).from(verifications)).map((v) => v.id)).toEqual(["v4"]);
    expect(await db.select().from(attemptLimits)).toEqual([]);
    expect(await db.select().from(outboundMessages).where(eq(outboundMessages.to, "dana@example.com"))).toEqual([]);
    expect(await storage.get(`avatars/${avatar.hash}.webp`)).toBeNull();

    // The other member is untouched.
    const [kept] = await db
      .select({ email: users.email, handle: users.handle })
      .from(users)
      .where(eq(users.id, keeper.id));
    expect(kept).toEqual({ email: "kim@example.com", handle: "kim" });
    expect(await db.select().from(sessions).where(eq(sessions.userId, keeper.id))).toHaveLength(1);

    // The old credentials get the same answer as any wrong email or password.
    const signIn = await signInWithPassword(callFor(new Headers()), {
      email: "dana@example.com",
      password: member.password,
    });
    expect(signIn).toEqual({ ok: false, reason: "invalid" });
    // And the anonymised address cannot be used either.
    await expect(
      auth.api.signInEmail({ body: { email: deletedMemberEmail(member.id), password: member.password } }),
    ).rejects.toThrow();
  });

  it("erases messages to addresses the member had before, counters keyed by their number, and queued messages", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Pat Moved", email: "pat.old@example.com", handle: "pat" });
    const keeper = await createMember({ name: "Lee Stay", email: "lee@example.com", handle: "lee" });
    const phoneNumber = "+447700900555";

    const change = await requestEmailChange(
      callFor(member.headers),
      { id: member.id, email: member.email },
      { newEmail: "pat_new@example.com", currentPassword: member.password },
    );
    expect(change.ok).toBe(true);
    expect(await db.select({ email: earlierEmails.email }).from(earlierEmails)).toEqual([
      { email: "pat.old@example.com" },
    ]);
    // The confirmation link was opened: the account now has the new address and a phone number.
    await db.update(users).set({ email: "pat_new@example.com", phoneNumber }).where(eq(users.id, member.id));

    const message = (to: string, channel: "email" | "sms" = "email") => ({
      channel,
      to,
      subject: channel === "email" ? "Hi" : null,
      text: `Hello ${to}`,
      transport: "mailbox" as const,
    });
    await db
      .insert(outboundMessages)
      .values([
        message("pat.old@example.com"),
        message("PAT_NEW@example.com"),
        message(phoneNumber, "sms"),
        message("lee@example.com"),
        message("patxnew@example.com"),
      ]);
    const windowEndsAt = new Date(Date.now() + 60_000);
    const keys = [
      `phone-code-tries:${member.id}:${phoneNumber}`,
      `phone-code-send:${member.id}`,
      "sign-in:email:pat.old@example.com",
      "sign-in:email:pat_new@example.com",
      "sign-in:email:patxnew@example.com",
      "sign-in:email:lee@example.com",
      `phone-code-tries:${keeper.id}:+447700900556`,
    ];
    await db.delete(attemptLimits).where(sql`true`);
    await db.insert(attemptLimits).values(keys.map((key) => ({ key, count: 1, windowEndsAt })));
    // The job queue's table, with the columns deletion reads. On PostgreSQL the migrations have
    // installed the real queue; a stand-in with those columns takes its place for this test.
    await db.execute(sql`drop schema if exists pgboss cascade`);
    await db.execute(sql`create schema pgboss`);
    await db.execute(sql`create table pgboss.job (id serial primary key, name text not null, data jsonb)`);
    await db.execute(sql`
      insert into pgboss.job (name, data) values
        ('email-send', '{"to":"pat.old@example.com","subject":"Old","text":"x"}'),
        ('email-send', '{"to":"pat_new@example.com","subject":"New","text":"x"}'),
        ('sms-send', ${JSON.stringify({ to: phoneNumber, text: "Your code" })}::jsonb),
        ('email-send', '{"to":"lee@example.com","subject":"Lee","text":"x"}'),
        ('order-email', '{"orderId":"o1"}')`);

    await deleteMemberAccount(db, member.id);

    const left = await db.select({ to: outboundMessages.to }).from(outboundMessages);
    const ours = ["pat.old@example.com", "pat_new@example.com", phoneNumber, "lee@example.com", "patxnew@example.com"];
    expect(
      left
        .map((row) => row.to.toLowerCase())
        .filter((to) => ours.includes(to))
        .sort(),
    ).toEqual(["lee@example.com", "patxnew@example.com"]);
    const counters = await db.select({ key: attemptLimits.key }).from(attemptLimits);
    expect(counters.map((row) => row.key).sort()).toEqual(
      [
        "sign-in:email:lee@example.com",
        "sign-in:email:patxnew@example.com",
        `phone-code-tries:${keeper.id}:+447700900556`,
      ].sort(),
    );
    const jobs = (await db.execute(sql`select name, data->>'to' as "to" from pgboss.job order by id`)) as unknown as {
      rows: { name: string; to: string | null }[];
    };
    expect(jobs.rows).toEqual([
      { name: "email-send", to: "lee@example.com" },
      { name: "order-email", to: null },
    ]);
    expect(await db.select().from(earlierEmails)).toEqual([]);
    await db.execute(sql`drop schema pgboss cascade`);
  });

  it("answers null for a member who does not exist", async () => {
    const { db } = database();
    expect(await deleteMemberAccount(db, "no-such-member")).toBeNull();
  });
});
