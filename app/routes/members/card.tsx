import { Link } from "react-router";
import { Avatar } from "~/features/accounts/avatar";
import { membershipDate } from "~/features/membership/membership-labels";
import { memberCard } from "~/features/membership/memberships.server";
import { qrSvg } from "~/features/tickets/qr.server";
import { walletsOn } from "~/features/wallet/passes.server";
import { WalletButtons } from "~/features/wallet/wallet-buttons";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { pageTitle } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/card";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const card = await memberCard(db, { userId: user.id, now, secret: env.AUTH_SECRET });
  return {
    holder: { name: user.name, image: user.image ?? null },
    card: card ? { ...card, qrSvg: card.qrPayload ? await qrSvg(card.qrPayload) : null, qrPayload: undefined } : null,
    wallets: walletsOn(env),
    // Written out here, so the page the browser keeps says when it was drawn in the club's words.
    drawnAt: { iso: now.toISOString(), label: drawnAtLabel(now, env.TIME_ZONE) },
  };
}

/** "3 December 2026 at 20:30" in the club's time zone. */
function drawnAtLabel(date: Date, timeZone: string) {
  const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(date);
  return `${membershipDate(date, timeZone)} at ${time}`;
}

// Never stored by the browser's or a shared HTTP cache. The service worker keeps its own copy of
// this page for use offline, deliberately (app/sw/service-worker.ts).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const STATE_WORDS: Record<string, string> = {
  active: "Valid",
  grace: "Valid: renewal not paid yet",
  lapsed: "Lapsed",
  ended: "Ended",
};

/** The member card: who, which tier, valid until, and the QR the gate scans. Prints on one page. */
export default function MemberCardPage({ loaderData }: Route.ComponentProps) {
  const { holder, card, drawnAt, wallets } = loaderData;
  const { name: site, timeZone } = useSite();
  if (!card) {
    return (
      <div className="space-y-6">
        <h1 className="wide text-3xl font-black sm:text-4xl">Member card</h1>
        <Card variant="empty" className="p-8">
          <p className="font-semibold">You are not a member yet, so there is no card to show.</p>
          <Link to="/membership" className="mt-3 inline-block font-bold text-link underline">
            Join the club
          </Link>
        </Card>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <h1 className="wide text-3xl font-black sm:text-4xl print:sr-only">Member card</h1>
      <article
        aria-label={`${site} member card`}
        className="mx-auto max-w-md overflow-hidden rounded-3xl border border-line bg-surface-raised shadow-sm print:shadow-none"
      >
        <div className="dark-band flex items-center gap-4 bg-asphalt-950 p-5 text-white">
          <Avatar image={holder.image} name={holder.name} size="md" alt="" />
          <div className="min-w-0">
            <p className="text-xs font-bold uppercase tracking-[0.18em] text-asphalt-300">{site} member</p>
            <p className="wide truncate text-xl font-extrabold">{holder.name}</p>
            <p className="text-sm text-asphalt-200">{card.tierName}</p>
          </div>
        </div>
        <div className="space-y-4 p-5">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Status</dt>
            <dd className={card.valid ? "font-bold text-emerald-800 dark:text-emerald-300" : "font-bold"}>
              {STATE_WORDS[card.state]}
            </dd>
            <dt className="font-semibold">{card.valid ? "Valid until" : "Since"}</dt>
            <dd>{membershipDate(card.validUntil, timeZone)}</dd>
            {card.people.length > 0 ? (
              <>
                <dt className="font-semibold">Also covers</dt>
                <dd>{card.people.join(", ")}</dd>
              </>
            ) : null}
          </dl>
          {card.qrSvg ? (
            <div className="flex flex-col items-center gap-2">
              <div
                role="img"
                aria-label="QR code of your member card"
                className="size-56 rounded-lg bg-white p-1"
                dangerouslySetInnerHTML={{ __html: card.qrSvg }}
              />
              <p className="text-center font-mono text-xs tracking-wider tabular">
                <span className="sr-only">Card code </span>
                {card.code}
              </p>
              <p className="text-center text-sm text-muted">
                {card.admitsToMembersEvents
                  ? "Show this at the gate of members' events."
                  : "Show this at the gate to prove you are a member."}
              </p>
              <div className="print:hidden">
                <WalletButtons base="/members/card" wallets={wallets} />
              </div>
            </div>
          ) : (
            <p className="rounded-xl bg-surface-sunken p-4 text-sm">
              This membership has {card.state === "lapsed" ? "lapsed" : "ended"}.{" "}
              <Link to="/membership" className="font-bold text-link underline">
                Join again
              </Link>{" "}
              for a new card.
            </p>
          )}
          {/* Hidden here; the copy the service worker keeps on the phone shows it (app/sw/member-card.ts). */}
          <p
            data-saved-card-note=""
            hidden
            className="rounded-xl bg-surface-sunken p-3 text-center text-sm print:hidden"
          >
            Saved on this phone: last updated <time dateTime={drawnAt.iso}>{drawnAt.label}</time>
          </p>
        </div>
      </article>
      <p className="text-center text-sm text-muted print:hidden">
        Print this page for a paper card, or keep it open on your phone.
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Member card", "Members") }];
