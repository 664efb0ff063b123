import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog, memberships } from "../../../db/schema";
import { checkMemberImport, type ImportPreview, importMembers } from "./member-import.server";
import { issueMembership } from "./memberships.server";
import { createTestTier } from "./tiers.test-support";

// Importing members from a CSV: the check writes nothing, the import writes what the check
// showed (and only that), in one go, with its audit entry.
const database = freshDatabasePerFile();
const NOW = new Date("2027-03-10T12:00:00Z");
const CALL = { timeZone: "Europe/London", now: NOW, secret: "a-secret-of-at-least-thirty-two-characters" };

const csv = (...rows: string[]) => new File([["Email,Name,Tier,Valid until", ...rows].join("\r\n")], "members.csv");

async function checked(file: File) {
  const check = await checkMemberImport(database().db, file, CALL);
  if (!check.ok) throw new Error(check.message);
  return check.preview;
}

const importing = (preview: ImportPreview, actorId: string, call = CALL) =>
  importMembers(database().db, { text: preview.text.replace(/\n/g, "\r\n"), digest: preview.digest, actorId }, call);

describe("checking a file", () => {
  it("says what each row would do, with totals, and writes nothing", async () => {
    const { db } = database();
    const gold = await createTestTier(db, { name: "Check gold", slug: "check-gold" });
    const joining = await testAccount(db, "member", "Jo Joining");
    const renewing = await testAccount(db, "member", "Rene Renewing");
    await issueMembership(db, {
      userId: renewing.id,
      tier: gold,
      people: [],
      orderId: null,
      paidPence: 3000,
      paidAt: NOW,
    });
    const preview = await checked(
      csv(
        `${joining.email},Jo,Check gold,2027-12-31`,
        `${renewing.email},Rene,check-gold,2029-01-31`,
        "nobody@club.example,No One,Check gold,2027-12-31",
        `"${joining.email.toUpperCase()}",Jo again,Gold,2027-12-31`,
      ),
    );
    expect(preview.rows.map((row) => [row.line, row.outcome, row.message])).toEqual([
      [2, "refused", `Row 2: ${joining.email} is also on row 5: keep one row per member`],
      [3, "extend", "Check gold membership extended from 10 March 2028 to 1 February 2029"],
      [4, "refused", "Row 4: no account with this email: ask them to sign up first"],
      [5, "refused", "Row 5: no tier called 'Gold'"],
    ]);
    expect(preview.totals).toMatchObject({ extend: 1, refused: 3, importable: 1, rows: 4 });
    expect(await db.select().from(auditLog)).toEqual([]);
    const [row] = await db.select().from(memberships).where(eq(memberships.userId, renewing.id));
    expect(row?.paidUntil).toEqual(new Date("2028-03-10T12:00:00Z"));
  });

  it("answers a clear message for a missing, empty, oversized or unreadable file", async () => {
    const { db } = database();
    expect(await checkMemberImport(db, null, CALL)).toEqual({ ok: false, message: "Choose a CSV file to check" });
    expect(await checkMemberImport(db, new File([], "empty.csv"), CALL)).toMatchObject({ ok: false });
    expect(await checkMemberImport(db, new File(["x".repeat(1_000_001)], "big.csv"), CALL)).toMatchObject({
      ok: false,
      message: "The file is larger than 1 MB: split it into smaller files",
    });
    expect(await checkMemberImport(db, new File([new Uint8Array([0xff, 0xfe, 0x41])], "a.csv"), CALL)).toMatchObject({
      ok: false,
      message: expect.stringContaining("UTF-8"),
    });
    expect(await checkMemberImport(db, new File(["name,level\nA,Gold"], "a.csv"), CALL)).toMatchObject({
      ok: false,
      message: expect.stringContaining("must name the columns"),
    });
  });
});

