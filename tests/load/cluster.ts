import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createBuyers } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, sessions } from "../../db/schema";
import { buildState } from "../../scripts/build-freshness.mjs";
import type { FakeStripe } from "./fake-stripe";

/**
 * Real app servers for the load and crash tests: the production build started exactly as
 * `npm start` does, several at once on one PostgreSQL database, each its own process that can be
 * killed with any signal and started again. Payments go to the fake Stripe.
 */

const root = path.resolve(import.meta.dirname, "../..");

export const LOAD_AUTH_SECRET = `load-test-secret-${"x".repeat(32)}`;
export const LOAD_WEBHOOK_SECRET = "whsec_load_test_secret";

/**
 * Builds the site when build/ is missing or older than the sources, as `npm start` does. Test
 * files run in parallel: one builds while the others wait for it.
 */
export async function ensureBuild() {
  const lock = path.join(root, ".build-lock");
  for (;;) {
    if (buildState() === "fresh") return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Left by a build that was interrupted: no build takes ten minutes.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 600_000) {
        rmSync(lock, { recursive: true, force: true });
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error("The production build failed");
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export type AppServer = {
  url: string;
  /** The application_name of its database connections, to find them in pg_stat_activity. */
  applicationName: string;
  /** Starts (or starts again) the process and waits until it answers /readyz. */
  start(): Promise<void>;
  /** Kills the process with this signal and waits until it has gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** What the process printed, for a failing test's message. */
  output(): string;
};

export async function startCluster(options: {
  databaseUrl: string;
  instances: number;
  stripe: FakeStripe;
  poolSize?: number;
  /** Extra flags for each server's Node, such as `--cpu-prof` to see where a load test's time goes. */
  nodeFlags?: string[];
}) {
  await ensureBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-load-"));
  const servers: AppServer[] = [];
  for (let index = 0; index < options.instances; index++) {
    servers.push(appServer({ ...options, port: await freePort(), dataDir: path.join(dataDir, String(index)) }));
  }
  // One after another: the first applies any migration and creates the job queues.
  for (const server of servers) await server.start();
  return {
    servers,
    async stop() {
      await Promise.all(servers.map((server) => server.kill("SIGTERM")));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function appServer(options: {
  databaseUrl: string;
  stripe: FakeStripe;
  port: number;
  dataDir: string;
  poolSize?: number;
  nodeFlags?: string[];
}): AppServer {
  const url = `http://127.0.0.1:${options.port}`;
  const applicationName = `pitlane-load-${options.port}`;
  let child: ChildProcess | null = null;
  let log = "";
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(options.port),
    SITE_URL: url,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: String(options.poolSize ?? 20),
    // node-postgres names its connections after this.
    PGAPPNAME: applicationName,
    AUTH_SECRET: LOAD_AUTH_SECRET,
    SEED_DEMO: "0",
    STRIPE_SECRET_KEY: "sk_test_load",
    STRIPE_WEBHOOK_SECRET: LOAD_WEBHOOK_SECRET,
    STRIPE_API_URL: options.stripe.url,
    LOG_LEVEL: "warn",
  };

  return {
    url,
    applicationName,
    output: () => log,
    async start() {
      if (child) throw new Error(`${url} is already running`);
      const started = spawn(process.execPath, [...(options.nodeFlags ?? []), "--import", "tsx", "server.ts"], {
        cwd: root,
        env,
        stdio: "pipe",
      });
      child = started;
      const keep = (chunk: Buffer) => {
        log = (log + chunk.toString("utf8")).slice(-20_000);
      };
      started.stdout?.on("data", keep);
      started.stderr?.on("data", keep);
      started.once("exit", () => {
        if (child === started) child = null;
      });
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child !== started) throw new Error(`${url} exited while starting:\n${log}`);
        try {
          const response = await fetch(`${url}/readyz`);
          if (response.ok) return;
        } catch {
          // Not listening yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${url} did not become ready within 60 s:\n${log}`);
    },
    async kill(signal) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill(signal);
      await exited;
    },
  };
}

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** A signed-in session for a member, made as Better Auth makes one, with the cookie a browser would send. */
export function sessionRow(userId: string) {
  const token = randomBytes(24).toString("base64url");
  const signature = createHmac("sha256", LOAD_AUTH_SECRET).update(token).digest("base64");
  return {
    row: { id: randomUUID(), userId, token, expiresAt: new Date(Date.now() + 24 * 3600 * 1000) },
    cookie: `pitlane.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
  };
}

/** The cart's Pay button, pressed by a member on one server. */
export async function pressPay(server: AppServer, cookie: string) {
  const response = await fetch(`${server.url}/cart`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "pay", idempotencyKey: randomBytes(18).toString("base64url") }),
  });
  const body = response.status >= 300 && response.status < 400 ? "" : await response.text();
  return { status: response.status, location: response.headers.get("location"), body };
}

/** Fisher–Yates, for delivering notifications in an order nobody chose. */
export function shuffled<T>(items: T[]) {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

export async function until<T>(
  what: string,
  check: () => Promise<T | null | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Members with confirmed emails, each signed in (a session row and the cookie for it) and with
 * `quantity` of one ticket type in their cart: buyers ready to press Pay.
 */
export async function buyersReadyToPay(db: Db, input: { count: number; ticketTypeId: string; quantity: number }) {
  const buyers = (await createBuyers(db, input.count)).map((buyer) => ({ ...buyer, ...sessionRow(buyer.id) }));
  await db.insert(sessions).values(buyers.map((buyer) => buyer.row));
  const made = await db
    .insert(carts)
    .values(buyers.map((buyer) => ({ userId: buyer.id })))
    .returning({ id: carts.id });
  await db.insert(cartItems).values(
    made.map((cart) => ({
      cartId: cart.id,
      kind: "ticket" as const,
      ticketTypeId: input.ticketTypeId,
      quantity: input.quantity,
    })),
  );
  return buyers;
}
