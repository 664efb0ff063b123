import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { setCarLike } from "~/features/community/likes.server";
import { ReportSchema } from "~/features/community/report-schema";
import { reportCar } from "~/features/community/reports.server";
import { isCarId } from "~/features/community/showcase.server";
import { setCarFeatured } from "~/features/moderation/decisions.server";
import { FeatureSchema } from "~/features/moderation/schemas";
import { hasRole, requireUser } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { readForm } from "~/web/form-data.server";

const LikeSchema = z.object({ intent: z.enum(["like", "unlike"]) });

/**
 * The car page's forms: like and unlike (plain POST, or a fetcher), report, and for staff the
 * home-page feature toggle. Everyone must be signed in; a car the member cannot see is a 404.
 */
export async function carPageAction({
  request,
  context,
  url,
  carId,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
  url: URL;
  carId: string;
}) {
  const user = requireUser({ context, url });
  if (!isCarId(carId)) notFound();
  const { db } = context.get(runtimeContext);
  const viewer = { id: user.id, role: user.role };
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "").slice(0, 20);
  const here = `/community/cars/${carId}`;

  if (intent === "like" || intent === "unlike") {
    const like = LikeSchema.parse({ intent });
    const outcome = await setCarLike(db, viewer, { carId, like: like.intent === "like" });
    if (!outcome.ok) {
      if (outcome.reason === "not-found") notFound();
      return data({ like: { message: outcome.message } }, { status: 400 });
    }
    // A script's fetcher takes the new count; a plain form goes back to the page.
    if (formData.get("reply") === "data") return { like: { liked: outcome.liked, likeCount: outcome.likeCount } };
    throw redirect(`${here}#likes`, 303);
  }

  if (intent === "report") {
    const submission = parseWithZod(formData, { schema: ReportSchema });
    if (submission.status !== "success") {
      return data({ report: submission.reply() }, { status: 400 });
    }
    const { photoId, reason, note } = submission.value;
    const outcome = await reportCar(db, viewer, { carId, photoId, reason, note });
    if (!outcome.ok) {
      if (outcome.reason === "not-found" && !outcome.field) notFound();
      const reply = outcome.field
        ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } })
        : submission.reply({ formErrors: [outcome.message] });
      return data({ report: reply }, { status: 400 });
    }
    return redirectWithFlash(here, {
      kind: "success",
      message: outcome.alreadyReported
        ? "You have already reported this; the moderators will look at it."
        : "Thank you: the moderators will look at your report.",
    });
  }

  if (intent === "feature") {
    if (!hasRole(user, "organizer")) throw data("You do not have access to this page", { status: 403 });
    const submission = parseWithZod(formData, { schema: FeatureSchema });
    if (submission.status !== "success") return data({ feature: submission.reply() }, { status: 400 });
    const outcome = await setCarFeatured(db, {
      actorId: user.id,
      carId,
      featured: submission.value.featured === "on",
      ip: context.get(requestContext).ip,
    });
    if (!outcome.ok) return data({ feature: submission.reply({ formErrors: [outcome.message] }) }, { status: 400 });
    return redirectWithFlash(here, { kind: "success", message: outcome.message });
  }

  throw data("This form is not one the page knows. Reload the page and try again.", { status: 400 });
}
