import { data } from "react-router";
import { addMembershipToCart } from "~/features/membership/cart-membership.server";
import { joinSchema } from "~/features/membership/schemas";
import { type JoinRefusal, TierCard } from "~/features/membership/tier-card";
import { tiersOnSale } from "~/features/membership/tiers.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { linkPreviewMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { PageHandle } from "~/ui/site";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/tiers";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  return { tiers: await tiersOnSale(db, new Date()), pageUrl: `${env.SITE_URL}/membership` };
}

/**
 * Join: puts the tier in the member's cart and goes to it. Joining needs an account, so a visitor
 * is sent to sign in (or create one) and comes back here.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { db } = context.get(runtimeContext);
  const user = context.get(userContext);
  const form = await readForm(request);
  const parsed = joinSchema.safeParse({
    tierId: form.get("tierId"),
    people: form.getAll("person").filter((value) => typeof value === "string"),
  });
  const tierId = typeof form.get("tierId") === "string" ? String(form.get("tierId")) : null;
  if (!parsed.success) {
    return data({ tierId, message: parsed.error.issues[0]?.message ?? "Check the form" } satisfies JoinRefusal, {
      status: 400,
    });
  }
  if (!user) {
    return redirectWithFlash(`/login?redirectTo=${encodeURIComponent("/membership")}`, {
      kind: "info",
      message: "Sign in, or create an account, to join: your membership and card live in your account.",
    });
  }
  const added = await addMembershipToCart(db, { userId: user.id, ...parsed.data, now: new Date() });
  if (!added.ok) return data({ tierId, message: added.problem.message } satisfies JoinRefusal, { status: 400 });
  return redirectWithFlash("/cart", {
    kind: "success",
    message: `${added.tierName} membership is in your cart: pay to join.`,
  });
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

/** Plain forms and text: the page needs none of the app's scripts. */
export const handle: PageHandle = { hydrate: false };

export default function Membership({ loaderData, actionData }: Route.ComponentProps) {
  const { tiers } = loaderData;
  const { currency, name } = useSite();
  const refusal = (actionData as JoinRefusal | undefined) ?? null;
  return (
    <main id="main" className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-14">
      <header className="max-w-2xl space-y-3">
        <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-ink">Membership</p>
        <h1 className="wide text-4xl font-black leading-tight sm:text-5xl">Join {name}</h1>
        <p className="text-lg leading-relaxed text-muted">
          Members keep the club going. Pick a tier, pay once, and your member card is in your account straight away:
          show it at the gate.
        </p>
      </header>
      {refusal && !tiers.some((tier) => tier.id === refusal.tierId) ? (
        <p role="alert" className="mt-6 font-semibold text-red-700 dark:text-red-300">
          {refusal.message}
        </p>
      ) : null}
      {tiers.length === 0 ? (
        <Card variant="empty" className="mt-10 p-10">
          <p className="font-semibold">Membership is not open at the moment.</p>
          <p className="mt-1 text-muted">Check back soon, or follow the club's events in the meantime.</p>
        </Card>
      ) : (
        <div className="mt-10 grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {tiers.map((tier) => (
            <TierCard
              key={tier.id}
              tier={tier}
              currency={currency}
              refusal={refusal?.tierId === tier.id ? refusal : null}
            />
          ))}
        </div>
      )}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteNameOf(matches);
  const description = `Join ${site}: membership tiers, prices and what members get.`;
  return [
    { title: pageTitle(matches, "Membership") },
    { name: "description", content: description },
    ...(data
      ? linkPreviewMeta({
          url: data.pageUrl,
          title: `Membership of ${site}`,
          description,
          type: "website",
          site,
          image: null,
        })
      : []),
  ];
};
