import { CarForm } from "~/features/garage/car-form";
import { requireUser } from "~/server/auth/session.server";
import { pageTitle } from "~/ui/page-title";
import { BackLink } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createCarAction, garageCall } from "./garage-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireUser({ context, url });
  return null;
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  return createCarAction(garageCall(context, user.id), await readForm(request));
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function NewCar({ actionData }: Route.ComponentProps) {
  return (
    <div>
      <BackLink to="/members/garage" label="My garage" />
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
