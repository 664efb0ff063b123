import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { orderEmailJob } from "~/features/orders/order-email.server";
import { type DatabaseHandle, openPostgres } from "~/server/db/client.server";
import { whenIdle } from "~/server/jobs/queue.server";
import { startS3Server } from "~/server/storage/s3rver.test-support";
import { sessions } from "../../db/schema";
import { ensureBuild, LOAD_AUTH_SECRET, sessionRow, until } from "./cluster";

/**
 * The rolling restart of docs/deploy.md, proven under load: two production servers on one
 * PostgreSQL database and an S3-compatible bucket (s3rver), behind nginx configured as the
 * recipe says, with TRUST_PROXY. Visitors load pages and signed-in members buy tickets through
 * the test checkout, without pause, while each server in turn is sent SIGTERM, waited for,
 * started again and waited for until ready. Every answer and every order is counted.
 */

const root = path.resolve(import.meta.dirname, "../..");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const TICKET = "Rolling start";

/**
 * The nginx configuration of docs/deploy.md, with this machine's addresses and an unprivileged
 * prefix for its pid, logs and temporary files. `X-Upstream` (test only) names the server that
 * answered, and both when nginx tried one and then the other.
 */
function nginxConfig(input: { dir: string; port: number; upstreams: string[] }) {
  const temp = (name: string) => path.join(input.dir, "temp", name);
  return `worker_processes 1;
daemon off;
pid ${path.join(input.dir, "nginx.pid")};
error_log ${path.join(input.dir, "error.log")} warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 1024; }
http {
  access_log ${path.join(input.dir, "access.log")};
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};

  upstream pitlane {
    zone pitlane 64k;
${input.upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 32;
    keepalive_timeout 10s;
  }

  server {
    listen 127.0.0.1:${input.port};
    client_max_body_size 32m;

    location / {
      proxy_pass http://pitlane;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_timeout 15s;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

type Nginx = { origin: string; stop(): Promise<void>; errorLog(): string };

async function startNginx(input: { port: number; upstreams: string[] }): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), "pitlane-nginx-"));
  chmodSync(dir, 0o755);
  mkdirSync(path.join(dir, "temp"));
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, nginxConfig({ dir, ...input }));
  const child = spawn(NGINX, ["-p", dir, "-c", config, "-e", path.join(dir, "error.log")], { stdio: "pipe" });
  let output = "";
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const origin = `http://127.0.0.1:${input.port}`;
  const readLog = () => {
    try {
      return readFileSync(path.join(dir, "error.log"), "utf8");
    } catch {
      return "";
    }
  };
  await until(
    "nginx to listen",
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output}${readLog()}`);
      return fetch(`${origin}/nginx-is-up`).then(
        () => true,
        () => false,
      );
    },
    10_000,
  );
  return {
    origin,
    errorLog: readLog,
    async stop() {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a server logged as it drained (its `draining` and `drained` lines). */
type DrainLog = {
  requestsInFlight?: number;
  writesInFlight?: number;
  connections?: number;
  drainMs?: number;
  drained?: boolean;
};

type AppProcess = {
  name: string;
  url: string;
  address: string;
  start(): Promise<void>;
  /** Sends SIGTERM and waits for the process to exit: its exit code and what it logged draining. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; drain: DrainLog }>;
  output(): string;
};

/** The production build started as docs/deploy.md says: same environment on every server. */
function appProcess(input: { name: string; port: number; dataDir: string; env: NodeJS.ProcessEnv }): AppProcess {
  const url = `http://127.0.0.1:${input.port}`;
  let child: ChildProcess | null = null;
  let log = "";
  let drain: DrainLog = {};
  const env = { ...input.env, PORT: String(input.port), HOST: "127.0.0.1", DATA_DIR: input.dataDir };
  const readLine = (line: string) => {
    if (!line.includes('"draining') && !line.includes('"drained') && !line.includes("drain deadline")) return;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.msg === "draining: no new connections") {
        drain = {
          requestsInFlight: Number(entry.requests),
          writesInFlight: Number(entry.writes),
          connections: Number(entry.connections),
        };
      } else {
        drain = { ...drain, drainMs: Number(entry.milliseconds), drained: entry.drained === true };
      }
    } catch {
      // Not a log line.
    }
  };
  return {
    name: input.name,
    url,
    address: `127.0.0.1:${input.port}`,
    output: () => log,
    async start() {
      if (child) throw new Error(`${input.name} is already running`);
      drain = {};
      const started = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: root, env, stdio: "pipe" });
      child = started;
      let pending = "";
      started.stdout.on("data", (chunk: Buffer) => {
        pending += chunk.toString("utf8");
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          readLine(line);
          // Request lines are many: keep the others for a failing test's message.
          if (!line.includes('"msg":"request completed"')) log = `${log}${line}\n`.slice(-20_000);
        }
      });
      started.stderr.on("data", (chunk: Buffer) => {
        log = (log + chunk.toString("utf8")).slice(-20_000);
      });
      started.once("exit", () => {
        if (child === started) child = null;
      });
      await until(
        `${input.name} to be ready`,
        async () => {
          if (child !== started) throw new Error(`${input.name} exited while starting:\n${log}`);
          // Without keep-alive: an idle connection of the test's own would hold up the drain.
          return (await statusOf(`${url}/readyz`)) === 200;
        },
        // Generous: on a busy machine a start (migrations, job queues, seeders) has taken 80 s.
        240_000,
      );
    },
    async stop() {
      const running = child;
      if (!running) throw new Error(`${input.name} is not running`);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        running.once("exit", (code, signal) => resolve({ code, signal })),
      );
      running.kill("SIGTERM");
      const result = await exited;
      return { ...result, drain };
    },
  };
}

