import { getLog } from "../log.server";
import type { Db } from "./client.server";

/** SQLSTATEs after which PostgreSQL expects the whole transaction to be run again. */
const RETRYABLE = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

export function sqlState(error: unknown): string | undefined {
  const direct = (error as { code?: unknown }).code;
  if (typeof direct === "string") return direct;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof cause === "string" ? cause : undefined;
}

export function isUniqueViolation(error: unknown) {
  return sqlState(error) === "23505";
}

let retried = 0;

/** How many transactions this process has had to run again; tests assert it stays 0. */
export function retriedTransactions() {
  return retried;
}

/**
 * Runs `work` in a transaction, and runs it again when PostgreSQL aborted it as a deadlock
 * victim or a serialization failure. The money paths take their row locks in one fixed order so
 * neither should happen; this is the safety net for code added later that forgets the order.
 */
export async function transactionWithRetry<T>(db: Db, work: (tx: Db) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => work(tx as unknown as Db));
    } catch (error) {
      const state = sqlState(error) ?? "";
      if (attempt >= attempts || !RETRYABLE.has(state)) throw error;
      retried++;
      getLog().warn({ sqlState: state, attempt }, "transaction aborted by the database; running it again");
      // A short random pause so the transactions that collided do not meet again at once.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
