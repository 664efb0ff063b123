import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { draws } from "../../../db/schema";
import { type DrandRound, enterBeacon } from "./beacon.server";
import { closeDraw } from "./closing.server";
import { createTestDraw, DRAW_NOW } from "./draws.test-support";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

/** A round as drand's HTTP API answers it: the randomness is the SHA-256 of the signature. */
function drandRound(round: number, signature = "8f".repeat(48)): DrandRound {
  return { round, signature, randomness: createHash("sha256").update(Buffer.from(signature, "hex")).digest("hex") };
}

/** A fake drand API that knows the rounds it is given, and remembers which were asked for. */
function fakeDrand(rounds: DrandRound[]) {
  const asked: number[] = [];
  const fetchRound = async (round: number) => {
    asked.push(round);
    return rounds.find((known) => known.round === round) ?? null;
  };
  return { asked, fetchRound };
}

async function closedDraw(beaconSource: string) {
  const { db } = database();
  const draw = await createTestDraw(db, { beaconSource, closesAt: minutes(1) });
  // Nobody entered, so it closes to be drawn for its cash alternative: closed all the same.
  expect(await closeDraw(db, { drawId: draw.id, actorId: null, now: minutes(2) })).toBe("cash");
  return draw;
}

async function beaconOf(drawId: string) {
  const [row] = await database().db.select({ value: draws.beaconValue }).from(draws).where(eq(draws.id, drawId));
  return row?.value ?? null;
}

const enter = (drawId: string, value: string, fetchRound: (round: number) => Promise<DrandRound | null>) =>
  enterBeacon(database().db, { drawId, value, actorId: null, now: minutes(5) }, { fetchRound });

describe("entering a draw's beacon", () => {
  it("takes a drand round number, fetches the round and records its randomness", async () => {
    const draw = await closedDraw("drand quicknet round 1000");
    const round = drandRound(1000);
    const drand = fakeDrand([round]);
    expect(await enter(draw.id, "1000", drand.fetchRound)).toEqual({ ok: true });
    expect(drand.asked).toEqual([1000]);
    expect(await beaconOf(draw.id)).toBe(round.randomness);
  });

  it("refuses a drand value in the wrong form, another round, or a round that does not check out", async () => {
    const draw = await closedDraw("drand quicknet round 1000");
    const forged = { ...drandRound(1000), randomness: "ab".repeat(32) };
    const cases: [string, DrandRound[], string][] = [
      [
        "7c1f0a9e",
        [drandRound(1000)],
        "This draw's beacon is a drand quicknet round: enter the round number, like 1000",
      ],
      ["1001", [drandRound(1001)], "This draw named drand quicknet round 1000: enter 1000"],
      ["1000", [], "drand has no round 1000 yet: try again once it is published"],
      [
        "1000",
        [forged],
        "drand's answer for round 1000 does not check out: its randomness is not its signature's hash",
      ],
    ];
    for (const [value, rounds, problem] of cases) {
      expect(await enter(draw.id, value, fakeDrand(rounds).fetchRound), value).toEqual({ ok: false, problem });
    }
    expect(await beaconOf(draw.id)).toBeNull();
  });

  it("takes a lottery result written as six numbers and a bonus ball, and refuses any other form", async () => {
    const draw = await closedDraw("UK Lotto draw on Saturday 3 July 2027");
    const never = fakeDrand([]);
    const form =
      "Enter the Lotto result as six different numbers from 1 to 59 in order, then the bonus ball, like 01-12-23-34-45-56+07";
    for (const value of [
      "1 12 23 34 45 56 7",
      "01-12-23-34-45-56",
      "01-12-23-34-45-60+07",
      "12-01-23-34-45-56+07",
      "01-01-23-34-45-56+07",
      "01-12-23-34-45-56+12",
    ]) {
      expect(await enter(draw.id, value, never.fetchRound), value).toEqual({ ok: false, problem: form });
    }
    expect(await enter(draw.id, " 01-12-23-34-45-56+07 ", never.fetchRound)).toEqual({ ok: true });
    expect(await beaconOf(draw.id)).toBe("01-12-23-34-45-56+07");
    expect(never.asked).toEqual([]);
  });
});
