/**
 * Account credit's rules, as plain functions of a member's ledger (docs/credit.md). The ledger is
 * the only record: a positive line is a grant (which may run out at its `expiresAt`), a negative
 * line draws on one grant (`grantId`). Nothing here reads a clock: `now` is passed in.
 */

export type CreditLine = {
  id: string;
  /** Pence: positive for a grant, negative for a line that draws on one. */
  amount: number;
  /** Grants: when what is left of it runs out; null for credit that never does. */
  expiresAt: Date | null;
  /** Negative lines: the grant drawn on. */
  grantId: string | null;
  createdAt: Date;
};

/** What is left of one grant, and when it runs out. */
export type GrantLeft = { grantId: string; left: number; expiresAt: Date | null; createdAt: Date };

/** A part of a spend or an expiry: so much taken from one grant. */
export type Draw = { grantId: string; amount: number };

/** Default time a refund to credit keeps, in months. */
export const DEFAULT_CREDIT_MONTHS = 12;

/** The balance: the sum of every line. */
export function balanceOf(lines: readonly CreditLine[]) {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

/** Whether a grant's credit has run out at `now` (it runs out at its `expiresAt` itself). */
function hasRunOut(grant: { expiresAt: Date | null }, now: Date) {
  return grant.expiresAt !== null && grant.expiresAt.getTime() <= now.getTime();
}

/**
 * What is left of each grant that still has something left, in the order spends use them: the
 * earliest to run out first, credit that never runs out last, then the oldest first.
 */
export function grantsLeft(lines: readonly CreditLine[]): GrantLeft[] {
  const grants = new Map<string, GrantLeft>();
  for (const line of lines) {
    if (line.amount > 0) {
      grants.set(line.id, {
        grantId: line.id,
        left: line.amount,
        expiresAt: line.expiresAt,
        createdAt: line.createdAt,
      });
    }
  }
  for (const line of lines) {
    if (line.amount >= 0) continue;
    const grant = line.grantId ? grants.get(line.grantId) : undefined;
    if (!grant) throw new Error(`Credit line ${line.id} draws on no grant of this ledger`);
    grant.left += line.amount;
  }
  return [...grants.values()].filter((grant) => grant.left > 0).sort(spendOrder);
}

function spendOrder(a: GrantLeft, b: GrantLeft) {
  const ae = a.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const be = b.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  if (ae !== be) return ae < be ? -1 : 1;
  if (a.createdAt.getTime() !== b.createdAt.getTime()) return a.createdAt.getTime() - b.createdAt.getTime();
  return a.grantId < b.grantId ? -1 : a.grantId > b.grantId ? 1 : 0;
}

/** The credit that can be spent at `now`: what is left of the grants that have not run out. */
export function availableAt(lines: readonly CreditLine[], now: Date) {
  return grantsLeft(lines)
    .filter((grant) => !hasRunOut(grant, now))
    .reduce((sum, grant) => sum + grant.left, 0);
}

/**
 * What a spend of up to `amount` takes from which grants at `now`: the earliest to run out first,
 * never a grant that has run out, and never more than is available (the draws may add up to less
 * than `amount`).
 */
export function drawsFor(lines: readonly CreditLine[], amount: number, now: Date): Draw[] {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`A spend is a whole number of pence, not ${amount}`);
  const draws: Draw[] = [];
  let wanted = amount;
  for (const grant of grantsLeft(lines)) {
    if (wanted === 0) break;
    if (hasRunOut(grant, now)) continue;
    const take = Math.min(grant.left, wanted);
    draws.push({ grantId: grant.grantId, amount: take });
    wanted -= take;
  }
  return draws;
}

/** The expiries due at `now`: what is left of each grant that has run out. */
export function expiriesDue(lines: readonly CreditLine[], now: Date): Draw[] {
  return grantsLeft(lines)
    .filter((grant) => hasRunOut(grant, now))
    .map((grant) => ({ grantId: grant.grantId, amount: grant.left }));
}

/** When credit of the grants drawn on runs out: the latest of them, or never if one never does. */
export function latestExpiry(grants: readonly { expiresAt: Date | null }[]): Date | null {
  let latest: Date | null = null;
  for (const grant of grants) {
    if (grant.expiresAt === null) return null;
    if (latest === null || grant.expiresAt > latest) latest = grant.expiresAt;
  }
  return latest;
}

/** `months` calendar months after `now` (a month-end day goes to the shorter month's last day). */
export function monthsAfter(now: Date, months: number) {
  const at = new Date(now.getTime());
  const day = at.getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + months);
  const last = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(day, last));
  return at;
}

/**
 * How a refund of `amount` splits between the account credit the order spent and is still owed
 * back (`creditOutstanding`), which goes back first, and the rest.
 */
export function refundSplit(amount: number, creditOutstanding: number) {
  const credit = Math.max(0, Math.min(amount, creditOutstanding));
  return { credit, rest: amount - credit };
}

/** How much of a total the available credit covers. */
export function creditToSpend(total: number, available: number) {
  return Math.max(0, Math.min(total, available));
}
