import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { rollingRestart } from "./rolling-restart";

/**
 * The rolling restart of docs/deploy.md under load: two production servers behind nginx, on
 * PostgreSQL and an S3-compatible bucket, each sent SIGTERM in turn and started again while
 * visitors load pages and members pay for tickets. No request fails and no paid order is lost.
 * PostgreSQL only (the embedded database belongs to one process), and nginx at /usr/sbin/nginx
 * (or NGINX_PATH). `node bench/rolling-restart.mjs` runs it with more load and prints the figures.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "rolling restart behind nginx (PostgreSQL only)",
  { timeout: 600_000 },
  () => {
    // Empty: both servers start at once on it, and one migrates while the other waits.
    const database = freshDatabasePerFile({ migrate: false });

    it("answers every request and settles every paid order while each server restarts in turn", async () => {
      const report = await rollingRestart({
        database: database(),
        databaseUrl: database().url!,
        visitors: 2,
        buyers: 3,
        settleSeconds: 3,
        basePort: process.env.ROLLING_RESTART_PORT ? Number(process.env.ROLLING_RESTART_PORT) : undefined,
      });
      const why = JSON.stringify(report, null, 2);
      expect(report.failures, why).toEqual({});
      expect(report.failedRequests, why).toBe(0);
      // Each server drained and exited cleanly, and came back to take its share.
      expect(
        report.restarts.map((restart) => ({ exitCode: restart.exitCode, drained: restart.drained })),
        why,
      ).toEqual([
        { exitCode: 0, drained: true },
        { exitCode: 0, drained: true },
      ]);
      expect(Object.keys(report.answeredBy), why).toHaveLength(2);
      // Orders: every payment the buyer saw succeed is settled, with its ticket and its email.
      expect(report.paymentsAnswered, why).toBeGreaterThan(0);
      expect(report.lostOrders, why).toBe(0);
      expect(report.paidInDatabase, why).toBe(report.paymentsAnswered);
      expect(report.ordersNotSettled, why).toBe(0);
      expect(report.ticketsIssued, why).toBe(report.paymentsAnswered);
      expect(report.soldCount, why).toBe(report.paymentsAnswered);
      expect(report.confirmationEmails, why).toBe(report.paymentsAnswered);
    });
  },
);