/** The status of a GET on a connection of its own, closed after it; 0 when nothing answers. */
function statusOf(url: string) {
  return new Promise<number>((resolve) => {
    const req = get(url, { agent: false, headers: { connection: "close" } }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    req.once("error", () => resolve(0));
  });
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

/** Answers counted by what was asked and how it ended. */
class Tally {
  requests = 0;
  failures: Record<string, number> = {};
  byUpstream: Record<string, number> = {};
  /** Answers nginx got from the second server after the first refused or failed. */
  retried = 0;
  /** The first answer of each kind of failure, for a failing test's message. */
  samples: Record<string, string> = {};

  record(
    what: string,
    outcome: { status?: number; error?: string; upstream?: string | null; body?: string },
    ok: boolean,
  ) {
    this.requests++;
    if (outcome.upstream) {
      if (outcome.upstream.includes(",")) this.retried++;
      const last = outcome.upstream.split(",").at(-1)!.trim();
      this.byUpstream[last] = (this.byUpstream[last] ?? 0) + 1;
    }
    if (ok) return;
    const key = `${what} → ${outcome.status ?? outcome.error}`;
    this.failures[key] = (this.failures[key] ?? 0) + 1;
    this.samples[key] ??=
      `${new Date().toISOString()} via ${outcome.upstream ?? "?"}: ${(outcome.body ?? "").slice(0, 300)}`;
  }

  get failed() {
    return Object.values(this.failures).reduce((sum, count) => sum + count, 0);
  }
}

type Call = { method: "GET" | "POST"; path: string; cookie?: string; form?: Record<string, string> };

/** One request through nginx, redirects not followed: every answer counts on its own. */
async function call(origin: string, tally: Tally, what: string, request: Call) {
  try {
    const response = await fetch(`${origin}${request.path}`, {
      method: request.method,
      redirect: "manual",
      signal: AbortSignal.timeout(60_000),
      headers: {
        ...(request.cookie ? { cookie: request.cookie } : {}),
        ...(request.form ? { origin, "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: request.form ? new URLSearchParams(request.form) : undefined,
    });
    const body = await response.text();
    const ok = response.status >= 200 && response.status < 400;
    tally.record(what, { status: response.status, upstream: response.headers.get("x-upstream"), body }, ok);
    return ok ? response : null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    tally.record(what, { error: cause?.code ?? (error as Error).name }, false);
    return null;
  }
}

export type RollingRestartReport = {
  servers: number;
  visitors: number;
  buyers: number;
  seconds: number;
  requests: number;
  failedRequests: number;
  failures: Record<string, number>;
  /** The first of each kind of failure: when, through which server, and the start of its body. */
  failureSamples: Record<string, string>;
  /** nginx's error log, when anything failed. */
  proxyErrors: string;
  answeredBy: Record<string, number>;
  retriedOnTheOtherServer: number;
  restarts: {
    server: string;
    exitCode: number | null;
    signal: string | null;
    requestsInFlightAtSigterm: number | null;
    /** Of those, the ones that change something (POST and the like), which nginx would not resend. */
    writesInFlightAtSigterm: number | null;
    connectionsAtSigterm: number | null;
    drainMs: number | null;
    drained: boolean | null;
    stopSeconds: number;
    startSeconds: number;
    /** From ready until nginx sent it a request again. */
    backInRotationSeconds: number;
  }[];
  checkoutsStarted: number;
  paymentsAnswered: number;
  paidInDatabase: number;
  lostOrders: number;
  ordersNotSettled: number;
  ticketsIssued: number;
  soldCount: number;
  confirmationEmails: number;
};

/**
 * Starts the servers and nginx, loads the site, restarts each server in turn and stops the
 * load once the last one is back and has served for `settleSeconds`. The database at
 * `databaseUrl` may be empty: both servers start at once and migrate it under the lock.
 */
export async function rollingRestart(input: {
  database: DatabaseHandle;
  databaseUrl: string;
  /** Anonymous visitors loading pages one after another. */
  visitors: number;
  /** Members buying a ticket at a time through the test checkout, one after another. */
  buyers: number;
  /** How long the load runs before the first restart and after the last. */
  settleSeconds: number;
  shutdownTimeoutSeconds?: number;
  /** nginx, then each server on the next port; unset: free ports. */
  basePort?: number;
}): Promise<RollingRestartReport> {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}: apt-get install nginx, or set NGINX_PATH`);
  await ensureBuild();
  const ports = input.basePort
    ? [input.basePort, input.basePort + 1, input.basePort + 2]
    : [await freePort(), await freePort(), await freePort()];
  const [nginxPort, ...appPorts] = ports as [number, number, number];
  const origin = `http://127.0.0.1:${nginxPort}`;
  const s3 = await startS3Server("pitlane-rolling");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    SITE_URL: origin,
    TRUST_PROXY: "1",
    DATABASE_URL: input.databaseUrl,
    DATABASE_POOL_SIZE: "10",
    AUTH_SECRET: LOAD_AUTH_SECRET,
    PAYMENTS: "test",
    SEED_DEMO: "0",
    SHUTDOWN_TIMEOUT: String(input.shutdownTimeoutSeconds ?? 25),
    LOG_LEVEL: "info",
    S3_BUCKET: s3.env.S3_BUCKET,
    S3_REGION: s3.env.S3_REGION,
    S3_ENDPOINT: s3.env.S3_ENDPOINT,
    S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE: "1",
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-rolling-"));
  const servers = appPorts.map((port, index) =>
    appProcess({ name: `server ${"AB"[index]}`, port, dataDir: path.join(dataDir, String(index)), env }),
  );
  let nginx: Nginx | undefined;
  try {
    // Both at once, as after a deploy that starts every server together: the migration lock
    // lets one migrate while the other waits.
    await Promise.all(servers.map((server) => server.start()));
    nginx = await startNginx({ port: nginxPort, upstreams: servers.map((server) => server.address) });
    const proxy = nginx;
    return await underLoad({ ...input, origin, servers, proxyErrors: () => proxy.errorLog() });
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${servers.map((server) => `--- ${server.name}\n${server.output()}`).join("\n")}\n--- nginx\n${nginx?.errorLog() ?? ""}`,
      { cause: error },
    );
  } finally {
    await nginx?.stop();
    await Promise.all(servers.map((server) => server.stop().catch(() => undefined)));
    await s3.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function underLoad(input: {
  database: DatabaseHandle;
  origin: string;
  servers: AppProcess[];
  proxyErrors: () => string;
  visitors: number;
  buyers: number;
  settleSeconds: number;
}): Promise<RollingRestartReport> {
  const { database, origin, servers } = input;
  const { db } = database;
  const pool = database.pool!;
  const count = async (text: string, values: unknown[] = []) =>
    Number((await pool.query<{ n: string }>(text, values)).rows[0]!.n);

  const event = await createTestEvent(db, {
    title: `Rolling start ${randomBytes(3).toString("hex")}`,
    startsAt: new Date(Date.now() + 30 * 86_400_000),
    endsAt: new Date(Date.now() + 30 * 86_400_000 + 8 * 3_600_000),
    types: [{ name: TICKET, price: 1200, capacity: null, maxPerOrder: 4 }],
  });
  const [{ slug }] = (await pool.query<{ slug: string }>("select slug from events where id = $1", [event.eventId]))
    .rows as [{ slug: string }];
  const ticketTypeId = event.typeIds[0]!;
  const members = (await createBuyers(db, input.buyers)).map((buyer) => ({ ...buyer, ...sessionRow(buyer.id) }));
  if (members.length > 0) await db.insert(sessions).values(members.map((member) => member.row));

  const tally = new Tally();
  let running = true;
  const checkouts = { started: 0, paid: new Set<string>() };

  const visitor = async () => {
    const pages = ["/", "/events", `/events/${slug}`, "/healthz"];
    for (let turn = 0; running; turn++) {
      const page = pages[turn % pages.length]!;
      await call(origin, tally, `GET ${page === `/events/${slug}` ? "/events/:slug" : page}`, {
        method: "GET",
        path: page,
      });
    }
  };

  const buyer = async (member: (typeof members)[number]) => {
    while (running) {
      const cookie = member.cookie;
      const added = await call(origin, tally, "POST /events/:slug (add to cart)", {
        method: "POST",
        path: `/events/${slug}`,
        cookie,
        form: { ticketTypeId, quantity: "1" },
      });
      if (!added) continue;
      const pay = await call(origin, tally, "POST /cart (pay)", {
        method: "POST",
        path: "/cart",
        cookie,
        form: { intent: "pay", idempotencyKey: randomBytes(18).toString("base64url") },
      });
      const orderId = /\/checkout\/test\/([^/?#]+)/.exec(pay?.headers.get("location") ?? "")?.[1];
      if (!orderId) continue;
      checkouts.started++;
      await call(origin, tally, "GET /checkout/test/:order", {
        method: "GET",
        path: `/checkout/test/${orderId}`,
        cookie,
      });
      const paid = await call(origin, tally, "POST /checkout/test/:order (pay)", {
        method: "POST",
        path: `/checkout/test/${orderId}`,
        cookie,
        form: { intent: "pay" },
      });
      if (!paid) continue;
      checkouts.paid.add(orderId);
      await call(origin, tally, "GET /return", {
        method: "GET",
        path: paid.headers.get("location") ?? "/return",
        cookie,
      });
    }
  };

  const started = performance.now();
  const load = Promise.all([
    ...Array.from({ length: input.visitors }, () => visitor()),
    ...members.map((member) => buyer(member)),
  ]);
  const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const restarts: RollingRestartReport["restarts"] = [];
  try {
    await pause(input.settleSeconds);
    for (const server of servers) {
      const stopping = performance.now();
      const stopped = await server.stop();
      const starting = performance.now();
      await server.start();
      const readyAt = performance.now();
      // Back in nginx's rotation (it tries a refused server again after fail_timeout) before the
      // next one goes: the deploy recipe waits for the same.
      const answered = tally.byUpstream[server.address] ?? 0;
      await until(
        `nginx to send ${server.name} requests again`,
        async () => (tally.byUpstream[server.address] ?? 0) > answered,
        30_000,
      );
      restarts.push({
        server: server.name,
        exitCode: stopped.code,
        signal: stopped.signal,
        requestsInFlightAtSigterm: stopped.drain.requestsInFlight ?? null,
        writesInFlightAtSigterm: stopped.drain.writesInFlight ?? null,
        connectionsAtSigterm: stopped.drain.connections ?? null,
        drainMs: stopped.drain.drainMs ?? null,
        drained: stopped.drain.drained ?? null,
        stopSeconds: round((starting - stopping) / 1000),
        startSeconds: round((readyAt - starting) / 1000),
        backInRotationSeconds: round((performance.now() - readyAt) / 1000),
      });
      // The server takes its share again before the next one goes.
      await pause(input.settleSeconds);
    }
  } finally {
    running = false;
    await load;
  }
  const seconds = (performance.now() - started) / 1000;

  // The confirmation emails go out from the job queue; a job a stopping server was running
  // finished there or went back to the queue.
  await whenIdle(database, { queues: [orderEmailJob.name], timeoutMs: 120_000 });
  const paidIds = [...checkouts.paid];
  const paidInDatabase = await count(
    "select count(*) as n from orders where status = 'paid' and id = any($1::uuid[])",
    [paidIds],
  );
  await until(
    "a confirmation email for every paid order",
    async () =>
      (await count("select count(*) as n from outbound_messages where subject like $1", [
        `Your tickets for ${event.title}%`,
      ])) >= paidIds.length,
    60_000,
  ).catch(() => undefined); // Counted below either way.

  return {
    servers: servers.length,
    visitors: input.visitors,
    buyers: input.buyers,
    seconds: round(seconds),
    requests: tally.requests,
    failedRequests: tally.failed,
    failures: tally.failures,
    failureSamples: tally.samples,
    proxyErrors: tally.failed > 0 ? input.proxyErrors().slice(-4000) : "",
    answeredBy: tally.byUpstream,
    retriedOnTheOtherServer: tally.retried,
    restarts,
    checkoutsStarted: checkouts.started,
    paymentsAnswered: paidIds.length,
    paidInDatabase,
    lostOrders: paidIds.length - paidInDatabase,
    ordersNotSettled: await count(
      "select count(*) as n from orders o where o.status <> 'paid' and exists (select 1 from order_items i where i.order_id = o.id and i.ticket_type_id = $1)",
      [ticketTypeId],
    ),
    ticketsIssued: await count("select count(*) as n from tickets where ticket_type_id = $1", [ticketTypeId]),
    soldCount: await count("select sold as n from ticket_types where id = $1", [ticketTypeId]),
    confirmationEmails: await count("select count(*) as n from outbound_messages where subject like $1", [
      `Your tickets for ${event.title}%`,
    ]),
  };
}

function round(value: number) {
  return Math.round(value * 100) / 100;
}

/**
 * The rolling restart as a measurement (`node bench/rolling-restart.mjs`): an empty database of
 * its own on the PostgreSQL server at `serverUrl`, dropped afterwards.
 */
export async function benchRollingRestart(
  options: { serverUrl: string } & Omit<Parameters<typeof rollingRestart>[0], "database" | "databaseUrl">,
) {
  const { serverUrl, ...load } = options;
  const name = `pitlane_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const maintenance = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await maintenance(`create database "${name}"`);
  const handle = await openPostgres(url.toString(), 5);
  try {
    return await rollingRestart({ ...load, database: handle, databaseUrl: url.toString() });
  } finally {
    await handle.close();
    await maintenance(`drop database if exists "${name}" with (force)`);
  }
}
