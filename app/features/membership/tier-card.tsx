import { Check } from "lucide-react";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { FieldErrors } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { periodWords, priceUnit } from "./membership-labels";
import { COOLING_OFF_DAYS, REMINDER_DAYS } from "./membership-rules";
import type { PublicTier } from "./tiers.server";

/** A refused join, shown on the tier it was about. */
export type JoinRefusal = { tierId: string | null; message: string };

/**
 * One tier on the membership page: its price and period, what it gives, the key terms in one box
 * before the member pays (the subscription rules ask for them up front), and the Join form. A
 * plain form: it works without the page's scripts.
 */
export function TierCard({
  tier,
  currency,
  refusal,
}: {
  tier: PublicTier;
  currency: string;
  refusal: JoinRefusal | null;
}) {
  const headingId = `tier-${tier.id}`;
  const errorId = `${headingId}-error`;
  const full = tier.placesLeft === 0;
  const others = tier.people - 1;
  const price = formatMoney(tier.price, currency);
  const today = formatMoney(tier.joiningPrice, currency);
  return (
    <Card as="article" aria-labelledby={headingId} className="flex flex-col gap-5 p-6">
      <header className="space-y-2">
        <h2 id={headingId} className="wide text-2xl font-black">
          {tier.name}
        </h2>
        {tier.summary ? <p className="text-muted">{tier.summary}</p> : null}
        <p className="tabular text-3xl font-extrabold">
          {today}
          <span className="ml-1 text-base font-semibold text-muted">
            {tier.joiningPrice === tier.price ? priceUnit(tier) : `to join today, then ${price} ${priceUnit(tier)}`}
          </span>
        </p>
        {full ? (
          <Badge tone="neutral">Full</Badge>
        ) : tier.placesLeft !== null && tier.placesLeft <= 10 ? (
          <Badge tone="warning">
            {tier.placesLeft} {tier.placesLeft === 1 ? "place" : "places"} left
          </Badge>
        ) : null}
      </header>
      {tier.benefits.length > 0 ? (
        <ul className="space-y-2">
          {tier.benefits.map((benefit) => (
            <li key={benefit} className="flex items-start gap-2">
              <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-accent-ink" />
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-label={`Key terms of ${tier.name}`} className="rounded-xl bg-surface-sunken p-4 text-sm">
        <h3 className="font-bold">Key terms</h3>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
          <dt className="font-semibold">Price</dt>
          <dd>
            {price} {priceUnit(tier)}
            {tier.joiningPrice !== tier.price ? ` (${today} if you join today)` : ""}
          </dd>
          <dt className="font-semibold">Runs</dt>
          <dd>
            {periodWords(tier)}: joining today, until {tier.joiningUntil}
          </dd>
          <dt className="font-semibold">Renewal</dt>
          <dd>
            {tier.autoRenews
              ? `Renews by itself at the then price, charged to your saved card. We email you ${REMINDER_DAYS} days before each renewal with the price and the date.`
              : "Does not renew by itself: we remind you before it ends."}
          </dd>
          <dt className="font-semibold">Cancel</dt>
          <dd>
            {tier.autoRenews ? "Turn renewal off online at any time, in two clicks from your account. " : ""}
            {`Within ${COOLING_OFF_DAYS} days of joining or renewing you can cancel for a refund, less the days you have had.`}
          </dd>
        </dl>
      </section>
      <form method="post" className="mt-auto space-y-3" aria-describedby={refusal ? errorId : undefined}>
        <input type="hidden" name="tierId" value={tier.id} />
        {others > 0 ? (
          <fieldset className="space-y-2">
            <legend className="font-semibold">
              Who else it covers (up to {others} {others === 1 ? "person" : "people"}, optional)
            </legend>
            {Array.from({ length: others }, (_, index) => `${headingId}-person-${index}`).map((inputId, index) => (
              <div key={inputId} className="space-y-1">
                <label htmlFor={inputId} className="block text-sm font-semibold">
                  Person {index + 2}'s name
                </label>
                <input
                  id={inputId}
                  name="person"
                  maxLength={80}
                  autoComplete="off"
                  className="block w-full rounded-xl border border-line bg-surface px-3.5 py-2.5"
                />
              </div>
            ))}
          </fieldset>
        ) : null}
        <FieldErrors id={errorId} errors={refusal ? [refusal.message] : undefined} />
        <button
          type="submit"
          disabled={full}
          className="w-full rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {full ? "Full" : `Join ${tier.name}`}
        </button>
      </form>
    </Card>
  );
}
