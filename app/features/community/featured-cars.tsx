import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { CarTiles } from "./car-tile";
import type { CarTileData } from "./showcase.server";

/** Members' cars the club's staff picked, on the home page (docs/community.md). */
export function FeaturedCars({ cars }: { cars: CarTileData[] }) {
  if (cars.length === 0) return null;
  return (
    <section aria-labelledby="discover-pg" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6 md:py-20">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-bold uppercase tracking-[0.25em] text-accent-ink">From the community</p>
          <h2 id="discover-pg" className="wide mt-1 text-2xl font-extrabold sm:text-3xl">
            Members' cars
          </h2>
        </div>
        <Link to="/community" className="inline-flex items-center gap-1 font-semibold text-link underline">
          See every car <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      <CarTiles cars={cars} />
    </section>
  );
}
