// Checkout under load: two app servers (the production build) on one PostgreSQL database,
// `--buyers` members pressing Pay at once for the last `--places` places, every buyer who gets
// through paying at a stand-in for Stripe's API, and each payment notification delivered
// `--replays` times in shuffled order to either server. Prints how fast orders settle and the
// correctness counts (sold, oversold, server errors, charges, emails).
//
//   node bench/checkout.mjs [--buyers 500] [--places 100] [--instances 2] [--replays 5]
//                           [--pool 20] [--database postgres://postgres@127.0.0.1:5432/postgres] [--sample]
//
// --sample also prints what the servers' database connections were doing while orders settled
// (sampled from pg_stat_activity every 10 ms): how many waited on a lock, and on which statement.
//
// Needs PostgreSQL (the embedded database belongs to one process): --database or DATABASE_URL
// names a server and a database to connect to for creating (and dropping) a scratch database.
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { ensureBuild, isMain, printTable, runCli, warnIfBusy, writeResult } from "./helpers.mjs";

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      buyers: { type: "string", default: "500" },
      places: { type: "string", default: "100" },
      instances: { type: "string", default: "2" },
      replays: { type: "string", default: "5" },
      pool: { type: "string", default: "20" },
      database: { type: "string" },
      sample: { type: "boolean", default: false },
    },
  });
  const number = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
    return value;
  };
  const serverUrl = values.database ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  ensureBuild();
  warnIfBusy();
  register();
  const { benchCheckout } = await import("../tests/load/bench-checkout.ts");
  const started = performance.now();
  const report = await benchCheckout({
    serverUrl,
    buyers: number("buyers"),
    places: number("places"),
    instances: number("instances"),
    replays: number("replays"),
    poolSize: number("pool"),
    sample: values.sample,
  });

  console.log(
    `\nThe whole run, starting and stopping the servers included: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(
    `\n${report.buyers} buyers, ${report.places} places, ${report.instances} servers, ` +
      `each notification delivered ${values.replays} times\n`,
  );
  printTable(
    ["measure", "value"],
    [
      ["Pay pressed → places held", report.held],
      ["Pay pressed → refused, naming the ticket", report.refusedNamingItem],
      ["server errors (5xx)", report.serverErrors],
      ["other answers", JSON.stringify(report.otherAnswers)],
      ["sold / oversold", `${report.sold} / ${report.oversold}`],
      ["tickets issued", report.tickets],
      ["orders paid / charges recorded", `${report.paidOrders} / ${report.chargesRecorded}`],
      ["notifications delivered (answers)", `${report.webhookDeliveries} (${JSON.stringify(report.webhookAnswers)})`],
      ["confirmation emails (buyers with >1)", `${report.confirmationEmails} (${report.buyersWithMoreThanOneEmail})`],
      [
        "checkout: all Pay presses answered in",
        `${report.checkoutSeconds} s (${(report.buyers / report.checkoutSeconds).toFixed(0)} presses/s)`,
      ],
      ["settlement: all paid orders settled in", `${report.settleSeconds} s`],
      ["settled orders per second", report.settledPerSecond],
      ["every confirmation email sent", `${report.emailSeconds} s after the first payment`],
    ],
    "lr",
  );
  if (report.settlementConnections) {
    console.log("\nWhile orders settled, the servers' busy connections on average (state | waiting on | statement):");
    printTable(
      ["connections", "doing"],
      report.settlementConnections.map((row) => [row.connections, row.what]),
      "rl",
    );
  }
  const correct =
    report.serverErrors === 0 &&
    report.oversold === 0 &&
    report.sold === Math.min(report.places, report.buyers) &&
    report.tickets === report.sold &&
    report.paidOrders === report.held &&
    report.chargesRecorded === report.held &&
    report.confirmationEmails === report.held &&
    report.buyersWithMoreThanOneEmail === 0;
  console.log(
    `\n${correct ? "Correct" : "INCORRECT"}: ${correct ? "every count is as it must be" : "see the counts above"}`,
  );
  console.log(`Results: ${writeResult("checkout", { options: values, report, correct })}`);
  return correct ? 0 : 1;
}

if (isMain(import.meta.url)) runCli(main);
