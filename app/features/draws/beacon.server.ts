import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { draws } from "../../../db/schema";
import { type DrawStepResult, recordBeacon } from "./closing.server";

// The beacon's value is entered in the form its named source publishes (docs/draws.md, "The
// beacon"), never as free text an organizer could choose:
// - drand quicknet: the round number. The server fetches that round itself and records its
//   randomness, after checking that the randomness is the SHA-256 of the round's signature.
// - a UK Lotto result: six different numbers from 1 to 59 in order, then the bonus ball,
//   written `01-12-23-34-45-56+07`.
// Other sources named in older draws are recorded as typed.

/** A round as the drand HTTP API answers it (`GET /{chain hash}/public/{round}`). */
export type DrandRound = { round: number; randomness: string; signature: string };

/** drand's quicknet chain: its hash, the time of its first round and the seconds between rounds. */
const QUICKNET = {
  chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
  genesis: 1_692_803_367,
  period: 3,
  api: "https://api.drand.sh",
} as const;

/** Fetches a quicknet round from the drand HTTP API; null when drand has not published it (yet). */
async function fetchQuicknetRound(round: number): Promise<DrandRound | null> {
  const response = await fetch(`${QUICKNET.api}/${QUICKNET.chainHash}/public/${round}`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404 || response.status === 425) return null;
  if (!response.ok) throw new Error(`drand answered ${response.status} for round ${round}`);
  const body = (await response.json()) as Partial<DrandRound>;
  if (typeof body.round !== "number" || typeof body.randomness !== "string" || typeof body.signature !== "string")
    throw new Error(`drand's answer for round ${round} is not a round`);
  return { round: body.round, randomness: body.randomness, signature: body.signature };
}

export type BeaconSources = { fetchRound: (round: number) => Promise<DrandRound | null> };

const productionSources: BeaconSources = { fetchRound: fetchQuicknetRound };

const LOTTO_FORM =
  "Enter the Lotto result as six different numbers from 1 to 59 in order, then the bonus ball, like 01-12-23-34-45-56+07";

/** A Lotto result in its one written form, or null. */
function lottoResult(value: string): string | null {
  const match = /^(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})\+(\d{2})$/.exec(value);
  if (!match) return null;
  const numbers = match.slice(1).map(Number);
  const main = numbers.slice(0, 6);
  const bonus = numbers[6]!;
  if (numbers.some((n) => n < 1 || n > 59)) return null;
  if (main.some((n, i) => i > 0 && n <= main[i - 1]!)) return null;
  if (main.includes(bonus)) return null;
  return value;
}

type SourceKind = { kind: "drand"; namedRound: number | null } | { kind: "lotto" } | { kind: "other" };

/** What kind of beacon the draw named when it was published. */
function beaconKind(source: string): SourceKind {
  if (/\bdrand\b/i.test(source)) {
    const named = /\bround\s+#?(\d{1,12})\b/i.exec(source);
    return { kind: "drand", namedRound: named ? Number(named[1]) : null };
  }
  if (/\blott(o|ery)\b/i.test(source)) return { kind: "lotto" };
  return { kind: "other" };
}

/** When a quicknet round is published. */
const quicknetRoundTime = (round: number) => new Date((QUICKNET.genesis + (round - 1) * QUICKNET.period) * 1000);

async function drandValue(
  entered: string,
  source: { namedRound: number | null; closesAt: Date },
  sources: BeaconSources,
): Promise<{ ok: true; value: string } | { ok: false; problem: string }> {
  const example = source.namedRound ?? 1000;
  if (!/^\d{1,12}$/.test(entered))
    return {
      ok: false,
      problem: `This draw's beacon is a drand quicknet round: enter the round number, like ${example}`,
    };
  const round = Number(entered);
  if (source.namedRound !== null && round !== source.namedRound)
    return {
      ok: false,
      problem: `This draw named drand quicknet round ${source.namedRound}: enter ${source.namedRound}`,
    };
  if (source.namedRound === null && quicknetRoundTime(round) < source.closesAt)
    return { ok: false, problem: "That round was published before the draw closed: enter the first round after it" };
  const fetched = await sources.fetchRound(round);
  if (!fetched || fetched.round !== round)
    return { ok: false, problem: `drand has no round ${round} yet: try again once it is published` };
  const hash = /^[0-9a-f]+$/i.test(fetched.signature)
    ? createHash("sha256").update(Buffer.from(fetched.signature, "hex")).digest("hex")
    : null;
  if (!hash || hash !== fetched.randomness.toLowerCase())
    return {
      ok: false,
      problem: `drand's answer for round ${round} does not check out: its randomness is not its signature's hash`,
    };
  return { ok: true, value: hash };
}

/**
 * Records a closed draw's beacon from what the organizer entered, in the form its named source
 * publishes: a drand round is fetched (through `sources`, the drand HTTP API in production) and
 * its randomness recorded; a Lotto result is recorded in its one written form.
 */
export async function enterBeacon(
  db: Db,
  input: { drawId: string; value: string; actorId: string | null; now: Date },
  sources: BeaconSources = productionSources,
): Promise<DrawStepResult> {
  const [draw] = await db
    .select({ beaconSource: draws.beaconSource, closesAt: draws.closesAt, status: draws.status })
    .from(draws)
    .where(eq(draws.id, input.drawId));
  if (!draw) return { ok: false, problem: "This draw could not be found." };
  const entered = input.value.trim();
  const source = beaconKind(draw.beaconSource);
  if (source.kind === "lotto") {
    const value = lottoResult(entered);
    if (!value) return { ok: false, problem: LOTTO_FORM };
    return recordBeacon(db, { ...input, value });
  }
  if (source.kind === "drand") {
    if (draw.status !== "closed")
      return { ok: false, problem: "The beacon is entered after the draw closes, when its value is known." };
    const checked = await drandValue(entered, { namedRound: source.namedRound, closesAt: draw.closesAt }, sources);
    if (!checked.ok) return checked;
    return recordBeacon(db, { ...input, value: checked.value });
  }
  return recordBeacon(db, { ...input, value: entered });
}
