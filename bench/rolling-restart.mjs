// A rolling restart under load, as docs/deploy.md describes it: two app servers (the production
// build) on one PostgreSQL database and an S3-compatible bucket (s3rver), behind nginx with the
// recipe's configuration and TRUST_PROXY. Visitors load pages and signed-in members buy tickets
// through the test checkout (PAYMENTS=test) without pause, while each server in turn gets SIGTERM,
// exits, is started again and is waited for until nginx sends it requests again. Prints every
// failed request and the order counts; exits 1 unless no request failed and no order was lost.
//
//   node bench/rolling-restart.mjs [--visitors 4] [--buyers 6] [--settle 5] [--port 0]
//                                  [--database postgres://postgres@127.0.0.1:5432/postgres]
//
// Needs PostgreSQL (--database or DATABASE_URL names a server and a database to connect to for
// creating and dropping a scratch database) and nginx at /usr/sbin/nginx (or NGINX_PATH; Debian:
// `apt-get install nginx`). --port: nginx on it and the two servers on the next two (default: free
// ports).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { ensureBuild, isMain, printTable, runCli, warnIfBusy, writeResult } from "./helpers.mjs";

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      visitors: { type: "string", default: "4" },
      buyers: { type: "string", default: "6" },
      settle: { type: "string", default: "5" },
      port: { type: "string", default: "0" },
      database: { type: "string" },
    },
  });
  const number = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
    return value;
  };
  const nginx = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
  if (!existsSync(nginx)) throw new Error(`nginx not found at ${nginx} (apt-get install nginx, or set NGINX_PATH)`);
  const serverUrl = values.database ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  ensureBuild();
  warnIfBusy();
  register();
  const { benchRollingRestart } = await import("../tests/load/rolling-restart.ts");
  const report = await benchRollingRestart({
    serverUrl,
    visitors: number("visitors", 0),
    buyers: number("buyers", 0),
    settleSeconds: number("settle", 1),
    basePort: number("port", 0) || undefined,
  });

  console.log(
    `\n${report.servers} servers behind nginx, ${report.visitors} visitors and ${report.buyers} buyers without pause, ${report.seconds} s\n`,
  );
  printTable(
    ["server", "exit", "in flight at SIGTERM", "drain", "stop → exited", "start → ready", "ready → in rotation"],
    report.restarts.map((restart) => [
      restart.server,
      restart.exitCode ?? restart.signal,
      `${restart.requestsInFlightAtSigterm} requests (${restart.writesInFlightAtSigterm} POST), ${restart.connectionsAtSigterm} connections`,
      `${restart.drainMs} ms${restart.drained ? "" : " (deadline)"}`,
      `${restart.stopSeconds} s`,
      `${restart.startSeconds} s`,
      `${restart.backInRotationSeconds} s`,
    ]),
    "lrlrrrr",
  );
  console.log("");
  printTable(
    ["measure", "value"],
    [
      ["requests through nginx", report.requests],
      ["failed requests", report.failedRequests],
      ["answered by each server", JSON.stringify(report.answeredBy)],
      ["retried by nginx on the other server", report.retriedOnTheOtherServer],
      ["checkouts started / payments answered", `${report.checkoutsStarted} / ${report.paymentsAnswered}`],
      ["paid orders in the database", report.paidInDatabase],
      ["lost orders", report.lostOrders],
      ["orders left unsettled", report.ordersNotSettled],
      ["tickets issued / sold count", `${report.ticketsIssued} / ${report.soldCount}`],
      ["confirmation emails", report.confirmationEmails],
    ],
    "lr",
  );
  for (const [what, count] of Object.entries(report.failures)) {
    console.log(`  failed: ${what} × ${count} (first: ${report.failureSamples[what]})`);
  }
  const correct =
    report.failedRequests === 0 &&
    report.lostOrders === 0 &&
    report.ordersNotSettled === 0 &&
    report.paymentsAnswered > 0 &&
    report.ticketsIssued === report.paymentsAnswered &&
    report.soldCount === report.paymentsAnswered &&
    report.confirmationEmails === report.paymentsAnswered &&
    report.restarts.every((restart) => restart.exitCode === 0 && restart.drained);
  console.log(
    `\n${correct ? "Correct" : "INCORRECT"}: ${correct ? "0 failed requests, 0 lost orders" : "see the counts above"}`,
  );
  console.log(`Results: ${writeResult("rolling-restart", { options: values, report, correct })}`);
  return correct ? 0 : 1;
}

if (isMain(import.meta.url)) runCli(main);
