import { data } from "react-router";
import { renewalLinkMembership, stopRenewalByLink } from "~/features/membership/renewals.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { pageTitle } from "~/ui/page-title";
import type { PageHandle } from "~/ui/site";
import type { Route } from "./+types/renewal-link";

/**
 * The reminder email's "Turn off renewal": the link is signed for one membership, so no sign-in
 * is needed; the page asks once (a link alone never changes anything: mail scanners open links).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const membership = await renewalLinkMembership(db, { token: params.token, secret: env.AUTH_SECRET });
  return { membership };
}

export async function action({ context, params }: Route.ActionArgs) {
  const { db, env, payments } = context.get(runtimeContext);
  const outcome = await stopRenewalByLink(db, {
    token: params.token,
    secret: env.AUTH_SECRET,
    now: new Date(),
    billing: payments?.billing,
  });
  return data(outcome, { status: outcome.ok ? 200 : 400 });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const handle: PageHandle = { hydrate: false };

export default function RenewalLink({ loaderData, actionData }: Route.ComponentProps) {
  const { membership } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-14 sm:px-6">
      <h1 className="wide text-3xl font-black sm:text-4xl">Membership renewal</h1>
      <Card className="mt-8 space-y-4 p-6">
        {actionData?.ok ? (
          <p role="status" className="font-semibold">
            Renewal is off. Your {actionData.tierName} membership runs until {actionData.until} and will not be charged
            again.
          </p>
        ) : actionData ? (
          <p role="alert" className="font-semibold text-red-700 dark:text-red-300">
            {actionData.message}
          </p>
        ) : !membership ? (
          <p>This link is not valid, or the membership has ended. You can manage renewal from your account.</p>
        ) : !membership.renews ? (
          <p>Renewal of your {membership.tierName} membership is already off.</p>
        ) : (
          <form method="post" className="space-y-4">
            <p>Turn off renewal of your {membership.tierName} membership? You keep it until its paid time ends.</p>
            <button type="submit" className="rounded-full bg-accent px-6 py-3 font-bold text-on-accent">
              Turn off renewal
            </button>
          </form>
        )}
        <p className="text-sm text-muted">
          <a href="/members/membership" className="text-link underline">
            Manage your membership
          </a>
        </p>
      </Card>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Membership renewal") },
  { name: "robots", content: "noindex" },
];
