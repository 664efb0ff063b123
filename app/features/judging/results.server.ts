import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import sharp from "sharp";
import { formatEventInstant } from "~/features/dates/event-dates";
import { eventByIdOrSlug } from "~/features/events/catalogue.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import {
  events,
  showAwards,
  showCarApplications,
  showClasses,
  showClassJudges,
  showEntries,
  showMarks,
  showSettings,
  voteCategories,
} from "../../../db/schema";
import { leaderboard } from "./judging-rules";
import { type CheckShown, parseBallotList } from "./tally-check";
import { checkTally, type Totals, tallyOf } from "./tally-proof";
import { type CarCover, publicCovers, tallyOnce, votingState } from "./voting.server";

// A show's public results (docs/car-shows.md): its awards, each class's placings from the judges'
// marks, and People's Choice counted from the ballot list frozen when voting closed, with what
// anyone needs to check that count. Hidden until staff publish them; staff may look first.

const IN_SHOW = ["approved", "paid"] as const;
const PUBLIC_EVENT = inArray(events.status, ["published", "cancelled"]);
const BEST_IN_SHOW = "best in show";

type Viewer = { id: string; role: "member" | "organizer" | "admin" } | null;
const isStaff = (viewer: Viewer) => viewer?.role === "organizer" || viewer?.role === "admin";

type ShownCar = { applicationId: string; showNumber: number | null; label: string; cover: CarCover | null };

export type ResultsPage = NonNullable<Awaited<ReturnType<typeof resultsPage>>>;

/**
 * The results page of a public event's show, or null when there is none to show this viewer:
 * no such event or show, or results not yet published and the viewer not staff (staff get a
 * preview, flagged as such). Counting People's Choice freezes the ballot list if voting has closed
 * and nobody froze it yet.
 */
