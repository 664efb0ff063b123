import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  commitmentOf,
  drawWinners,
  instantWinCommitment,
  listHashOf,
  newSeed,
  type PublishedDraw,
  uniformIndex,
  verifyDraw,
} from "./fairness";

const ZERO_SEED = "00".repeat(32);

/** A deterministic seed per counter, so the statistical test cannot flake. */
function seedFor(counter: number) {
  return createHash("sha256").update(`test seed ${counter}`).digest("hex");
}

describe("commitments and the entry list", () => {
  it("commits to the seed's bytes with SHA-256", async () => {
    expect(await commitmentOf(ZERO_SEED)).toBe("66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
    const seed = newSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await commitmentOf(seed)).toBe(createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex"));
  });

  it("hashes the eligible numbers ascending, one per line, whatever order they come in", async () => {
    const expected = createHash("sha256").update("1\n2\n10\n").digest("hex");
    expect(await listHashOf([10, 1, 2])).toBe(expected);
    await expect(listHashOf([1, 1])).rejects.toThrow("entry 1 is listed twice");
    await expect(listHashOf([0])).rejects.toThrow("not an entry number: 0");
  });
});

describe("drawing", () => {
  it("matches an independent computation of the first HMAC-SHA-512 block (known answer)", async () => {
    const entries = [3, 7, 12];
    const listHash = await listHashOf(entries);
    const beacon = "drand quicknet round 1234567: 9f1c";
    const block = createHmac("sha512", Buffer.from(ZERO_SEED, "hex"))
      .update(Buffer.concat([Buffer.from(listHash, "hex"), Buffer.from(beacon, "utf8"), Buffer.from([0, 0, 0, 0])]))
      .digest();
    // n = 3 reads one byte at a time and rejects 255 (the largest multiple of 3 below 256 is 255).
    const first = [...block].find((byte) => byte < 255)!;
    const expected = entries[first % 3];
    expect(await drawWinners({ seed: ZERO_SEED, listHash, beacon, entries })).toEqual([expected]);
    // Pinned, so any change to the algorithm is noticed.
    expect(await drawWinners({ seed: seedFor(1), listHash, beacon, entries, count: 3 })).toEqual([7, 12, 3]);
  });

  it("rejects the bytes that would bias the draw instead of wrapping them", async () => {
    const bytes = [255, 255, 2];
    const next = async () => bytes.shift()!;
    expect(await uniformIndex(next, 3)).toBe(2);
    // 300 entries need two bytes: 65535 - (65536 mod 300) … 65400 and above are rejected.
    const two = [0xff, 0x78, 0x01, 0x2c];
    expect(await uniformIndex(async () => two.shift()!, 300)).toBe(0x012c % 300);
  });

  it("draws only listed entries, and several winners without repeating one", async () => {
    const entries = [5, 9, 11, 40, 41];
    const listHash = await listHashOf(entries);
    for (let i = 0; i < 50; i++) {
      const winners = await drawWinners({ seed: seedFor(i), listHash, beacon: "b", entries, count: 5 });
      expect([...winners].sort((a, b) => a - b)).toEqual(entries);
    }
    await expect(drawWinners({ seed: ZERO_SEED, listHash, beacon: "b", entries, count: 6 })).rejects.toThrow();
  });

  it("is uniform over the entries (chi-square over 14,000 seeded draws, α = 0.001)", async () => {
    const entries = [1, 2, 3, 4, 5, 6, 7];
    const listHash = await listHashOf(entries);
    const counts = new Map(entries.map((number) => [number, 0]));
    const draws = 14_000;
    for (let i = 0; i < draws; i++) {
      const [winner] = await drawWinners({ seed: seedFor(i), listHash, beacon: "uniformity", entries });
      counts.set(winner!, counts.get(winner!)! + 1);
    }
    const expected = draws / entries.length;
    const chiSquare = [...counts.values()].reduce((sum, seen) => sum + (seen - expected) ** 2 / expected, 0);
    // The 0.999 quantile of chi-square with 6 degrees of freedom.
    expect(chiSquare).toBeLessThan(22.458);
  }, 60_000);
});

describe("verifying a published draw", () => {
  async function drawn(): Promise<PublishedDraw> {
    const seed = seedFor(42);
    const entries = [1, 2, 3, 5, 8, 13, 21];
    const listHash = await listHashOf(entries);
    const beacon = { source: "drand quicknet round 9000000", value: "a1b2c3" };
    const winners = await drawWinners({ seed, listHash, beacon: beacon.value, entries, count: 2 });
    return {
      algorithm: "pitlane-draw-1",
      slug: "test-draw",
      commitment: await commitmentOf(seed),
      seed,
      beacon,
      entries,
      listHash,
      winners,
    };
  }

  it("passes every check of an honest record", async () => {
    const record = await drawn();
    expect(await verifyDraw(record)).toEqual({
      ok: true,
      checks: { commitment: "passed", listHash: "passed", winners: "passed" },
      recomputedWinners: record.winners,
    });
  });

  it("catches another seed, a changed list and a changed winner", async () => {
    const record = await drawn();
    expect((await verifyDraw({ ...record, seed: seedFor(43) })).checks.commitment).toBe("failed");
    expect((await verifyDraw({ ...record, entries: [...record.entries, 34] })).checks.listHash).toBe("failed");
    const other = record.entries.find((number) => !record.winners.includes(number))!;
    const changed = await verifyDraw({ ...record, winners: [other, record.winners[1]!] });
    expect(changed).toMatchObject({ ok: false, checks: { winners: "failed" } });
  });

  it("says what is still pending before the seed is revealed", async () => {
    const record = await drawn();
    expect(await verifyDraw({ ...record, seed: null, winners: [] })).toEqual({
      ok: false,
      checks: { commitment: "pending", listHash: "passed", winners: "pending" },
      recomputedWinners: null,
    });
  });
});

describe("instant wins", () => {
  it("commits to the sorted list and its salt, and any change shows", async () => {
    const salt = "0f".repeat(16);
    const wins = [
      { number: 40, prize: "£50 fuel card" },
      { number: 7, prize: "Detailing kit" },
    ];
    const commitment = await instantWinCommitment(wins, salt);
    const text = "7\tDetailing kit\n40\t£50 fuel card\n";
    expect(commitment).toBe(
      createHash("sha256")
        .update(Buffer.concat([Buffer.from(text, "utf8"), Buffer.from(salt, "hex")]))
        .digest("hex"),
    );
    expect(await instantWinCommitment([...wins].reverse(), salt)).toBe(commitment);
    expect(await instantWinCommitment([{ ...wins[0]!, number: 41 }, wins[1]!], salt)).not.toBe(commitment);
    expect(await instantWinCommitment(wins, "1f".repeat(16))).not.toBe(commitment);
  });
});
