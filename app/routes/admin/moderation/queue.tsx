import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { decideOnCar, setCarFeatured } from "~/features/moderation/decisions.server";
import { FeaturedCars, ModerationCarCard } from "~/features/moderation/moderation-parts";
import { featuredList, moderationQueue } from "~/features/moderation/queue.server";
import { DecisionSchema, FeatureSchema } from "~/features/moderation/schemas";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import type { Route } from "./+types/queue";
import { carPhotoFilesDeleter } from "./photo-files.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  const [queue, featured] = await Promise.all([moderationQueue(db), featuredList(db)]);
  return { queue, featured };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env, storage, outbox } = context.get(runtimeContext);
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw data("The form could not be read. Reload the page and try again.", { status: 400 });
  }
  const ip = context.get(requestContext).ip;
  if (formData.get("intent") === "feature") {
    const submission = parseWithZod(formData, { schema: FeatureSchema });
    if (submission.status !== "success") return data({ feature: submission.reply() }, { status: 400 });
    const { carId, featured } = submission.value;
    const outcome = await setCarFeatured(db, { actorId: user.id, carId, featured: featured === "on", ip });
    return redirectWithFlash(url.pathname, { kind: outcome.ok ? "success" : "error", message: outcome.message });
  }
  const submission = parseWithZod(formData, { schema: DecisionSchema });
  const target = String(formData.get("photoId") || formData.get("carId") || "").slice(0, 40);
  if (submission.status !== "success")
    return data({ decision: { target, result: submission.reply() } }, { status: 400 });
  const outcome = await decideOnCar(
    db,
    { ...submission.value, actorId: user.id, ip },
    { brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, deletePhotoFiles: carPhotoFilesDeleter(storage) },
  );
  if (!outcome.ok) {
    const reply = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } })
      : submission.reply({ formErrors: [outcome.message] });
    return data({ decision: { target, result: reply } }, { status: 400 });
  }
  if (outcome.email) await outbox.sendEmail(outcome.email);
  return redirectWithFlash(url.pathname, { kind: "success", message: outcome.message });
}

export default function ModerationQueue({ loaderData, actionData }: Route.ComponentProps) {
  const { queue, featured } = loaderData;
  const last = actionData && "decision" in actionData ? actionData.decision : undefined;
  return (
    <div className="mx-auto max-w-[1100px] space-y-8">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Community</p>
        <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Moderation</h1>
        <p className="mt-2 max-w-prose text-muted">
          Cars and photos members reported, and what is hidden. Hiding takes effect on every page at once; removing
          deletes the photo or the car for good. The owner gets your note by email, and every decision is in the audit
          log.
        </p>
      </div>
      <FeaturedCars cars={featured} />
      {queue.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-10 text-center text-muted">
          Nothing to review: no open reports and nothing hidden.
        </p>
      ) : (
        queue.map((car) => <ModerationCarCard key={car.id} car={car} last={last} />)
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Moderation");
