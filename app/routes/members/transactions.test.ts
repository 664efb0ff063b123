import { describe, expect, it } from "vitest";
import { giveCredit } from "~/features/credit/credit.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { answerOf, routeTestSite } from "~/web/route-calls.test-support";
import { loader } from "./transactions";

// /transactions (the member's orders page) and its account credit, called as React Router calls
// it, by a visitor and each role.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "member-transactions" });
const path = "/transactions";
const DAY = 86_400_000;

describe("/transactions with account credit", () => {
  it("sends a visitor to sign in", async () => {
    expect(await answerOf(() => loader(site.args(null, { path })))).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(path)}`,
    });
  });

  it("shows no credit section to a member who never had credit", async () => {
    const page = await answerOf(() => loader(site.args("member", { path })));
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ credit: null });
  });

  it("shows each signed-in role their own balance, what runs out when, and the ledger", async () => {
    const { db } = database();
    for (const [index, who] of (["member", "organizer", "admin"] as const).entries()) {
      const now = new Date();
      const amount = 1000 * (index + 2);
      await giveCredit(db, {
        userId: site.accounts[who].id,
        amount,
        expiresAt: new Date(now.getTime() + 30 * DAY),
        now,
      });
      const page = await answerOf(() => loader(site.args(who, { path })));
      expect(page.status, who).toBe(200);
      const credit = (page.data as { credit: { available: string; expiring: unknown[]; lines: unknown[] } }).credit;
      expect(credit.available, who).toBe(`£${amount / 100}.00`);
      expect(credit.expiring, who).toHaveLength(1);
      expect(credit.expiring[0], who).toMatchObject({ amount: `£${amount / 100}.00` });
      expect(credit.lines, who).toEqual([
        expect.objectContaining({
          label: "Adjustment",
          amount: `+£${amount / 100}.00`,
          order: null,
          reason: "Goodwill",
        }),
      ]);
    }
  });
});
