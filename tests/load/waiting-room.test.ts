import { describe, expect, it } from "vitest";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type OnSaleReport, runOnSale } from "./waiting-room";

/**
 * The waiting room's acceptance test: 2,000 visitors for 200 places across two app servers'
 * pools on one PostgreSQL database, with a clock moved on a minute at a time. PostgreSQL only
 * (the embedded database runs one transaction at a time, so nothing would race): runs when
 * DATABASE_URL is set. The figures are printed for docs/waiting-room.md.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "waiting room across two servers (PostgreSQL only)",
  { timeout: 900_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });
    let report: OnSaleReport;

    it("lets 2,000 visitors through in queue order, each once, and sells exactly the 200 places", async () => {
      report = await runOnSale({
        setup: database().db,
        servers,
        visitors: 2000,
        earlyVisitors: 1400,
        places: 200,
        ratePerMinute: 40,
        admissionMinutes: 4,
        minutes: 14,
        opensAt: new Date("2027-05-01T10:00:00Z"),
      });
      console.log(`waiting room on-sale: ${JSON.stringify(report, null, 2)}`);
      const why = JSON.stringify(report, null, 2);
      expect(report.joined, why).toBe(2000);
      expect(report.admittedOutOfRankOrder, why).toBe(0);
      expect(report.admittedTwice, why).toBe(0);
      expect(report.admissionWrites, why).toBe(report.admitted);
      expect(report.positionWentBack, why).toBe(0);
      expect(report.sold, why).toBe(200);
      expect(report.tickets, why).toBe(200);
      expect(report.oversold, why).toBe(0);
      expect(report.paidWithoutTurn, why).toBe(0);
      expect(report.jumperAttempts, why).toBeGreaterThan(0);
      expect(report.jumperRefused, why).toBe(report.jumperAttempts);
      expect(report.lateAttempts, why).toBeGreaterThan(0);
      expect(report.lateRefused, why).toBe(report.lateAttempts);
    });

    it("orders those there at opening by a uniform shuffle, not by when they joined", () => {
      // For 1,400 places in a random order, Spearman's ρ has a standard deviation of about 0.027,
      // and the 10 × 10 table of join-order deciles against place deciles has a χ² (81 degrees
      // of freedom) above 124.8 one time in a thousand. Places by joining order would give ρ = 1,
      // a χ² of 12,600 and all 140 first-tenth joiners a first-tenth place (a shuffle: about 14).
      expect(report, "the on-sale above ran").toBeDefined();
      expect(Math.abs(report.earlyOrderCorrelation)).toBeLessThan(0.1);
      expect(report.earlyDecileChiSquare).toBeLessThan(124.8);
      expect(report.firstTenthJoinersInFirstTenth).toBeLessThan(40);
    });
  },
);
