// The offline gate at a big event (docs/gate.md): the admission list of `--tickets` tickets as the
// server builds and gzips it for a device getting ready (targets: under 2 s, under 2 MB gzip), and
// a scan decided on the device with no server — the QR's Ed25519 signature checked with WebCrypto,
// its code hashed, looked up and decided by the gate's rules (target: under 50 ms at the 99th
// percentile). Runs on the embedded database, in memory; the tickets are written straight to it.
//
//   node --import tsx bench/gate.ts [--tickets 20000] [--scans 2000] [--runs 3]
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { admissionList, codeHash } from "../app/features/gate/offline-gate.server";
import { decideOffline } from "../app/features/gate/offline-rules";
import { hashOf, readScanned } from "../app/features/gate/offline-store";
import { newTicketCode, signTicketCode } from "../app/features/tickets/ticket-codes.server";
import { openPglite, runMigrations } from "../app/server/db/client.server";
import { events, orderItems, orders, tickets, ticketTypes, users } from "../db/schema";

const { values } = parseArgs({
  options: {
    tickets: { type: "string", default: "20000" },
    scans: { type: "string", default: "2000" },
    runs: { type: "string", default: "3" },
  },
});
const ticketCount = Number(values.tickets);
const scanCount = Number(values.scans);
const runs = Number(values.runs);
const secret = "bench-secret-bench-secret-bench-secret-01";
const now = new Date();

const handle = await openPglite(null);
await runMigrations(handle);
const { db } = handle;

const [event] = await db
  .insert(events)
  .values({
    slug: "bench-gate",
    title: "Bench Gate Day",
    type: "show",
    status: "published",
    startsAt: now,
    endsAt: new Date(now.getTime() + 8 * 3600_000),
    timeZone: "Europe/London",
    venue: "Bench Airfield",
    town: "Benchbury",
    publishedAt: now,
  })
  .returning({ id: events.id });
const typeNames = ["Adult", "Child", "Family", "Weekend camping"];
const types = await db
  .insert(ticketTypes)
  .values(typeNames.map((name, index) => ({ eventId: event!.id, name, price: 1500 + index * 500 })))
  .returning({ id: ticketTypes.id });

// Buyers of 100 tickets each, one order and line each, the tickets spread over the types.
const PER_ORDER = 100;
const codes: string[] = [];
for (let start = 0; start < ticketCount; start += PER_ORDER) {
  const userId = randomUUID();
  await db.insert(users).values({ id: userId, name: `Holder ${start} Bench`, email: `${userId}@bench.test` });
  const type = types[(start / PER_ORDER) % types.length]!;
  const quantity = Math.min(PER_ORDER, ticketCount - start);
  const [order] = await db
    .insert(orders)
    .values({
      userId,
      email: `${userId}@bench.test`,
      status: "paid",
      currency: "GBP",
      subtotal: 1500 * quantity,
      total: 1500 * quantity,
      provider: "test",
    })
    .returning({ id: orders.id });
  const [line] = await db
    .insert(orderItems)
    .values({
      orderId: order!.id,
      kind: "ticket",
      ticketTypeId: type.id,
      eventId: event!.id,
      description: "Bench ticket",
      unitPrice: 1500,
      quantity,
    })
    .returning({ id: orderItems.id });
  const batch = Array.from({ length: quantity }, (_, index) => {
    const code = newTicketCode();
    codes.push(code);
    // A few refunded and some already in, as on the day.
    const n = start + index;
    const status = n % 97 === 0 ? ("refunded" as const) : n % 5 === 0 ? ("checked_in" as const) : ("valid" as const);
    return {
      orderItemId: line!.id,
      orderId: order!.id,
      ticketTypeId: type.id,
      eventId: event!.id,
      code,
      status,
      checkedInAt: status === "checked_in" ? now : null,
    };
  });
  await db.insert(tickets).values(batch);
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const percentile = (list: number[], p: number) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.ceil((p / 100) * list.length) - 1)]!;

// The list: built from the database, serialised and gzipped (as the server's compression does).
const buildTimes: number[] = [];
let raw = 0;
let gzipped = 0;
let list = await admissionList(db, { eventId: event!.id, secret, now });
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  list = await admissionList(db, { eventId: event!.id, secret, now });
  const body = Buffer.from(JSON.stringify(list));
  const zipped = gzipSync(body, { level: 6 });
  buildTimes.push(performance.now() - started);
  raw = body.length;
  gzipped = zipped.length;
}

// Scans on the device: QR payloads of random tickets, and a few forged ones.
const byHash = new Map(list!.entries.map((entry) => [entry.h, entry]));
const payloads = Array.from({ length: scanCount }, (_, index) => {
  const code = codes[Math.floor(Math.random() * codes.length)]!;
  const signed = signTicketCode(code, secret);
  return index % 50 === 0 ? `${signed.slice(0, -3)}AAA` : signed;
});
const scanTimes: number[] = [];
const admitted: Record<string, string> = {};
const decisions = { admitted: 0, already: 0, refused: 0 };
for (const payload of payloads) {
  const started = performance.now();
  const read = await readScanned(payload, list!.publicKey);
  const hash = read ? await hashOf(read.code) : null;
  const answer = decideOffline(hash ? byHash.get(hash) : undefined, {
    types: list!.types,
    timeZone: list!.timeZone,
    now,
    admittedAt: hash && admitted[hash] ? new Date(admitted[hash]) : null,
    signed: read?.signed ?? false,
  });
  if (answer.decision === "admitted" && hash) admitted[hash] = new Date().toISOString();
  scanTimes.push(performance.now() - started);
  decisions[answer.decision] += 1;
}
// The device's hash is the server's.
if ((await hashOf(codes[0]!)) !== codeHash(codes[0]!)) throw new Error("The device hashes codes differently");

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
console.log(`Admission list of ${ticketCount.toLocaleString("en-GB")} tickets (${runs} runs, median):`);
console.log(`  built, serialised and gzipped  ${median(buildTimes).toFixed(0)} ms  (target: under 2000 ms)`);
console.log(`  size  ${mb(raw)} raw, ${mb(gzipped)} gzip  (target: under 2 MB gzip)`);
console.log(`Scans decided on the device (${scanCount.toLocaleString("en-GB")}, 1 in 50 forged):`);
console.log(
  `  p50 ${percentile(scanTimes, 50).toFixed(2)} ms, p99 ${percentile(scanTimes, 99).toFixed(2)} ms, max ${Math.max(...scanTimes).toFixed(2)} ms  (target: p99 under 50 ms)`,
);
console.log(`  decided: ${decisions.admitted} admitted, ${decisions.already} already in, ${decisions.refused} refused`);
await handle.close();
