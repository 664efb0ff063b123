// Provably fair prize draws (docs/decisions/0013-provably-fair-draws.md). Pure and isomorphic:
// the server draws with it, the verify page recomputes in the browser, and `npm run verify-draw`
// checks a published record from the command line. Web Crypto only, so all three share one code.

export const ALGORITHM = "pitlane-draw-1";

const encoder = new TextEncoder();

function toHex(bytes: Uint8Array) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string) {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error("not hexadecimal");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function concat(...parts: Uint8Array[]) {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** A new 32-byte secret seed, as hex: made when a draw goes live and kept until it is drawn. */
export function newSeed() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** What the site publishes when a draw goes live: SHA-256 of the seed's 32 bytes, as hex. */
export async function commitmentOf(seedHex: string) {
  return toHex(await sha256(fromHex(seedHex)));
}

/**
 * The entry list everyone can check: the eligible entry numbers in ascending order, each
 * followed by a line feed, in UTF-8 ("1\n2\n5\n"). Numbers only: they are enough to pick a
 * winner, and the list can be published without anyone's name.
 */
function canonicalEntryList(numbers: readonly number[]) {
  const sorted = [...numbers].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    const number = sorted[i]!;
    if (!Number.isSafeInteger(number) || number < 1) throw new Error(`not an entry number: ${number}`);
    if (i > 0 && sorted[i - 1] === number) throw new Error(`entry ${number} is listed twice`);
  }
  return sorted;
}

/** SHA-256 of the canonical list's text, as hex: published when the draw closes. */
export async function listHashOf(numbers: readonly number[]) {
  const sorted = canonicalEntryList(numbers);
  let text = "";
  for (const number of sorted) text += `${number}\n`;
  return toHex(await sha256(encoder.encode(text)));
}

/**
 * The draw's random bytes: HMAC-SHA-512 keyed by the seed's 32 bytes, over the list hash's 32
 * bytes, the beacon's UTF-8 bytes and a 4-byte big-endian block counter (0, 1, 2…), 64 bytes a
 * block. Nobody can predict it before the seed is revealed, and the site cannot choose it: the
 * seed was committed to before any entry, and the beacon is only known after the list is frozen.
 */
async function byteStream(seedHex: string, listHashHex: string, beacon: string) {
  const key = await crypto.subtle.importKey("raw", fromHex(seedHex), { name: "HMAC", hash: "SHA-512" }, false, [
    "sign",
  ]);
  const prefix = concat(fromHex(listHashHex), encoder.encode(beacon));
  let block = new Uint8Array(0);
  let offset = 0;
  let counter = 0;
  return async function nextByte() {
    if (offset === block.length) {
      const count = new Uint8Array(4);
      new DataView(count.buffer).setUint32(0, counter++);
      block = new Uint8Array(await crypto.subtle.sign("HMAC", key, concat(prefix, count)));
      offset = 0;
    }
    return block[offset++]!;
  };
}

/**
 * A uniform index below `n` by rejection sampling: read the fewest whole bytes k with 256^k ≥ n
 * as a big-endian number x, and take x mod n only when x falls below the largest multiple of n
 * that fits in k bytes; otherwise read again. Every index is then exactly as likely (no modulo
 * bias), whatever n is.
 */
export async function uniformIndex(nextByte: () => Promise<number>, n: number) {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error("nothing to draw from");
  let k = 1;
  while (256n ** BigInt(k) < BigInt(n)) k++;
  const range = 256n ** BigInt(k);
  const limit = range - (range % BigInt(n));
  for (;;) {
    let x = 0n;
    for (let i = 0; i < k; i++) x = (x << 8n) | BigInt(await nextByte());
    if (x < limit) return Number(x % BigInt(n));
  }
}

/**
 * The winning entry numbers, in the order drawn: `count` of them, without replacement (a second
 * prize never goes to the first winner's entry).
 */
export async function drawWinners(input: {
  seed: string;
  listHash: string;
  beacon: string;
  entries: readonly number[];
  count?: number;
}) {
  const remaining = canonicalEntryList(input.entries);
  const count = input.count ?? 1;
  if (count > remaining.length) throw new Error(`${count} winners asked of ${remaining.length} entries`);
  const nextByte = await byteStream(input.seed, input.listHash, input.beacon);
  const winners: number[] = [];
  for (let i = 0; i < count; i++) {
    const index = await uniformIndex(nextByte, remaining.length);
    winners.push(remaining[index]!);
    remaining.splice(index, 1);
  }
  return winners;
}

/** What the site publishes about a draw, served as JSON for anyone to check. */
export type PublishedDraw = {
  algorithm: typeof ALGORITHM;
  slug: string;
  /** SHA-256 of the seed, published when the draw went live. */
  commitment: string;
  /** The seed, once the draw is drawn; null before. */
  seed: string | null;
  /** The public value named before the draw opened, and its value once known. */
  beacon: { source: string; value: string | null };
  /** The eligible entry numbers, ascending, frozen at close. */
  entries: number[];
  listHash: string;
  winners: number[];
  /**
   * Instant wins, for a draw that has them: the commitment published at go-live, and after close
   * the list and the salt it was made with.
   */
  instantWins?: { commitment: string; wins: { number: number; prize: string }[] | null; salt: string | null };
};

export type Check = "passed" | "failed" | "pending";

export type DrawVerification = {
  ok: boolean;
  checks: { commitment: Check; listHash: Check; winners: Check; instantWins?: Check };
  recomputedWinners: number[] | null;
};

/** Recomputes everything a published record claims; `ok` only when every check passed. */
export async function verifyDraw(record: PublishedDraw): Promise<DrawVerification> {
  const listHash = (await listHashOf(record.entries)) === record.listHash.toLowerCase() ? "passed" : "failed";
  const instant = record.instantWins ? { instantWins: await checkInstantWins(record.instantWins) } : {};
  if (!record.seed) {
    return {
      ok: false,
      checks: { commitment: "pending", listHash, winners: "pending", ...instant },
      recomputedWinners: null,
    };
  }
  const commitment = (await commitmentOf(record.seed)) === record.commitment.toLowerCase() ? "passed" : "failed";
  if (record.beacon.value === null || record.winners.length === 0) {
    return { ok: false, checks: { commitment, listHash, winners: "pending", ...instant }, recomputedWinners: null };
  }
  const recomputedWinners = await drawWinners({
    seed: record.seed,
    listHash: record.listHash,
    beacon: record.beacon.value,
    entries: record.entries,
    count: record.winners.length,
  });
  const winners = recomputedWinners.every((number, i) => number === record.winners[i]) ? "passed" : "failed";
  const checks = { commitment, listHash, winners, ...instant } as const;
  return { ok: Object.values(checks).every((check) => check === "passed"), checks, recomputedWinners };
}

/**
 * Instant wins are committed to when the draw goes live: SHA-256 over their canonical text (one
 * line per win, ascending by entry number: the number, a tab, the prize, a line feed) followed by
 * a 16-byte random salt, so the list cannot be guessed from the hash nor changed afterwards.
 */
export async function instantWinCommitment(wins: readonly { number: number; prize: string }[], saltHex: string) {
  const sorted = [...wins].sort((a, b) => a.number - b.number);
  let text = "";
  for (const win of sorted) {
    if (/[\t\n]/.test(win.prize)) throw new Error("a prize's name cannot hold tabs or line breaks");
    text += `${win.number}\t${win.prize}\n`;
  }
  return toHex(await sha256(concat(encoder.encode(text), fromHex(saltHex))));
}

async function checkInstantWins(published: NonNullable<PublishedDraw["instantWins"]>): Promise<Check> {
  if (!published.wins || !published.salt) return "pending";
  const recomputed = await instantWinCommitment(published.wins, published.salt);
  return recomputed === published.commitment.toLowerCase() ? "passed" : "failed";
}

export function newSalt() {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}
