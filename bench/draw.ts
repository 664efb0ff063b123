// The fairness computation of a prize draw at scale: the list hash of 1,000,000 eligible entries
// and the winner drawn from them, as `drawWinners` and `listHashOf` do it on the server and in
// the verify page. Target: under 1 s together.
//
//   node --import tsx bench/draw.ts [--entries 1000000] [--runs 5]
import { parseArgs } from "node:util";
import { commitmentOf, drawWinners, listHashOf, newSeed } from "../app/features/draws/fairness";

const { values } = parseArgs({
  options: { entries: { type: "string", default: "1000000" }, runs: { type: "string", default: "5" } },
});
const size = Number(values.entries);
const runs = Number(values.runs);
// Entry numbers as a real draw has them: most sold, some voided or wrong answers left out.
const entries = Array.from({ length: size }, (_, i) => i + 1).filter((number) => number % 97 !== 0);

const timings: { hash: number; draw: number; total: number }[] = [];
for (let run = 0; run < runs; run++) {
  const seed = newSeed();
  await commitmentOf(seed);
  const started = performance.now();
  const listHash = await listHashOf(entries);
  const hashed = performance.now();
  await drawWinners({ seed, listHash, beacon: `bench round ${run}`, entries });
  const drawn = performance.now();
  timings.push({ hash: hashed - started, draw: drawn - hashed, total: drawn - started });
}

const median = (pick: (timing: (typeof timings)[number]) => number) =>
  timings.map(pick).sort((a, b) => a - b)[Math.floor(timings.length / 2)]!;
console.log(`Draw over ${entries.length.toLocaleString("en-GB")} eligible entries (${runs} runs, median):`);
console.log(`  list hash  ${median((t) => t.hash).toFixed(0)} ms`);
console.log(`  winner     ${median((t) => t.draw).toFixed(0)} ms`);
console.log(`  total      ${median((t) => t.total).toFixed(0)} ms  (target: under 1000 ms)`);
