import { and, asc, eq, gte, isNull, or, sql } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import type { Env } from "~/server/env.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import type { MailTransport } from "~/server/mail/mail.server";
import { lapsedEmailClaim, sendOnce } from "~/server/mail/sent-once.server";
import { formatMoney } from "~/ui/money";
import { plural } from "~/ui/plural";
import { drawEntries, drawResultEmails, draws, type PrizeChoice, users } from "../../../db/schema";
import { winnerLabel } from "./catalogue.server";

/**
 * After a draw: the winner's claim (the prize or its cash alternative) and the result email every
 * entrant gets once (docs/draws.md, "After the draw"). Sending is a job, asked for
 * by the close job for each draw drawn in the last two days, so a draw drawn from the organizer
 * pages or by the job is announced the same way, once per entrant whoever runs it.
 */

/** The member who holds the winning entry of a drawn draw, or null (no winner, a postal winner). */
async function winningMember(db: Db, drawId: string) {
  const [row] = await db
    .select({ userId: drawEntries.userId })
    .from(draws)
    .innerJoin(drawEntries, and(eq(drawEntries.drawId, draws.id), eq(drawEntries.number, draws.winnerNumber)))
    .where(and(eq(draws.id, drawId), eq(draws.status, "drawn")));
  return row?.userId ?? null;
}

export type PrizeClaim = {
  prize: string;
  cashAlternative: number;
  choice: PrizeChoice | null;
};

/**
 * What the winner may claim: null for anyone else, or when there is nothing to choose (no cash
 * alternative, or the undersold policy already made the cash the prize).
 */
export async function prizeClaimFor(db: Db, drawId: string, userId: string): Promise<PrizeClaim | null> {
  if ((await winningMember(db, drawId)) !== userId) return null;
  const [draw] = await db
    .select({
      prize: draws.prize,
      cashAlternative: draws.cashAlternative,
      cashPrize: draws.cashPrize,
      choice: draws.prizeChoice,
    })
    .from(draws)
    .where(eq(draws.id, drawId));
  if (!draw || draw.cashAlternative === null || draw.cashPrize) return null;
  return { prize: draw.prize, cashAlternative: draw.cashAlternative, choice: draw.choice };
}

export type ClaimResult = { ok: true; choice: PrizeChoice } | { ok: false; problem: string };

/** The winner chooses the prize or its cash alternative, once; audited. */
export async function claimPrize(
  db: Db,
  input: { drawId: string; userId: string; choice: PrizeChoice; now: Date },
): Promise<ClaimResult> {
  return transactionWithRetry(db, async (tx) => {
    const [draw] = await tx
      .select({
        slug: draws.slug,
        status: draws.status,
        cashAlternative: draws.cashAlternative,
        cashPrize: draws.cashPrize,
        choice: draws.prizeChoice,
      })
      .from(draws)
      .where(eq(draws.id, input.drawId))
      .for("update");
    if (draw?.status !== "drawn" || (await winningMember(tx, input.drawId)) !== input.userId) {
      return { ok: false, problem: "Only the winner of a drawn draw can claim its prize." };
    }
    if (draw.cashAlternative === null || draw.cashPrize) {
      return { ok: false, problem: "This prize has no alternative to choose." };
    }
    if (draw.choice !== null) {
      return {
        ok: false,
        problem: `You already chose ${draw.choice === "cash" ? "the cash alternative" : "the prize"}. Reply to your winner's email to change it.`,
      };
    }
    await tx
      .update(draws)
      .set({ prizeChoice: input.choice, prizeChosenAt: input.now, updatedAt: input.now })
      .where(eq(draws.id, input.drawId));
    await recordAudit(tx, {
      actorId: input.userId,
      action: "draw.claim",
      subjectType: "draw",
      subjectId: input.drawId,
      details: { slug: draw.slug, choice: input.choice },
    });
    return { ok: true, choice: input.choice };
  });
}

export type DrawResultServices = {
  db: Db;
  mail: MailTransport;
  jobs: Pick<JobQueue, "enqueue">;
  env: Pick<Env, "SITE_NAME" | "SITE_URL" | "CURRENCY">;
};

/** Each run sends at most this many, then asks for another run: a big draw never holds one job for long. */
const BATCH = 200;

type DrawnDraw = {
  id: string;
  slug: string;
  title: string;
  prize: string;
  cashAlternative: number | null;
  cashPrize: boolean;
  winnerNumber: number | null;
  winnerUserId: string | null;
  winnerLabel: string | null;
};

async function drawnDraw(db: Db, drawId: string): Promise<DrawnDraw | null> {
  const [row] = await db
    .select({
      id: draws.id,
      slug: draws.slug,
      title: draws.title,
      prize: draws.prize,
      cashAlternative: draws.cashAlternative,
      cashPrize: draws.cashPrize,
      winnerNumber: draws.winnerNumber,
      winnerUserId: drawEntries.userId,
      winnerName: sql<string | null>`coalesce(${users.name}, ${drawEntries.postalName})`,
      winnerTown: users.town,
      winnerTownPublic: users.townPublic,
    })
    .from(draws)
    .leftJoin(drawEntries, and(eq(drawEntries.drawId, draws.id), eq(drawEntries.number, draws.winnerNumber)))
    .leftJoin(users, eq(users.id, drawEntries.userId))
    .where(and(eq(draws.id, drawId), eq(draws.status, "drawn")));
  if (!row) return null;
  return { ...row, winnerLabel: winnerLabel(row.winnerName, row.winnerTown, row.winnerTownPublic) };
}

