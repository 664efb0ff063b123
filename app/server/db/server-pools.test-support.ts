import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import * as schema from "../../../db/schema";
import type { Db } from "./client.server";

/**
 * App servers for the contention tests: `count` separate connection pools on the test file's
 * PostgreSQL database, each standing for one app server, opened before the file's tests and
 * closed after them. A pool's `end` resolves before its sockets close, so the database is
 * dropped only once every connection has ended. The returned array fills in `beforeAll`.
 */
export function appServerPools(database: () => { url?: string }, options: { count: number; max: number }): Db[] {
  const servers: Db[] = [];
  const pools: pg.Pool[] = [];
  const closed: Promise<void>[] = [];
  beforeAll(() => {
    for (let index = 0; index < options.count; index++) {
      const pool = new pg.Pool({
        connectionString: database().url,
        max: options.max,
        connectionTimeoutMillis: 120_000,
      });
      pool.on("connect", (client) => closed.push(new Promise((resolve) => client.once("end", () => resolve()))));
      pools.push(pool);
      servers.push(drizzle(pool, { schema }) as unknown as Db);
    }
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(closed);
  });
  return servers;
}
