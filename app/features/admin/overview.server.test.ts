import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { outboundMessages, users } from "../../../db/schema";
import { memberFigures, messagesSent, newestMembers } from "./overview.server";

const database = freshDatabasePerFile();
const now = new Date("2026-06-15T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

describe("overview figures", () => {
  it("are all zero on an empty site", async () => {
    expect(await memberFigures(database().db, now)).toEqual({ members: 0, newThisWeek: 0, staff: 0 });
    expect(await messagesSent(database().db, now)).toEqual({ total: 0, emails: 0, texts: 0 });
  });

  it("count accounts, those opened in the last 7 days, and staff", async () => {
    const db = database().db;
    const accounts = [
      { email: "old-member@club.example", role: "member", joined: daysAgo(30) },
      { email: "new-member@club.example", role: "member", joined: daysAgo(2) },
      { email: "edge@club.example", role: "member", joined: daysAgo(7.01) },
      { email: "organizer@club.example", role: "organizer", joined: daysAgo(1) },
      { email: "admin@club.example", role: "admin", joined: daysAgo(400) },
    ] as const;
    for (const account of accounts) {
      await insertAccount(db, { email: account.email, name: account.email, role: account.role, passwordHash: "x" });
    }
    for (const account of accounts) {
      await db.update(users).set({ createdAt: account.joined }).where(eq(users.email, account.email));
    }

    expect(await memberFigures(db, now)).toEqual({ members: 5, newThisWeek: 2, staff: 2 });
    const newest = await newestMembers(db, 3);
    expect(newest.map((member) => member.name)).toEqual([
      "organizer@club.example",
      "new-member@club.example",
      "edge@club.example",
    ]);
  });

  it("count the emails and texts sent in the last 24 hours", async () => {
    const db = database().db;
    const message = { to: "someone@club.example", text: "Hello", transport: "mailbox" as const };
    await db.insert(outboundMessages).values([
      { ...message, channel: "email", sentAt: daysAgo(0.1) },
      { ...message, channel: "email", sentAt: daysAgo(0.9) },
      { ...message, channel: "sms", sentAt: daysAgo(0.5) },
      { ...message, channel: "email", sentAt: daysAgo(1.1) },
      { ...message, channel: "sms", sentAt: daysAgo(3) },
    ]);

    expect(await messagesSent(db, now)).toEqual({ total: 3, emails: 2, texts: 1 });
  });
});