/** The result email for one entrant: the winner's asks them to claim; everyone's shows the proof. */
function drawResultEmail(
  brand: Branding & { currency: string },
  draw: DrawnDraw,
  entrant: { email: string; name: string; numbers: number[] },
) {
  const pageUrl = `${brand.siteUrl}/giveaways/${draw.slug}`;
  const verify = `Anyone can check the draw: ${pageUrl}/verify`;
  const numbers = `Your ${plural(entrant.numbers.length, "number", "numbers")} ${plural(entrant.numbers.length, "was", "were")} ${entrant.numbers.join(", ")}.`;
  const won = draw.winnerNumber !== null && entrant.numbers.includes(draw.winnerNumber);
  if (won) {
    const prize = draw.cashPrize ? formatMoney(draw.cashAlternative ?? 0, brand.currency) : draw.prize;
    const choose = draw.cashAlternative !== null && !draw.cashPrize;
    return accountEmail(brand, entrant.email, `You won ${draw.title}!`, {
      greeting: `Congratulations ${entrant.name},`,
      lines: [
        `Your entry ${draw.winnerNumber} was drawn as the winner of ${draw.title}: you win ${prize}.`,
        choose
          ? `You can take the prize or its cash alternative of ${formatMoney(draw.cashAlternative!, brand.currency)}. Tell us which on the draw's page.`
          : "We will be in touch within two working days to arrange it.",
        verify,
      ],
      action: { label: choose ? "Claim your prize" : "See the result", url: pageUrl },
      footnote: "Reply to this email if you have any questions about your prize.",
    });
  }
  return accountEmail(brand, entrant.email, `The result of ${draw.title}`, {
    greeting: `Hi ${entrant.name},`,
    lines: [
      draw.winnerNumber === null
        ? `${draw.title} has been drawn. There were no eligible entries, so there is no winner.`
        : `${draw.title} has been drawn: the winning entry is ${draw.winnerNumber}${draw.winnerLabel ? ` (${draw.winnerLabel})` : ""}.`,
      `${numbers} Not this time, but thank you for entering.`,
      verify,
    ],
    action: { label: "See the result", url: pageUrl },
  });
}

/**
 * Sends the result to entrants not emailed yet (or whose send was claimed by a server that stopped
 * before recording it), up to `BATCH` of them; answers how many remain. Each entrant's email goes
 * out through `sendOnce`, so a run repeated or running on two servers at once never emails anyone
 * twice, and no transaction stays open while the mail server answers.
 */
export async function sendDrawResults(services: Omit<DrawResultServices, "jobs">, drawId: string) {
  const { db, mail, env } = services;
  const draw = await drawnDraw(db, drawId);
  if (!draw) return { sent: 0, remaining: 0 };
  const rows = await db
    .select({
      userId: drawEntries.userId,
      email: users.email,
      name: users.name,
      numbers: sql<number[]>`array_agg(${drawEntries.number} order by ${drawEntries.number})`,
    })
    .from(drawEntries)
    .innerJoin(users, eq(users.id, drawEntries.userId))
    .leftJoin(
      drawResultEmails,
      and(eq(drawResultEmails.drawId, drawEntries.drawId), eq(drawResultEmails.userId, drawEntries.userId)),
    )
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        eq(drawEntries.status, "valid"),
        or(isNull(drawResultEmails.userId), lapsedEmailClaim(drawResultEmails, new Date())),
      ),
    )
    .groupBy(drawEntries.userId, users.email, users.name)
    .orderBy(asc(drawEntries.userId))
    .limit(BATCH + 1);
  const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL, currency: env.CURRENCY };
  let sent = 0;
  for (const row of rows.slice(0, BATCH)) {
    const email = drawResultEmail(brand, draw, { email: row.email, name: row.name, numbers: row.numbers.map(Number) });
    const result = await sendOnce(db, mail, { table: drawResultEmails, key: { drawId, userId: row.userId! }, email });
    if (result === "sent") sent++;
  }
  return { sent, remaining: Math.max(0, rows.length - BATCH) };
}

export const drawResultsJob = defineJob<{ drawId: string }, DrawResultServices>({
  name: "draw-result-emails",
  expireInSeconds: 600,
  handler: async ({ drawId }, services) => {
    const { remaining } = await sendDrawResults(services, drawId);
    if (remaining > 0) await services.jobs.enqueue(drawResultsJob, { drawId });
  },
});

/** Draws drawn in the last two days: the close job asks for their result emails each run. */
export async function recentlyDrawn(db: Db, now: Date) {
  const rows = await db
    .select({ id: draws.id })
    .from(draws)
    .where(and(eq(draws.status, "drawn"), gte(draws.drawnAt, new Date(now.getTime() - 2 * 24 * 3600 * 1000))));
  return rows.map((row) => row.id);
}
