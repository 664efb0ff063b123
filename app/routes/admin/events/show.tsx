import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { toLocalInputValue } from "~/features/dates/time-zones";
import { awardsOf, giveAward, leaderboardsOf, takeBackAward } from "~/features/judging/show-awards.server";
import {
  addCategory,
  addClassFromLibrary,
  addJudge,
  classesOf,
  classTemplatesList,
  closeVotingNow,
  numberCars,
  placeEntry,
  removeCategory,
  removeClass,
  removeJudge,
  type ShowOutcome,
  saveClass,
  saveClassToLibrary,
  saveVoting,
  setClassClosed,
  setResultsPublished,
  showEntriesOf,
  showEventOf,
  votingSettingsOf,
} from "~/features/judging/show-setup.server";
import {
  AwardIdSchema,
  AwardSchema,
  CategoryIdSchema,
  CategorySchema,
  ClassIdSchema,
  ClassSchema,
  JudgeSchema,
  PlacementSchema,
  RemoveJudgeSchema,
  TemplateSchema,
  votingSchema,
} from "~/features/judging/show-setup-schemas";
import { ShowSetup } from "~/features/judging/show-setup-section";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { intentOf } from "~/web/form-data.server";
import type { Route } from "./+types/show";
import { eventIdFrom } from "./event-id.server";

// The organizer's car show tab (docs/car-shows.md): classes and their library, judges, where each
// car is placed and its number, the leaderboards and awards, and the People's Choice settings.

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const event = await showEventOf(db, eventId);
  if (!event) notFound();
  const [classes, templates, entries, boards, awards, voting] = await Promise.all([
    classesOf(db, eventId),
    classTemplatesList(db),
    showEntriesOf(db, eventId),
    leaderboardsOf(db, eventId),
    awardsOf(db, eventId),
    votingSettingsOf(db, eventId),
  ]);
  const local = (instant: Date | null) => (instant ? toLocalInputValue(instant, event.timeZone) : "");
  return {
    event,
    classes,
    templates,
    entries: entries.map(({ voteKey: _key, ...entry }) => entry),
    boards,
    awards,
    voting: { ...voting, opensAtLocal: local(voting.votingOpensAt), closesAtLocal: local(voting.votingClosesAt) },
  };
}

/** Which section each form belongs to: its problems are shown there, and the page returns to it. */
const SECTIONS = {
  "class-save": "classes",
  "class-remove": "classes",
  "class-close": "classes",
  "class-reopen": "classes",
  "class-library-save": "classes",
  "class-library-add": "classes",
  "judge-add": "classes",
  "judge-remove": "classes",
  "entry-place": "entries",
  "entries-number": "entries",
  "award-give": "awards",
  "award-take-back": "awards",
  "voting-save": "voting",
  "voting-close": "voting",
  "results-publish": "voting",
  "results-unpublish": "voting",
  "category-add": "voting",
  "category-remove": "voting",
} as const;

type Intent = keyof typeof SECTIONS;

/** Organizers and admins change the show; each form's problems come back beside its fields. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const event = await showEventOf(db, eventId);
  if (!event) notFound();
  const form = await request.formData();
  const intent = intentOf(form) as Intent;
  if (!(intent in SECTIONS)) {
    return data({ intent: "", target: "", errors: { "": ["Choose something to do"] } }, { status: 400 });
  }
  const target = String(form.get("target") ?? "");
  const refused = (errors: Record<string, string[] | null | undefined>) =>
    data({ intent, target, errors }, { status: 400 });
  const answer = (outcome: ShowOutcome) =>
    outcome.ok
      ? redirectWithFlash(`/admin/events/${eventId}/show#${SECTIONS[intent]}`, {
          kind: "success",
          message: outcome.message,
        })
      : refused({ [outcome.field]: [outcome.message] });
  const base = { eventId, actorId: user.id, now: new Date() };

  switch (intent) {
    case "class-save": {
      const submission = parseWithZod(form, { schema: ClassSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await saveClass(db, { ...base, ...submission.value, classId: submission.value.classId ?? null }));
    }
    case "class-remove":
    case "class-close":
    case "class-reopen":
    case "class-library-save": {
      const submission = parseWithZod(form, { schema: ClassIdSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      const { classId } = submission.value;
      if (intent === "class-remove") return answer(await removeClass(db, { ...base, classId }));
      if (intent === "class-library-save") return answer(await saveClassToLibrary(db, { ...base, classId }));
      return answer(await setClassClosed(db, { ...base, classId, closed: intent === "class-close" }));
    }
    case "class-library-add": {
      const submission = parseWithZod(form, { schema: TemplateSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await addClassFromLibrary(db, { ...base, ...submission.value }));
    }
    case "judge-add": {
      const submission = parseWithZod(form, { schema: JudgeSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await addJudge(db, { ...base, ...submission.value }));
    }
    case "judge-remove": {
      const submission = parseWithZod(form, { schema: RemoveJudgeSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await removeJudge(db, { ...base, ...submission.value }));
    }
    case "entry-place": {
      const submission = parseWithZod(form, { schema: PlacementSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await placeEntry(db, { ...base, ...submission.value }));
    }
    case "entries-number":
      return answer(await numberCars(db, base));
    case "award-give": {
      const submission = parseWithZod(form, { schema: AwardSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await giveAward(db, { ...base, award: submission.value }));
    }
    case "award-take-back": {
      const submission = parseWithZod(form, { schema: AwardIdSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await takeBackAward(db, { ...base, ...submission.value }));
    }
    case "voting-save": {
      const submission = parseWithZod(form, { schema: votingSchema(event.timeZone) });
      if (submission.status !== "success") return refused(submission.error ?? {});
      await saveVoting(db, { ...base, ...submission.value });
      return answer({ ok: true, message: "Voting times are saved." });
    }
    case "voting-close":
      await closeVotingNow(db, base);
      return answer({ ok: true, message: "Voting is closed." });
    case "results-publish":
    case "results-unpublish": {
      const published = intent === "results-publish";
      await setResultsPublished(db, { ...base, published });
      return answer({ ok: true, message: published ? "The results are published." : "The results are taken down." });
    }
    case "category-add": {
      const submission = parseWithZod(form, { schema: CategorySchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await addCategory(db, { ...base, ...submission.value }));
    }
    case "category-remove": {
      const submission = parseWithZod(form, { schema: CategoryIdSchema });
      if (submission.status !== "success") return refused(submission.error ?? {});
      return answer(await removeCategory(db, { ...base, ...submission.value }));
    }
  }
}

export default function ShowTab({ loaderData, actionData }: Route.ComponentProps) {
  return <ShowSetup {...loaderData} reply={actionData ?? null} />;
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Show", recordTitle(matches, EVENT_LAYOUT));