export async function resultsPage(
  db: Db,
  input: {
    idOrSlug: string;
    viewer: Viewer;
    now: Date /** A ballot id to check, sent without JavaScript. */;
    ballotId?: string | null;
  },
) {
  if (!input.idOrSlug || input.idOrSlug.length > 200) return null;
  const [event] = await db
    .select({
      id: events.id,
      slug: events.slug,
      title: events.title,
      timeZone: events.timeZone,
      votingOpensAt: showSettings.votingOpensAt,
      votingClosesAt: showSettings.votingClosesAt,
      resultsPublishedAt: showSettings.resultsPublishedAt,
      showScores: showSettings.showScores,
    })
    .from(events)
    .innerJoin(showSettings, eq(showSettings.eventId, events.id))
    .where(and(eventByIdOrSlug(input.idOrSlug), PUBLIC_EVENT));
  if (!event) return null;
  const preview = !event.resultsPublishedAt;
  if (preview && !isStaff(input.viewer)) return null;

  const [classes, entries, judges, marks, awards, categories, tally] = await Promise.all([
    db
      .select({
        id: showClasses.id,
        name: showClasses.name,
        scheme: showClasses.scheme,
        criteria: showClasses.criteria,
      })
      .from(showClasses)
      .where(eq(showClasses.eventId, event.id))
      .orderBy(asc(showClasses.position), asc(showClasses.name)),
    db
      .select({
        applicationId: showEntries.applicationId,
        classId: showEntries.classId,
        showNumber: showEntries.showNumber,
        label: showCarApplications.carLabel,
        carId: showCarApplications.carId,
      })
      .from(showEntries)
      .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
      .where(and(eq(showEntries.eventId, event.id), inArray(showCarApplications.status, [...IN_SHOW])))
      .orderBy(asc(showEntries.showNumber)),
    db
      .select({ classId: showClassJudges.classId, judgeId: showClassJudges.userId })
      .from(showClassJudges)
      .innerJoin(showClasses, eq(showClasses.id, showClassJudges.classId))
      .where(eq(showClasses.eventId, event.id)),
    db
      .select({
        classId: showMarks.classId,
        judgeId: showMarks.judgeId,
        carId: showMarks.applicationId,
        criterionId: showMarks.criterionId,
        halves: showMarks.halves,
      })
      .from(showMarks)
      .innerJoin(showClasses, eq(showClasses.id, showMarks.classId))
      .where(eq(showClasses.eventId, event.id)),
    db
      .select({
        id: showAwards.id,
        title: showAwards.title,
        classId: showAwards.classId,
        applicationId: showAwards.applicationId,
      })
      .from(showAwards)
      .where(eq(showAwards.eventId, event.id)),
    db
      .select({ slug: voteCategories.slug, name: voteCategories.name })
      .from(voteCategories)
      .where(eq(voteCategories.eventId, event.id))
      .orderBy(asc(voteCategories.position), asc(voteCategories.name)),
    tallyOnce(db, event.id, input.now),
  ]);
  const awardCars =
    awards.length === 0
      ? []
      : await db
          .select({
            applicationId: showCarApplications.id,
            label: showCarApplications.carLabel,
            carId: showCarApplications.carId,
            showNumber: showEntries.showNumber,
          })
          .from(showCarApplications)
          .leftJoin(showEntries, eq(showEntries.applicationId, showCarApplications.id))
          .where(
            inArray(
              showCarApplications.id,
              awards.map((award) => award.applicationId),
            ),
          );
  const covers = await publicCovers(
    db,
    [...entries, ...awardCars].map((car) => car.carId),
  );
  const shown = (car: { applicationId: string; showNumber: number | null; label: string; carId: string | null }) =>
    ({
      applicationId: car.applicationId,
      showNumber: car.showNumber,
      label: car.label,
      cover: car.carId ? (covers.get(car.carId) ?? null) : null,
    }) satisfies ShownCar;
  const classNames = new Map(classes.map((showClass) => [showClass.id, showClass.name]));
  const classOrder = new Map(classes.map((showClass, index) => [showClass.id, index]));

  // Best in Show first, then the show's named trophies, then each class's awards in class order.
  const rank = (award: { title: string; classId: string | null }) =>
    award.classId === null
      ? award.title.trim().toLowerCase() === BEST_IN_SHOW
        ? -2
        : -1
      : (classOrder.get(award.classId) ?? 999);
  const carsById = new Map(awardCars.map((car) => [car.applicationId, car]));
  const awardList = awards
    .filter((award) => carsById.has(award.applicationId))
    .sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title))
    .map((award) => ({
      id: award.id,
      title: award.title,
      className: award.classId ? (classNames.get(award.classId) ?? null) : null,
      car: shown(carsById.get(award.applicationId)!),
    }));

  const placings = classes.map((showClass) => {
    const inClass = entries.filter((entry) => entry.classId === showClass.id);
    const standings = leaderboard({
      scheme: showClass.scheme,
      criteria: showClass.criteria,
      judgeIds: judges.filter((judge) => judge.classId === showClass.id).map((judge) => judge.judgeId),
      carIds: inClass.map((entry) => entry.applicationId),
      marks: marks
        .filter((mark) => mark.classId === showClass.id)
        .map((mark) => ({
          judgeId: mark.judgeId,
          carId: mark.carId,
          criterionId: mark.criterionId,
          value: mark.halves / 2,
        })),
    });
    const byId = new Map(inClass.map((entry) => [entry.applicationId, entry]));
    return {
      id: showClass.id,
      name: showClass.name,
      // Placed cars in the leaderboard's order; cars no judge has finished after them, by number.
      standings: [
        ...standings.filter((standing) => standing.place !== null),
        ...standings
          .filter((standing) => standing.place === null)
          .sort((a, b) => (byId.get(a.carId)!.showNumber ?? 0) - (byId.get(b.carId)!.showNumber ?? 0)),
      ].map((standing) => ({
        ...shown(byId.get(standing.carId)!),
        place: standing.place,
        tied: standing.tied,
        score: event.showScores ? standing.score : null,
      })),
    };
  });

  const labels = new Map(entries.map((entry) => [String(entry.showNumber), entry.label]));
  const counted = tally ? countedTally(tally, categories, labels) : null;
  return {
    event: { id: event.id, slug: event.slug, title: event.title },
    preview,
    showScores: event.showScores,
    awards: awardList,
    classes: placings,
    peoplesChoice:
      categories.length === 0
        ? null
        : {
            state: votingState(event, input.now),
            closesLabel: event.votingClosesAt ? formatEventInstant(event.votingClosesAt, event.timeZone) : null,
            tally: counted,
          },
    check:
      input.ballotId == null
        ? null
        : await checkBallot(tally && counted ? { ...tally, totals: counted.totals } : null, input.ballotId),
  };
}

