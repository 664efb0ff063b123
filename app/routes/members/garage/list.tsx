import { CarFront, Plus } from "lucide-react";
import { Link } from "react-router";
import { listMyCars } from "~/features/garage/cars.server";
import { GarageCarCard } from "~/features/garage/garage-car-card";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/list";
import { garageCall, garageListAction } from "./garage-forms.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db } = context.get(runtimeContext);
  return { cars: await listMyCars(db, user.id) };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  return garageListAction(garageCall(context, user.id), await readForm(request));
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function Garage({ loaderData }: Route.ComponentProps) {
  const { cars } = loaderData;
  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="wide text-3xl font-black sm:text-4xl">My garage</h1>
          <p className="mt-1 text-muted">Your cars, their photos and who can see them.</p>
        </div>
        <Link
          to="/members/newGarage"
          className="inline-flex items-center gap-2 rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
        >
          <Plus aria-hidden className="size-5" /> Add a car
        </Link>
      </header>
      {cars.length === 0 ? (
        <Card variant="empty" className="p-10">
          <CarFront aria-hidden className="mx-auto size-10 text-muted" />
          <p className="mt-3 text-lg font-semibold">
            No cars yet —{" "}
            <Link to="/members/newGarage" className="text-link underline">
              add your first car
            </Link>
          </p>
        </Card>
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2" aria-label="My cars">
          {cars.map((car) => (
            <GarageCarCard key={car.id} car={car} />
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "My garage", "Members") },
  { name: "robots", content: "noindex" },
];
