// Checkout under load: two app servers (the production build) on one PostgreSQL database,
// `--buyers` members pressing Pay at once for the last `--places` places, every buyer who gets
// through paying at a stand-in for Stripe's API, and each payment notification delivered
// `--replays` times in shuffled order to either server. Prints how fast orders settle and the
// correctness counts (sold, oversold, server errors, charges, emails).
//
// Stripe signs its notifications and holds its connections open on machines of its own. Here the
// notifications are signed, and the sender's connections to each server opened, before the clock
// starts, and a raw sender writes the prepared bytes (tests/load/raw-sender.ts): on two cores
// shared with the servers and PostgreSQL, Node's HTTP client and the signing took a fifth of the
// machine while orders settled. An order counts as settled at its event's first 2xx answer, which
// the servers give only after the commit that paid it; the database's count of paid orders is
// checked afterwards, not polled while the orders settle.
//
//   node bench/checkout.mjs [--buyers 500] [--places 100] [--instances 2] [--replays 5]
//                           [--pool 5] [--database postgres://postgres@127.0.0.1:5432/postgres] [--sample]
//                           [--redeliver] [--profile] [--perf] [--rehearsal 0] [--pause 0]
//
// --pool is each server's DATABASE_POOL_SIZE. The default, 5, puts 10 connections on a database
// that shares 2 cores with everything else here: more connections than a few per core make
// PostgreSQL slower in a rush, not faster (bench/RESULTS.md, "Connections").
//
// --sample also prints what the servers' database connections were doing while orders settled
// (sampled from pg_stat_activity every 10 ms): how many waited on a lock, and on which statement.
//
// --redeliver posts every notification once more after the race, when each is a duplicate of
// one already handled, and prints how long answering them all took.
//
// --profile runs each server under `node --cpu-prof` and prints where its main thread's CPU went
// while orders settled (and, with --redeliver, while every notification came again), by package
// (self time), with a flame graph of each window per server beside the results
// (bench/results/checkout-profile-<time>/).
//
// --perf records the whole machine with Linux's `perf` while orders settle (the recording itself
// takes some CPU, so the rate is lower) and prints where PostgreSQL's CPU went: planning, the
// work after each statement (triggers, foreign-key checks), commit, executing, the connection.
// The recording is kept in bench/results/ for `perf report`.
//
// --pause S waits S seconds between the last Pay press and the payments of the measured race, as
// buyers spend time on the payment page: the servers' database connections sit idle meanwhile.
//
// Before the servers start it times fixed work on this machine (a mix of JSON, hashing and sorting,
// and 1,000 round trips to PostgreSQL): the same build gives figures far apart from one hour to
// the next on a shared machine, and this tells a slow machine from a slow build.
//
// --rehearsal N first races N buyers for N/5 places of another event on the same servers, with the
// same replays, and then the race that is measured: the figures of servers that have settled
// orders before (their code compiled by V8 for it), beside the default's servers fresh from
// start. The rehearsal's own counts must be right too.
//
// Needs PostgreSQL (the embedded database belongs to one process): --database or DATABASE_URL
// names a server and a database to connect to for creating (and dropping) a scratch database.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { flameGraphSvg, foldedStacks, readProfile, samplesOf, topFunctions } from "./flamegraph.mjs";
import {
  ensureBuild,
  isMain,
  machineReference,
  printTable,
  RESULTS_DIR,
  runCli,
  warnIfBusy,
  writeResult,
} from "./helpers.mjs";
import { checkPerf, postgresPhases, startPerf } from "./perf-postgres.mjs";

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      buyers: { type: "string", default: "500" },
      places: { type: "string", default: "100" },
      instances: { type: "string", default: "2" },
      replays: { type: "string", default: "5" },
      pool: { type: "string", default: "5" },
      database: { type: "string" },
      sample: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      perf: { type: "boolean", default: false },
      redeliver: { type: "boolean", default: false },
      rehearsal: { type: "string", default: "0" },
      pause: { type: "string", default: "0" },
    },
  });
  const number = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
    return value;
  };
  const rehearsal = Number(values.rehearsal);
  if (!Number.isInteger(rehearsal) || rehearsal < 0) throw new Error("--rehearsal must be a whole number, 0 for none");
  const pause = Number(values.pause);
  if (!(pause >= 0)) throw new Error("--pause must be a number of seconds, 0 for none");
  const serverUrl = values.database ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  ensureBuild();
  warnIfBusy();
  // Taken before the servers start, while the machine is otherwise idle.
  const reference = await machineReference(serverUrl);
  register();
  const { benchCheckout } = await import("../tests/load/bench-checkout.ts");
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const profileDir = values.profile ? path.join(RESULTS_DIR, `checkout-profile-${stamp}`) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  if (values.perf) checkPerf();
  const perfFile = values.perf ? path.join(RESULTS_DIR, `checkout-perf-${stamp}.data`) : undefined;
  let stopPerf;
  const started = performance.now();
  const report = await benchCheckout({
    serverUrl,
    buyers: number("buyers"),
    places: number("places"),
    instances: number("instances"),
    replays: number("replays"),
    poolSize: number("pool"),
    sample: values.sample,
    profileDir,
    redeliver: values.redeliver,
    rehearsal,
    pauseMs: pause * 1000,
    onSettlement: perfFile
      ? (phase) => {
          if (phase === "start") stopPerf = startPerf(perfFile);
          else return stopPerf?.();
        }
      : undefined,
  });

  console.log(
    `\nThe whole run, starting and stopping the servers included: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const rehearsed = report.rehearsal;
  if (rehearsed) {
    console.log(
      `\nFirst, a rehearsal on the same servers: ${rehearsed.buyers} buyers for ${rehearsed.places} places, ` +
        `${rehearsed.settledPerSecond} settled orders per second (${countsRight(rehearsed) ? "every count right" : "A COUNT IS WRONG"})`,
    );
  }
  console.log(
    `\n${report.buyers} buyers, ${report.places} places, ${report.instances} servers, ` +
      `each notification delivered ${values.replays} times${rehearsed ? ", after the rehearsal" : ""}\n`,
  );
  printTable(
    ["measure", "value"],
    [
      [
        "machine reference before the race (lower is faster)",
        `${reference.cpuMs} ms of fixed CPU work, ${reference.roundTripMs} ms for 1,000 round trips`,
      ],
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
      ...(report.settledBy
        ? [
            [
              "settled: half, nine in ten, all of the orders by",
              `${report.settledBy.half}, ${report.settledBy.nineInTen}, ${report.settledBy.all} s`,
            ],
          ]
        : []),
      ["settled orders per second", report.settledPerSecond],
      ...(report.settlementCpu
        ? [
            [
              "CPU while settling: servers + database + load + other",
              `${report.settlementCpu.appServers} + ${report.settlementCpu.postgres} + ${report.settlementCpu.load} + ${report.settlementCpu.other} s (of ${(availableParallelism() * report.settleSeconds).toFixed(2)} on ${availableParallelism()} cores)`,
            ],
          ]
        : []),
      ["confirmation emails sent by the time the last order settled", report.emailsDuringSettlement],
      ["every confirmation email sent", `${report.emailSeconds} s after the first payment`],
      ...(report.duplicateSeconds === undefined
        ? []
        : [
            [
              "afterwards, every notification again (duplicates)",
              `${report.duplicateSeconds} s (${(report.webhookDeliveries / report.duplicateSeconds).toFixed(0)} a second)`,
            ],
          ]),
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
  if (perfFile) {
    const { samples, phases } = postgresPhases(perfFile);
    console.log(
      `\nWhile orders settled, PostgreSQL's CPU by phase (${samples} samples; ${path.relative(process.cwd(), perfFile)}):`,
    );
    printTable(
      ["share", "phase"],
      phases.map(([name, count]) => [`${((count / Math.max(samples, 1)) * 100).toFixed(1)} %`, name]),
      "rl",
    );
  }
  if (profileDir) {
    printProfiles(profileDir, report.settlementWindow, { what: "while orders settled", file: "settlement" });
    if (values.redeliver) {
      printProfiles(profileDir, report.duplicatesWindow, {
        what: "while every notification came again",
        file: "duplicates",
      });
    }
  }
  const correct = countsRight(report) && (!rehearsed || countsRight(rehearsed));
  console.log(
    `\n${correct ? "Correct" : "INCORRECT"}: ${correct ? "every count is as it must be" : "see the counts above"}`,
  );
  console.log(`Results: ${writeResult("checkout", { options: values, reference, report, correct })}`);
  return correct ? 0 : 1;
}

