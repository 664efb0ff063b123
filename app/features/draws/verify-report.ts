import { countOf } from "~/ui/plural";
import { ALGORITHM, type Check, type PublishedDraw, verifyDraw } from "./fairness";

const MARK: Record<Check, string> = { passed: "✔", failed: "✘", pending: "…" };

/** Reads a published draw record, refusing anything that is not one. */
export function parsePublishedDraw(json: unknown): PublishedDraw {
  const record = json as Partial<PublishedDraw> | null;
  const isHex = (value: unknown, length: number) =>
    typeof value === "string" && new RegExp(`^[0-9a-f]{${length}}$`, "i").test(value);
  if (!record || record.algorithm !== ALGORITHM) throw new Error(`not a ${ALGORITHM} draw record`);
  if (!isHex(record.commitment, 64) || !isHex(record.listHash, 64))
    throw new Error("commitment and list hash must be SHA-256 hex");
  if (record.seed !== null && !isHex(record.seed, 64)) throw new Error("the seed must be 32 bytes of hex, or null");
  if (!Array.isArray(record.entries) || !Array.isArray(record.winners))
    throw new Error("entries and winners must be lists");
  if (!record.beacon || typeof record.beacon.source !== "string") throw new Error("the beacon must name its source");
  if (record.instantWins !== undefined) {
    const instant = record.instantWins;
    if (!instant || !isHex(instant.commitment, 64)) throw new Error("the instant-win commitment must be SHA-256 hex");
    if (instant.salt !== null && !isHex(instant.salt, 32))
      throw new Error("the instant-win salt must be 16 bytes of hex");
    if (instant.wins !== null && !Array.isArray(instant.wins)) throw new Error("the instant wins must be a list");
  }
  return record as PublishedDraw;
}

/** Every check of a published draw, as lines a person reads; `ok` only when all passed. */
export async function verifyReport(record: PublishedDraw) {
  const result = await verifyDraw(record);
  const lines = [
    `Draw ${record.slug} (${countOf(record.entries.length, "eligible entry", "eligible entries")}, ${ALGORITHM})`,
    `${MARK[result.checks.commitment]} seed matches the commitment published at go-live (${record.commitment})`,
    `${MARK[result.checks.listHash]} entry list hashes to ${record.listHash}`,
    `  beacon: ${record.beacon.source} = ${record.beacon.value ?? "not known yet"}`,
    ...(result.checks.instantWins
      ? [
          `${MARK[result.checks.instantWins]} instant-win list matches its commitment (${record.instantWins?.commitment})`,
        ]
      : []),
    `${MARK[result.checks.winners]} winners recomputed: ${result.recomputedWinners?.join(", ") ?? "after the draw"} (published: ${record.winners.join(", ") || "none yet"})`,
    result.ok ? "The draw checks out." : "The draw does NOT check out yet: see the marks above.",
  ];
  return { ok: result.ok, lines };
}
