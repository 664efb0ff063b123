import { CarFront, EyeOff, Heart, Trophy } from "lucide-react";
import { Link } from "react-router";
import { CarPicture } from "~/features/media/car-picture";
import { plural } from "~/ui/plural";
import { photoAlt } from "./car-photo-alt";
import type { CarTileData } from "./showcase.server";

export function carTitle(car: { year: number; make: string; model: string }) {
  return `${car.year} ${car.make} ${car.model}`;
}

/** A car in the community grid: cover, its latest award, year make model, owner and likes. */
function CarTile({ car, priority = false }: { car: CarTileData; priority?: boolean }) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-surface-raised transition hover:-translate-y-0.5 hover:border-accent">
      <div className="relative aspect-[4/3] overflow-hidden bg-asphalt-900">
        {car.cover ? (
          <CarPicture
            photo={car.cover}
            alt={photoAlt(car, car.cover, 0)}
            layout="tile"
            priority={priority}
            className="size-full object-cover"
          />
        ) : (
          <div className="grid size-full place-items-center text-asphalt-400">
            <CarFront aria-hidden className="size-12" />
          </div>
        )}
        {car.hidden || car.visibility !== "public" ? (
          <span className="absolute left-3 top-3 inline-flex items-center gap-1 rounded-full bg-asphalt-950/85 px-3 py-1 text-xs font-bold text-white">
            <EyeOff aria-hidden className="size-3.5" />
            {car.hidden ? "Hidden by moderators" : car.visibility === "members" ? "Members only" : "Only you"}
          </span>
        ) : null}
        {car.awards.length > 0 ? (
          <span className="absolute bottom-3 left-3 inline-flex max-w-[calc(100%-1.5rem)] items-center gap-1 rounded-full bg-accent px-3 py-1 text-xs font-bold text-on-accent">
            <Trophy aria-hidden className="size-3.5 shrink-0" />
            <span className="truncate">{car.awards[car.awards.length - 1]}</span>
            {car.awards.length > 1 ? (
              <span>
                {" "}
                +{car.awards.length - 1}
                <span className="sr-only"> more {plural(car.awards.length - 1, "award", "awards")}</span>
              </span>
            ) : null}
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="text-lg font-bold leading-tight">
          <Link to={`/community/cars/${car.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {carTitle(car)}
          </Link>
        </h3>
        {car.variant ? <p className="text-sm text-muted">{car.variant}</p> : null}
        <div className="mt-auto flex items-center justify-between pt-3 text-sm">
          <span className="truncate text-muted">{car.ownerHandle ? `@${car.ownerHandle}` : car.ownerName}</span>
          <span className="tabular inline-flex items-center gap-1 font-semibold">
            <Heart aria-hidden className={`size-4 ${car.likedByMe ? "fill-accent text-accent-ink" : "text-muted"}`} />
            <span>
              {car.likeCount}
              <span className="sr-only"> {plural(car.likeCount, "like", "likes")}</span>
            </span>
          </span>
        </div>
      </div>
    </article>
  );
}

export function CarTiles({ cars, firstPriority = false }: { cars: CarTileData[]; firstPriority?: boolean }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {cars.map((car, index) => (
        <li key={car.id}>
          <CarTile car={car} priority={firstPriority && index === 0} />
        </li>
      ))}
    </ul>
  );
}