/** Whether every count of a race is as it must be: nothing oversold, one of everything per order. */
function countsRight(report) {
  return (
    report.serverErrors === 0 &&
    report.oversold === 0 &&
    report.sold === Math.min(report.places, report.buyers) &&
    report.tickets === report.sold &&
    report.paidOrders === report.held &&
    report.chargesRecorded === report.held &&
    report.confirmationEmails === report.held &&
    report.buyersWithMoreThanOneEmail === 0
  );
}

/**
 * Each server's main thread in a window of the run (`what` names it, `file` names its flame
 * graphs): CPU time by package (self time), and a flame graph of the window beside the profiles.
 */
function printProfiles(dir, window, { what, file: name }) {
  // Thread 0 is each server's main thread; the others are the module loader's.
  const files = readdirSync(dir).filter((file) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(file));
  files.forEach((file, index) => {
    const samples = samplesOf(readProfile(path.join(dir, file)), { from: window.fromUs, to: window.toUs });
    const top = topFunctions(samples, 12);
    const seconds = (window.toUs - window.fromUs) / 1e6;
    const svg = path.join(dir, `${name}-server-${index + 1}.svg`);
    writeFileSync(
      svg,
      flameGraphSvg(foldedStacks(samples), {
        title: `Server ${index + 1} ${what}`,
        subtitle: `${(top.totalUs / 1000).toFixed(0)} ms of CPU in ${seconds.toFixed(2)} s`,
      }),
    );
    console.log(
      `\nServer ${index + 1}, main thread, ${what}: ${(top.totalUs / 1000).toFixed(0)} ms of CPU in ` +
        `${seconds.toFixed(2)} s (${path.relative(process.cwd(), svg)})`,
    );
    printTable(
      ["self time", "share", "package"],
      top.owners.map((row) => [`${(row.us / 1000).toFixed(0)} ms`, `${(row.share * 100).toFixed(1)} %`, row.name]),
      "rrl",
    );
  });
}

if (isMain(import.meta.url)) runCli(main);
