import { EyeOff } from "lucide-react";
import { carHistory } from "~/features/car-history/car-history.server";
import { CarTimeline } from "~/features/car-history/car-timeline";
import { HistoryChoices } from "~/features/car-history/history-choices";
import { isCarId } from "~/features/community/showcase.server";
import { CarForm } from "~/features/garage/car-form";
import { carLabel, getMyCar } from "~/features/garage/cars.server";
import { PhotoList } from "~/features/garage/photo-list";
import { PhotoUploads } from "~/features/garage/photo-uploads";
import { carFormDefaults } from "~/features/garage/schemas";
import { CAR_PHOTO_MAX_BYTES } from "~/features/media/car-photos.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { FormErrors } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { BackLink } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/edit";
import { editCarAction, garageCall } from "./garage-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const [car, history] = await Promise.all([
    getMyCar(db, user.id, params.carId),
    isCarId(params.carId) ? carHistory(db, { carId: params.carId, owner: true }) : [],
  ]);
  if (!car) notFound();
  const { photos, coverPhotoId, hidden, hiddenReason, likeCount, id, ...details } = car;
  return {
    car: { id, name: carLabel(car), hidden, hiddenReason, likeCount, visibility: car.visibility },
    defaults: carFormDefaults(details),
    photos,
    coverPhotoId,
    // Only the owner's own car reaches here: getMyCar found it under their id.
    history,
    limits: { maxPhotos: env.GARAGE_MAX_PHOTOS_PER_CAR, maxBytes: CAR_PHOTO_MAX_BYTES },
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  return editCarAction({ ...garageCall(context, user.id), carId: params.carId }, await readForm(request), url.pathname);
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function EditCar({ loaderData, actionData }: Route.ComponentProps) {
  const { car, defaults, photos, coverPhotoId, limits } = loaderData;
  // A photo form's refusal (a blur area outside the photo, an unknown photo) is shown above the photos.
  const photoError =
    actionData && actionData.intent !== "save"
      ? Object.values(actionData.result.error ?? {}).flatMap((errors) => errors ?? [])
      : undefined;
  return (
    <div className="space-y-10">
      <div>
        <BackLink to="/members/garage" label="My garage" />
        <h1 className="wide mt-2 text-3xl font-black sm:text-4xl">{car.name}</h1>
        {car.hidden ? (
          <Card className="mt-4 flex gap-3 p-4">
            <EyeOff aria-hidden className="mt-0.5 size-5 shrink-0" />
            <p>
              A moderator has hidden this car from everyone but you.
              {car.hiddenReason ? ` Their note: ${car.hiddenReason}` : ""}
            </p>
          </Card>
        ) : null}
      </div>
      <section id="photos" aria-labelledby="photos-title" className="space-y-5">
        <div>
          <h2 id="photos-title" className="wide text-2xl font-extrabold">
            Photos
          </h2>
          <p className="mt-1 text-muted">
            Up to {limits.maxPhotos}. Drag them or use the buttons to change their order; the cover leads the car's
            page.
          </p>
        </div>
        {photoError?.length ? <FormErrors id="photo-errors" errors={photoError} /> : null}
        <PhotoUploads carId={car.id} count={photos.length} maxPhotos={limits.maxPhotos} maxBytes={limits.maxBytes} />
        <PhotoList photos={photos} coverPhotoId={coverPhotoId} carName={car.name} />
      </section>
      <section aria-labelledby="details-title" className="space-y-5">
        <h2 id="details-title" className="wide text-2xl font-extrabold">
          Details
        </h2>
        <CarForm
          lastResult={actionData?.intent === "save" ? actionData.result : undefined}
          defaultValue={defaults}
          submitLabel="Save changes"
        />
      </section>
      <CarTimeline entries={loaderData.history} choices={(entry) => <HistoryChoices entry={entry} />} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: pageTitle(matches, loaderData?.car.name ?? "Car", "My garage", "Members") },
  { name: "robots", content: "noindex" },
];
