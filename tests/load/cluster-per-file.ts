import { afterAll, beforeAll } from "vitest";
import type { TestDatabase } from "~/server/db/test-database";
import { LOAD_WEBHOOK_SECRET, startCluster } from "./cluster";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";

/**
 * Registers the hooks that give a test file `instances` app servers on its own database, paying
 * through a fake Stripe, and returns an accessor for them (they exist once `beforeAll` has run).
 */
export function clusterPerFile(database: () => TestDatabase, instances: number) {
  let stripe: FakeStripe | undefined;
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  beforeAll(async () => {
    stripe = await startFakeStripe({ webhookSecret: LOAD_WEBHOOK_SECRET });
    cluster = await startCluster({ databaseUrl: database().url!, instances, stripe });
  }, 300_000);
  afterAll(async () => {
    await cluster?.stop();
    await stripe?.close();
  });
  return () => {
    if (!stripe || !cluster) throw new Error("The servers are started in beforeAll: use them inside a test");
    return { stripe, servers: cluster.servers };
  };
}
