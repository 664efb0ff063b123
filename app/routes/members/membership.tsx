import { IdCard } from "lucide-react";
import { data, Form, Link } from "react-router";
import { queueRefunds } from "~/features/checkout/payment-jobs.server";
import { membershipDate } from "~/features/membership/membership-labels";
import { MembershipStateBadge } from "~/features/membership/membership-state-badge";
import { coolingOffQuote, myMembership, setRenewal } from "~/features/membership/memberships.server";
import { renewalSchema } from "~/features/membership/schemas";
import { refundEmail, refundNoticeOf } from "~/features/orders/refund-email.server";
import { refundOrder } from "~/features/selling/selling.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { getLog } from "~/server/log.server";
import { Card } from "~/ui/card";
import { FieldErrors, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { pageTitle } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/membership";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db } = context.get(runtimeContext);
  const now = new Date();
  const membership = await myMembership(db, user.id, now);
  const quote = membership ? await coolingOffQuote(db, user.id, now) : null;
  // ?confirm=… asks before renewal is turned off or the membership cancelled: the second click.
  const confirm = url.searchParams.get("confirm");
  return {
    membership,
    coolingOff: quote ? { refund: quote.refundPence, used: quote.valueUsedPence, until: quote.until } : null,
    confirmStop: confirm === "stop",
    confirmCancel: confirm === "cancel",
  };
}

/** Turn renewal off (the membership runs to its paid end) or back on. */
export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, env, payments } = context.get(runtimeContext);
  const parsed = renewalSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Reload the page" }, { status: 400 });
  if (parsed.data.intent === "cancel-membership") return cancelInCoolingOff(context, user.id);
  const renews = parsed.data.intent === "resume-renewal";
  const outcome = await setRenewal(db, { userId: user.id, renews, now: new Date(), billing: payments?.billing });
  if (!outcome.ok) return data({ error: outcome.message }, { status: 400 });
  const until = membershipDate(outcome.paidUntil, env.TIME_ZONE);
  return redirectWithFlash("/members/membership", {
    kind: "success",
    message: renews
      ? `Renewal is back on: ${outcome.tier} renews on ${until}.`
      : `Renewal is off. Your ${outcome.tier} membership runs until ${until} and will not be charged again.`,
  });
}

/**
 * Cancelling within the 14 days after joining or a renewal: the payment for the current period is
 * refunded less the days already had, the membership ends now, and the refund is sent.
 */
