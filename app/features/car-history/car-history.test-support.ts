import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { NOW } from "~/features/checkout/stock.test-support";
import { admittedVisitors, createShow } from "~/features/judging/shows.test-support";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { ballots, exhibitorPasses, showAwards, showClassJudges, showMarks, showSettings } from "../../../db/schema";

/** A show of three cars: car 1 scanned in and marked best by one judge, given Best in Class, two votes. */
export async function judgedShow(db: Db, judge: string, options: { published: boolean }) {
  const show = await createShow(db, { cars: 3 });
  const [first, second] = show.entries;
  await db.insert(exhibitorPasses).values({
    applicationId: first!.applicationId,
    eventId: show.eventId,
    userId: first!.owner.id,
    code: newTicketCode(),
    checkedInAt: NOW,
  });
  await db.insert(showClassJudges).values({ classId: show.classId, userId: judge, createdAt: NOW });
  for (const [index, entry] of show.entries.entries()) {
    await db.insert(showMarks).values(
      show.criteria.map((criterion) => ({
        applicationId: entry.applicationId,
        classId: show.classId,
        judgeId: judge,
        criterionId: criterion.id,
        halves: 20 - index * 2,
        savedAt: NOW,
      })),
    );
  }
  const [award] = await db
    .insert(showAwards)
    .values({
      eventId: show.eventId,
      classId: show.classId,
      title: "Best in Class",
      applicationId: first!.applicationId,
      givenAt: NOW,
    })
    .returning({ id: showAwards.id });
  const voter = await admittedVisitors(db, show, 3);
  const vote = (ticketId: string, applicationId: string) => ({
    id: randomUUID().replaceAll("-", ""),
    eventId: show.eventId,
    categoryId: show.categoryId,
    ticketId,
    applicationId,
    castAt: NOW,
    changedAt: NOW,
  });
  await db
    .insert(ballots)
    .values([
      vote(voter[0]!.ticketId, first!.applicationId),
      vote(voter[1]!.ticketId, first!.applicationId),
      vote(voter[2]!.ticketId, second!.applicationId),
    ]);
  await db
    .update(showSettings)
    .set({ talliedAt: NOW, resultsPublishedAt: options.published ? NOW : null })
    .where(eq(showSettings.eventId, show.eventId));
  return { show, first: first!, awardId: award!.id };
}
