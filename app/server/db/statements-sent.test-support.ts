import { vi } from "vitest";
import type { DatabaseHandle } from "./client.server";

/**
 * The statements `work` sends to the database, in order, as their SQL text, on whichever engine
 * the test runs (PGlite or a PostgreSQL pool), with what `work` answered.
 */
export async function statementsSent<T>(
  handle: Pick<DatabaseHandle, "pglite" | "pool">,
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const client = (handle.pglite ?? handle.pool) as unknown as { query: (...args: unknown[]) => unknown };
  const spy = vi.spyOn(client, "query");
  try {
    const result = await work();
    const statements = spy.mock.calls.map(([query]) =>
      typeof query === "string" ? query : (query as { text: string }).text,
    );
    return { result, statements };
  } finally {
    spy.mockRestore();
  }
}