describe("importing a checked file", () => {
  it("issues and extends the memberships the check showed, leaves refused rows out, and audits it", async () => {
    const { db } = database();
    const staff = await testAccount(db, "organizer");
    const tier = await createTestTier(db, { name: "Import annual", autoRenews: true });
    const noRenew = await createTestTier(db, { name: "Import honorary", autoRenews: false });
    const newcomer = await testAccount(db, "member", "Nia Newcomer");
    const lapsed = await testAccount(db, "member", "Lara Lapsed");
    const current = await testAccount(db, "member", "Cal Current");
    const longAgo = new Date("2025-01-01T12:00:00Z");
    await issueMembership(db, {
      userId: lapsed.id,
      tier,
      people: ["Kid"],
      orderId: null,
      paidPence: 3000,
      paidAt: longAgo,
    });
    await issueMembership(db, { userId: current.id, tier, people: [], orderId: null, paidPence: 3000, paidAt: NOW });
    const [before] = await db.select().from(memberships).where(eq(memberships.userId, current.id));
    const [lapsedBefore] = await db.select().from(memberships).where(eq(memberships.userId, lapsed.id));
    await db.update(memberships).set({ renewalFailures: 2 }).where(eq(memberships.userId, current.id));

    const preview = await checked(
      csv(
        `${newcomer.email},Nia,Import honorary,2027-12-31`,
        `${lapsed.email},Lara,import annual,2027-07-31`,
        `${current.email},Cal,Import annual,2028-12-31`,
        "stranger@club.example,Stranger,Import annual,2027-12-31",
      ),
    );
    expect(preview.totals).toMatchObject({ join: 1, rejoin: 1, extend: 1, refused: 1, importable: 3 });
    const result = await importing(preview, staff.id);
    expect(result).toEqual({ ok: true, totals: expect.objectContaining({ importable: 3, refused: 1 }) });

    const rows = await db.select().from(memberships);
    const of = (userId: string) => rows.find((row) => row.userId === userId)!;
    expect(of(newcomer.id)).toMatchObject({
      tierId: noRenew.id,
      paidUntil: new Date("2028-01-01T00:00:00Z"),
      periodStartsAt: NOW,
      joinedAt: NOW,
      paidPence: 0,
      orderId: null,
      paymentMethod: null,
      renews: false,
      people: [],
      endedAt: null,
    });
    expect(of(newcomer.id).cardCode).toMatch(/^[0-9A-Z]{20,}$/);
    expect(of(lapsed.id).cardCode).not.toBe(lapsedBefore!.cardCode);
    expect(of(lapsed.id)).toMatchObject({
      tierId: tier.id,
      paidUntil: new Date("2027-07-31T23:00:00Z"),
      joinedAt: NOW,
      renews: true,
      people: [],
      paymentMethod: null,
    });
    expect(of(current.id)).toMatchObject({
      paidUntil: new Date("2029-01-01T00:00:00Z"),
      joinedAt: before!.joinedAt,
      cardCode: before!.cardCode,
      renewalFailures: 0,
    });
    expect(rows.filter((row) => row.tierId === tier.id || row.tierId === noRenew.id)).toHaveLength(3);

    const audit = await db.select().from(auditLog).where(eq(auditLog.actorId, staff.id));
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: staff.id,
        action: "membership.import",
        subjectType: "membership_import",
        details: expect.objectContaining({
          totals: expect.objectContaining({ join: 1, rejoin: 1, extend: 1, refused: 1 }),
          memberships: [
            expect.objectContaining({ row: 2, email: newcomer.email, outcome: "join" }),
            expect.objectContaining({ row: 3, email: lapsed.email, outcome: "rejoin" }),
            expect.objectContaining({
              row: 4,
              outcome: "extend",
              previousPaidUntil: before!.paidUntil.toISOString(),
            }),
          ],
        }),
      }),
    ]);

    // The same file again: the imported rows are already done, nothing else can be imported.
    const again = await checked(
      csv(
        `${newcomer.email},Nia,Import honorary,2027-12-31`,
        `${lapsed.email},Lara,import annual,2027-07-31`,
        `${current.email},Cal,Import annual,2028-12-31`,
      ),
    );
    expect(again.totals).toMatchObject({ unchanged: 3, importable: 0 });
    expect(await importing(again, staff.id)).toMatchObject({ ok: false });
  });

  it("writes nothing when the text or digest was altered, or the site changed since the check", async () => {
    const { db } = database();
    const staff = await testAccount(db, "organizer");
    const capped = await createTestTier(db, { name: "Import capped", capacity: 1 });
    const first = await testAccount(db, "member", "First Come");
    const other = await testAccount(db, "member", "Other Buyer");
    const preview = await checked(csv(`${first.email},First,Import capped,2027-12-31`));
    expect(preview.totals.join).toBe(1);

    const forged = await importMembers(
      db,
      { text: preview.text.replace("2027-12-31", "2037-12-31"), digest: preview.digest, actorId: staff.id },
      CALL,
    );
    expect(forged).toMatchObject({ ok: false, message: expect.stringContaining("Something changed") });
    const wrongDigest = await importMembers(db, { text: preview.text, digest: "made-up", actorId: staff.id }, CALL);
    expect(wrongDigest.ok).toBe(false);

    // Someone else takes the tier's only place between the check and the import.
    await issueMembership(db, { userId: other.id, tier: capped, people: [], orderId: null, paidPence: 0, paidAt: NOW });
    const late = await importing(preview, staff.id);
    expect(late).toMatchObject({ ok: false, message: expect.stringContaining("Something changed") });
    expect(!late.ok && late.preview?.rows.map((row) => row.message)).toEqual([
      "Row 2: Import capped is full: every place is taken",
    ]);
    expect(await db.select().from(memberships).where(eq(memberships.userId, first.id))).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.actorId, staff.id))).toEqual([]);
  });
});
