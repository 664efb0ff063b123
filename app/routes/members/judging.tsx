import { data } from "react-router";
import { JudgingScreen, type MarkingReply } from "~/features/judging/judging-screen";
import { judgingSheet, saveMarks } from "~/features/judging/marking.server";
import { MARK_FIELD_PREFIX, marksFormOf } from "~/features/judging/marking-schemas";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { requireJudge } from "~/web/judge.server";
import type { Route } from "./+types/judging";

/**
 * A judge's phone page (docs/car-shows.md): the classes they judge at this event, their cars by
 * show number, and the marking form for the car found by its number or its windscreen QR.
 */
export async function loader(args: Route.LoaderArgs) {
  const { user, eventId } = await requireJudge(args);
  const { db } = args.context.get(runtimeContext);
  const sheet = await judgingSheet(db, { eventId, userId: user.id });
  if (!sheet) notFound();
  return {
    sheet,
    title: sheet.title,
    car: args.url.searchParams.get("car")?.slice(0, 64) ?? null,
    number: args.url.searchParams.get("number")?.slice(0, 8) ?? null,
  };
}

/** The marking form as a browser without script sends it; with script the page sends JSON to the sync address. */
export async function action(args: Route.ActionArgs) {
  const { user, eventId } = await requireJudge(args);
  const { db } = args.context.get(runtimeContext);
  const form = await args.request.formData();
  const now = new Date();
  const applicationId = String(form.get("applicationId") ?? "").slice(0, 64);
  // What was typed comes back with any refusal, so nothing is lost.
  const values: Record<string, string> = {};
  for (const [name, value] of form) {
    if (name.startsWith(MARK_FIELD_PREFIX) && typeof value === "string") {
      values[name.slice(MARK_FIELD_PREFIX.length)] = value.slice(0, 20);
    }
  }
  const parsed = marksFormOf(form, now);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const reply: MarkingReply = {
      problem: {
        applicationId,
        field: issue.path[0] === "applicationId" ? "applicationId" : "",
        message: issue.message,
      },
      values,
    };
    return data(reply, { status: 400 });
  }
  const outcome = await saveMarks(db, {
    eventId,
    judgeId: user.id,
    applicationId: parsed.data.applicationId,
    marks: parsed.data.marks,
    savedAt: parsed.data.savedAt ?? now,
    now,
  });
  if (!outcome.ok) {
    const reply: MarkingReply = {
      problem: { applicationId, field: outcome.field, message: outcome.message },
      values,
    };
    return data(reply, { status: outcome.status });
  }
  const reply: MarkingReply = { saved: { applicationId, outcome: outcome.outcome, message: outcome.message } };
  return reply;
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function JudgingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sheet, title, car, number } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.16em] text-muted">Judging</p>
        <h1 className="wide text-3xl font-black sm:text-4xl">{title}</h1>
      </div>
      <JudgingScreen sheet={sheet} car={car} number={number} actionData={actionData} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: pageTitle(matches, loaderData ? `Judging: ${loaderData.title}` : "Judging") },
];
