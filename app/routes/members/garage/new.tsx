import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { CarForm } from "~/features/garage/car-form";
import { requireUser } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createCarAction } from "./garage-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireUser({ context, url });
  return null;
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  return createCarAction({ db, storage, ownerId: user.id, ip }, await readForm(request));
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function NewCar({ actionData }: Route.ComponentProps) {
  return (
    <div>
      <Link
        to="/members/garage"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> My garage
      </Link>
      <h1 className="wide mt-2 text-3xl font-black sm:text-4xl">Add a car</h1>
      <p className="mt-2 max-w-prose text-muted">Its details first; photos come next, on the car's own page.</p>
      <div className="mt-8">
        <CarForm
          lastResult={actionData?.result}
          defaultValue={{ visibility: "private" }}
          submitLabel="Save and add photos"
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Add a car", "Members") },
  { name: "robots", content: "noindex" },
];