async function cancelInCoolingOff(context: Route.ActionArgs["context"], userId: string) {
  const { db, env, jobs, outbox } = context.get(runtimeContext);
  const now = new Date();
  const quote = await coolingOffQuote(db, userId, now);
  if (!quote) {
    return data({ error: "The 14 days to cancel for a refund are over: turn renewal off instead" }, { status: 400 });
  }
  const reason = "Cancelled by the member within the cooling-off period";
  const outcome = await refundOrder(db, {
    orderId: quote.orderId,
    items: [{ orderItemId: quote.orderItemId, quantity: 1 }],
    actorId: userId,
    reason,
    now,
    keepBack: { amount: quote.valueUsedPence, description: "Less the days already had" },
  });
  if (!outcome.ok) return data({ error: outcome.problem }, { status: 409 });
  await queueRefunds(jobs).catch((error: unknown) =>
    getLog().warn({ err: error }, "could not queue the refund job; its sweep will send the refund"),
  );
  await outbox.sendEmail(
    refundEmail({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, refundNoticeOf(outcome, reason)),
  );

  return redirectWithFlash("/members/membership", {
    kind: "success",
    message: `Your membership is cancelled. ${formatMoney(outcome.amount, outcome.currency)} is on its way back to your card.`,
  });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function MyMembershipPage({ loaderData, actionData }: Route.ComponentProps) {
  const { membership, confirmStop, confirmCancel, coolingOff } = loaderData;
  const { currency, timeZone } = useSite();
  const date = (value: Date | string) => membershipDate(value, timeZone);
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <h1 className="wide text-3xl font-black sm:text-4xl">Membership</h1>
      </header>
      {!membership ? (
        <Card variant="empty" className="p-8">
          <p className="font-semibold">You are not a member yet.</p>
          <p className="mt-1 text-muted">Members get a card for the gate, member prices and early tickets.</p>
          <Link to="/membership" className="mt-4 inline-block font-bold text-link underline">
            See the membership tiers
          </Link>
        </Card>
      ) : (
        <Card className="space-y-5 p-6">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="wide text-2xl font-extrabold">{membership.tierName}</h2>
            <MembershipStateBadge state={membership.state} />
          </div>
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold">Paid until</dt>
            <dd>{date(membership.paidUntil)}</dd>
            {membership.people.length > 0 ? (
              <>
                <dt className="font-semibold">Also covers</dt>
                <dd>{membership.people.join(", ")}</dd>
              </>
            ) : null}
            <dt className="font-semibold">Renewal</dt>
            <dd>
              {membership.renews && membership.renewalPrice !== null
                ? `Renews on ${date(membership.paidUntil)} for ${formatMoney(membership.renewalPrice, currency)}. We email you before it does.`
                : membership.state === "active"
                  ? `Off: your membership ends on ${date(membership.paidUntil)}.`
                  : "Off"}
            </dd>
            {membership.lapsesAt ? (
              <>
                <dt className="font-semibold">Lapses</dt>
                <dd>{`On ${date(membership.lapsesAt)} unless the renewal is paid`}</dd>
              </>
            ) : null}
          </dl>
          {membership.state === "active" || membership.state === "grace" ? (
            <Link
              to="/members/card"
              className="inline-flex items-center gap-2 rounded-full bg-accent px-5 py-3 font-bold text-on-accent"
            >
              <IdCard aria-hidden className="size-5" /> Show my member card
            </Link>
          ) : (
            <Link to="/membership" className="inline-block font-bold text-link underline">
              Join again
            </Link>
          )}
          <RenewalControls membership={membership} confirmStop={confirmStop} error={actionData?.error ?? null} />
          {coolingOff ? (
            <section aria-labelledby="cancel-title" className="space-y-3 border-t border-line pt-5">
              <h2 id="cancel-title" className="text-lg font-bold">
                Cancel for a refund
              </h2>
              <p>
                {`Until ${date(coolingOff.until)} you can cancel and get ${formatMoney(coolingOff.refund, currency)} back`}
                {coolingOff.used > 0
                  ? ` (${formatMoney(coolingOff.used, currency)} is kept for the days you have had)`
                  : ""}
                . Your membership and card stop at once.
              </p>
              {confirmCancel ? (
                <div className="flex flex-wrap gap-3 rounded-xl bg-surface-sunken p-4">
                  <Form method="post">
                    <input type="hidden" name="intent" value="cancel-membership" />
                    <SubmitButton fit pendingLabel="Cancelling…">
                      Yes, cancel and refund {formatMoney(coolingOff.refund, currency)}
                    </SubmitButton>
                  </Form>
                  <Link
                    to="/members/membership"
                    className="inline-flex items-center px-4 font-semibold text-link underline"
                  >
                    Keep my membership
                  </Link>
                </div>
              ) : (
                <Link
                  to="/members/membership?confirm=cancel"
                  className="inline-flex rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
                >
                  Cancel my membership
                </Link>
              )}
            </section>
          ) : null}
        </Card>
      )}
    </div>
  );
}

function RenewalControls({
  membership,
  confirmStop,
  error,
}: {
  membership: NonNullable<Route.ComponentProps["loaderData"]["membership"]>;
  confirmStop: boolean;
  error: string | null;
}) {
  const live = membership.state === "active" || membership.state === "grace";
  if (!live || !membership.tierRenews) return null;
  return (
    <section aria-labelledby="renewal-title" className="space-y-3 border-t border-line pt-5">
      <h2 id="renewal-title" className="text-lg font-bold">
        Renewal
      </h2>
      <FieldErrors id="renewal-error" errors={error ? [error] : undefined} />
      {!membership.renews ? (
        <Form method="post">
          <input type="hidden" name="intent" value="resume-renewal" />
          <SubmitButton fit pendingLabel="Turning on…">
            Turn renewal back on
          </SubmitButton>
        </Form>
      ) : confirmStop ? (
        <div className="space-y-3 rounded-xl bg-surface-sunken p-4">
          <p>Turn renewal off? You keep everything until your paid time ends, and you will not be charged again.</p>
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="stop-renewal" />
              <SubmitButton fit pendingLabel="Turning off…">
                Yes, turn renewal off
              </SubmitButton>
            </Form>
            <Link to="/members/membership" className="inline-flex items-center px-4 font-semibold text-link underline">
              Keep renewing
            </Link>
          </div>
        </div>
      ) : (
        <Link
          to="/members/membership?confirm=stop"
          className="inline-flex rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
        >
          Turn off renewal
        </Link>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Membership", "Members") }];
