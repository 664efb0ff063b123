import { randomBytes } from "node:crypto";
import pg from "pg";
import { openPostgres, runMigrations } from "~/server/db/client.server";
import { raceForLastPlaces } from "./checkout-race";
import { LOAD_WEBHOOK_SECRET, startCluster } from "./cluster";
import { startFakeStripe } from "./fake-stripe";

/**
 * The checkout race of checkout-race.test.ts as a measurement (`node bench/checkout.mjs`): a
 * database of its own on the PostgreSQL server at `serverUrl`, dropped afterwards.
 */
export async function benchCheckout(options: {
  serverUrl: string;
  buyers: number;
  places: number;
  instances: number;
  replays: number;
  poolSize: number;
}) {
  const name = `pitlane_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const maintenance = async (statement: string) => {
    const client = new pg.Client({ connectionString: options.serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  await maintenance(`create database "${name}"`);
  const handle = await openPostgres(url.toString(), 5);
  const stripe = await startFakeStripe({ webhookSecret: LOAD_WEBHOOK_SECRET });
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  try {
    await runMigrations(handle);
    cluster = await startCluster({
      databaseUrl: url.toString(),
      instances: options.instances,
      stripe,
      poolSize: options.poolSize,
    });
    return await raceForLastPlaces({
      database: handle,
      servers: cluster.servers,
      stripe,
      buyers: options.buyers,
      places: options.places,
      replays: options.replays,
    });
  } finally {
    await cluster?.stop();
    await stripe.close();
    await handle.close();
    await maintenance(`drop database if exists "${name}" with (force)`);
  }
}
