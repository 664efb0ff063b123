import { CarFront, EyeOff, Heart, Images, Pencil, Trash2 } from "lucide-react";
import { Form, Link } from "react-router";
import { CarPicture } from "~/features/media/car-picture";
import { Badge, type BadgeTone } from "~/ui/badge";
import { inputClass, SubmitButton } from "~/ui/form";
import { countOf } from "~/ui/plural";
import type { CarVisibility } from "../../../db/schema/garage";
import type { GarageCar } from "./cars.server";
import { VISIBILITY_NAMES } from "./schemas";

const VISIBILITY_TONES: Record<CarVisibility, BadgeTone> = {
  public: "success",
  members: "neutral",
  private: "quiet",
};

/** A car in "My garage": cover, name, who sees it, likes, and its edit, visibility and delete controls. */
export function GarageCarCard({ car }: { car: GarageCar }) {
  const name = `${car.year} ${car.make} ${car.model}`;
  const headingId = `car-${car.id}-name`;
  return (
    <li aria-labelledby={headingId} className="overflow-hidden rounded-2xl border border-line bg-surface-raised">
      <div className="aspect-video overflow-hidden bg-surface-sunken">
        {car.cover ? (
          <CarPicture
            photo={car.cover}
            layout="tile"
            alt={car.cover.alt || `${name}, cover photo`}
            className="size-full object-cover"
          />
        ) : (
          <div className="grid size-full place-items-center text-muted">
            <CarFront aria-hidden className="size-12" />
            <span className="sr-only">No photos yet</span>
          </div>
        )}
      </div>
      <div className="space-y-3 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={VISIBILITY_TONES[car.visibility]}>{VISIBILITY_NAMES[car.visibility]}</Badge>
          {car.hidden ? (
            <Badge tone="danger">
              <EyeOff aria-hidden className="mr-1 inline size-3.5" />
              Hidden by a moderator
            </Badge>
          ) : null}
        </div>
        <h2 id={headingId} className="wide text-xl font-extrabold">
          {name}
        </h2>
        {car.variant ? <p className="text-muted">{car.variant}</p> : null}
        <p className="flex gap-4 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <Heart aria-hidden className="size-4" /> {countOf(car.likeCount, "like", "likes")}
          </span>
          <span className="inline-flex items-center gap-1">
            <Images aria-hidden className="size-4" /> {countOf(car.photoCount, "photo", "photos")}
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Link
            to={`/members/garage/${car.id}`}
            aria-label={`Edit ${name}`}
            className="inline-flex items-center gap-1.5 rounded-full bg-surface-sunken px-4 py-2 font-semibold hover:bg-line"
          >
            <Pencil aria-hidden className="size-4" /> Edit
          </Link>
          <Form method="post" className="flex items-center gap-2">
            <input type="hidden" name="intent" value="visibility" />
            <input type="hidden" name="carId" value={car.id} />
            <label htmlFor={`visibility-${car.id}`} className="sr-only">
              Who can see {name}
            </label>
            <select
              id={`visibility-${car.id}`}
              name="visibility"
              defaultValue={car.visibility}
              className={`${inputClass(false)} h-10 w-auto py-1`}
            >
              {(Object.keys(VISIBILITY_NAMES) as CarVisibility[]).map((value) => (
                <option key={value} value={value}>
                  {VISIBILITY_NAMES[value]}
                </option>
              ))}
            </select>
            <button
              type="submit"
              className="rounded-full px-3 py-2 text-sm font-semibold text-link underline"
              aria-label={`Change who can see ${name}`}
            >
              Change
            </button>
          </Form>
        </div>
        <details className="group">
          <summary className="inline-flex cursor-pointer items-center gap-1.5 text-sm font-semibold text-red-700 dark:text-red-300">
            <Trash2 aria-hidden className="size-4" /> Delete…
          </summary>
          <Form method="post" className="mt-3 space-y-3 rounded-xl bg-surface-sunken p-4">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="carId" value={car.id} />
            <p className="text-sm">
              Delete {name} with its {countOf(car.photoCount, "photo", "photos")} and likes? This cannot be undone.
            </p>
            <SubmitButton variant="danger" intent="delete" fit pendingLabel="Deleting…">
              Delete {name}
            </SubmitButton>
          </Form>
        </details>
      </div>
    </li>
  );
}