/** People's Choice as published: the totals of the frozen list per category, most votes first. */
function countedTally(
  tally: { ballotList: string; commitment: string; talliedAt: Date },
  categories: { slug: string; name: string }[],
  labels: ReadonlyMap<string, string>,
) {
  const totals = tallyOf(parseBallotList(tally.ballotList));
  return {
    commitment: tally.commitment,
    talliedAt: tally.talliedAt.toISOString(),
    ballots: tally.ballotList === "" ? 0 : tally.ballotList.split("\n").length - 1,
    totals,
    categories: categories.map((category) => ({
      slug: category.slug,
      name: category.name,
      cars: Object.entries(totals[category.slug] ?? {})
        .map(([car, votes]) => ({ car, label: labels.get(car) ?? `Car ${car}`, votes }))
        .sort((a, b) => b.votes - a.votes || Number(a.car) - Number(b.car)),
    })),
  };
}

/** The ballot list of a show whose voting has closed (frozen now if need be), or null. */
export async function frozenBallotList(db: Db, idOrSlug: string, now: Date) {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  const [event] = await db
    .select({ id: events.id, slug: events.slug })
    .from(events)
    .where(and(eventByIdOrSlug(idOrSlug), PUBLIC_EVENT));
  if (!event) return null;
  const tally = await tallyOnce(db, event.id, now);
  return tally ? { slug: event.slug, ...tally } : null;
}

const BALLOT_ID = /^[0-9a-f]{32}$/;

/**
 * Checks a ballot id against the published tally on the server, for a browser without
 * JavaScript: the same `checkTally` the page runs in the browser, on the frozen list and the
 * totals the page shows.
 */
async function checkBallot(
  tally: { ballotList: string; commitment: string; totals: Totals } | null,
  ballotId: string,
): Promise<CheckShown> {
  const id = ballotId.trim().toLowerCase();
  if (!BALLOT_ID.test(id)) {
    return { ballotId, problem: "A ballot id is 32 characters, 0 to 9 and a to f: copy it from your vote page" };
  }
  if (!tally) return { ballotId, problem: "Votes are counted when voting closes: check your ballot then" };
  const result = await checkTally({
    ballots: parseBallotList(tally.ballotList),
    commitment: tally.commitment,
    totals: tally.totals,
    ballotId: id,
  });
  return { ballotId: id, result };
}

/** Text set in the sharing image's SVG: escaped for XML, and cut to what its line holds. */
function svgText(text: string, most: number) {
  // Characters XML does not allow at all (control codes) are dropped, not escaped.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "");
  const cut = clean.length > most ? `${clean.slice(0, most - 1).trimEnd()}…` : clean;
  return cut.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * An award's sharing image (Open Graph, 1200 × 630 PNG): the title, the car and the event, drawn
 * from an SVG. Only for published results; null otherwise, or for an award not of this event.
 */
export async function awardImage(db: Db, input: { idOrSlug: string; awardId: string }) {
  if (!input.idOrSlug || input.idOrSlug.length > 200 || !isUuid(input.awardId)) return null;
  const [award] = await db
    .select({
      title: showAwards.title,
      className: showClasses.name,
      label: showCarApplications.carLabel,
      showNumber: showEntries.showNumber,
      eventTitle: events.title,
    })
    .from(showAwards)
    .innerJoin(events, eq(events.id, showAwards.eventId))
    .innerJoin(showSettings, eq(showSettings.eventId, events.id))
    .innerJoin(showCarApplications, eq(showCarApplications.id, showAwards.applicationId))
    .leftJoin(showEntries, eq(showEntries.applicationId, showAwards.applicationId))
    .leftJoin(showClasses, eq(showClasses.id, showAwards.classId))
    .where(
      and(
        eq(showAwards.id, input.awardId.toLowerCase()),
        eventByIdOrSlug(input.idOrSlug),
        PUBLIC_EVENT,
        isNotNull(showSettings.resultsPublishedAt),
      ),
    );
  if (!award) return null;
  const car = award.showNumber === null ? award.label : `Car ${award.showNumber} · ${award.label}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#111315"/>
  <rect x="0" y="0" width="24" height="630" fill="#ff6a13"/>
  <g font-family="Inter, 'DejaVu Sans', Arial, sans-serif" fill="#f5f5f4">
    <text x="96" y="150" font-size="34" font-weight="700" fill="#ff6a13" letter-spacing="4">${svgText(award.className ? award.className.toUpperCase() : "AWARD", 48)}</text>
    <text x="96" y="270" font-size="88" font-weight="900">${svgText(award.title, 22)}</text>
    <text x="96" y="380" font-size="48" font-weight="600">${svgText(car, 40)}</text>
    <text x="96" y="540" font-size="34" fill="#a8a29e">${svgText(award.eventTitle, 56)}</text>
  </g>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
