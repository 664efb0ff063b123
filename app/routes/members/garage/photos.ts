import { redirect } from "react-router";
import { getMyCar } from "~/features/garage/cars.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/photos";
import { garageCall, uploadCarPhotos } from "./garage-forms.server";

// Where a car's photos are uploaded: one file per request from the uploader (which shows each
// file's progress and reads the JSON answer), or several at once from the plain form without
// JavaScript, which is sent back to the car's page with a message. The server's body limits let
// bodies of up to 16 MB through to this path (app/server/http/body-limits.server.ts).

function signedInMember(args: { context: Route.ActionArgs["context"]; url: URL }) {
  const user = requireUser(args);
  if (!user.onboarded) throw redirect("/newProfile");
  return user;
}

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = signedInMember({ context, url });
  const car = await getMyCar(context.get(runtimeContext).db, user.id, params.carId);
  if (!car) notFound();
  throw redirect(`/members/garage/${car.id}#photos`);
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = signedInMember({ context, url });
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const outcomes = await uploadCarPhotos(
    { ...garageCall(context, user.id), carId: params.carId },
    await readForm(request),
  );
  const added = outcomes.filter((outcome) => outcome.ok).length;
  const refused = outcomes.filter((outcome) => !outcome.ok);
  if (wantsJson) {
    const status = refused.length === 0 ? 200 : added > 0 ? 207 : (refused[0] as { status: number }).status;
    // 503: the image workers were full; the uploader sends the same file again after a pause.
    const headers = new Headers({ "Cache-Control": "private, no-store" });
    if (status === 503) headers.set("Retry-After", "10");
    return Response.json({ added, outcomes }, { status, headers });
  }
  const here = `/members/garage/${params.carId}#photos`;
  const addedText = added === 0 ? "" : `${countOf(added, "photo", "photos")} added.`;
  const refusedText = refused.map((outcome) => (outcome.ok ? "" : outcome.message)).join(" ");
  if (refused.length === 0) return redirectWithFlash(here, { kind: "success", message: addedText });
  return redirectWithFlash(here, { kind: "error", message: `${addedText} ${refusedText}`.trim() });
}
