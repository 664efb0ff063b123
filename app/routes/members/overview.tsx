import { ClipboardCheck, Download, KeyRound, Mail, ScanLine, Settings, Smartphone, UserRound } from "lucide-react";
import { Avatar } from "~/features/accounts/avatar";
import { getAccountOverview } from "~/features/accounts/overview.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { myEntries } from "~/features/draws/catalogue.server";
import { MyEntries } from "~/features/draws/my-entries";
import { gateDutiesOf } from "~/features/gate/gate-staff.server";
import { judgingDutiesOf } from "~/features/judging/marking.server";
import { movesAwaitingPayment } from "~/features/moves/moves.server";
import { buyLabel, offerTitle } from "~/features/waiting-lists/my-waiting-lists";
import { waitingListsOfMember } from "~/features/waiting-lists/waiting-lists.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/overview";
import { listOf, QuickLink, StatusCard, WaitingForYou } from "./overview-cards";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const [overview, entries, lists, moves, duties, judging] = await Promise.all([
    getAccountOverview(db, user.id),
    myEntries(db, user.id),
    waitingListsOfMember(db, user.id, now, env.TIME_ZONE),
    movesAwaitingPayment(db, user.id, now),
    gateDutiesOf(db, user.id, now),
    judgingDutiesOf(db, user.id, now),
  ]);
  if (!overview) notFound("Your account could not be found");
  // What is held for the member right now and ends if they do nothing: shown first.
  const waiting = [
    ...lists.flatMap((list) =>
      list.offer
        ? [
            {
              key: list.id,
              title: offerTitle(list),
              text: `Held for you from the waiting list until ${list.offer.endsLabel}.`,
              action: { to: `/members/offers/${list.id}`, label: buyLabel(list) },
            },
          ]
        : [],
    ),
    ...moves.map((move) => ({
      key: move.orderId,
      title: `Your booking moved to ${move.description}`,
      text: `${move.toPay} to pay by ${move.payBy}, when the new places are released.`,
      action: { to: `/transactions/${move.orderId}`, label: `Pay ${move.toPay}` },
    })),
  ];
  const gateDuties = duties.map((duty) => ({
    eventId: duty.eventId,
    title: duty.title,
    text: `${duty.role === "supervisor" ? "Supervisor" : "Steward"} · ${formatEventInstant(duty.startsAt, duty.timeZone)}`,
  }));
  const judgingDuties = judging.map((duty) => ({
    eventId: duty.eventId,
    title: duty.title,
    text: `${duty.classes.join(", ")} · ${formatEventInstant(duty.startsAt, duty.timeZone)}`,
  }));
  return { overview, entries, waiting, gateDuties, judgingDuties };
}

const since = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { overview } = loaderData;
  const { profile } = overview;
  return (
    <div className="space-y-10">
      <header className="flex flex-wrap items-center gap-5">
        <Avatar image={overview.image} name={overview.name} size="lg" alt="" />
        <div className="min-w-0">
          <h1 className="wide text-3xl font-black sm:text-4xl">Hi, {overview.name.split(" ")[0]}</h1>
          <p className="mt-1 text-muted">
            {overview.handle ? <span className="font-semibold text-text">@{overview.handle}</span> : null}
            {overview.handle ? " · " : null}Member since {since.format(new Date(overview.memberSince))}
          </p>
        </div>
      </header>

      <WaitingForYou items={loaderData.waiting} />

      <section aria-labelledby="status-title" className="space-y-4">
        <h2 id="status-title" className="wide text-xl font-extrabold">
          Your account
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <StatusCard
            icon={Mail}
            title="Email"
            done={overview.emailVerified}
            doneText="Confirmed"
            todoText="Not confirmed yet: open the link we emailed you."
          />
          <StatusCard
            icon={Smartphone}
            title="Phone"
            done={overview.phoneVerified}
            doneText="Verified"
            todoText="Paid prize draws need a verified phone."
            action={overview.phoneVerified ? undefined : { to: "/verifyPhone", label: "Verify your phone" }}
          />
          <StatusCard
            icon={UserRound}
            title="Profile"
            done={profile.missing.length === 0}
            doneText="Complete"
            todoText={`${profile.filled} of ${profile.total} details. Add ${listOf(profile.missing)}.`}
            action={profile.missing.length ? { to: "/settings#profile", label: "Complete your profile" } : undefined}
          >
            <div aria-hidden="true" className="mt-3 h-1.5 overflow-hidden rounded-full bg-surface-sunken">
              <div
                className="h-full rounded-full bg-accent"
                style={{ width: `${(profile.filled / profile.total) * 100}%` }}
              />
            </div>
          </StatusCard>
        </ul>
      </section>

      <MyEntries draws={loaderData.entries} />

      {loaderData.gateDuties.length > 0 ? (
        <section aria-labelledby="gate-title" className="space-y-4">
          <h2 id="gate-title" className="wide text-xl font-extrabold">
            Gate duty
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {loaderData.gateDuties.map((duty) => (
              <QuickLink
                key={duty.eventId}
                to={`/members/gate/${duty.eventId}`}
                icon={ScanLine}
                label={duty.title}
                text={duty.text}
              />
            ))}
          </ul>
        </section>
      ) : null}

      {loaderData.judgingDuties.length > 0 ? (
        <section aria-labelledby="judging-title" className="space-y-4">
          <h2 id="judging-title" className="wide text-xl font-extrabold">
            Judging
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {loaderData.judgingDuties.map((duty) => (
              <QuickLink
                key={duty.eventId}
                to={`/members/judging/${duty.eventId}`}
                icon={ClipboardCheck}
                label={duty.title}
                text={duty.text}
              />
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="links-title" className="space-y-4">
        <h2 id="links-title" className="wide text-xl font-extrabold">
          Quick links
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          <QuickLink to="/settings" icon={Settings} label="Settings" text="Profile, email, sign-in and emails" />
          <QuickLink
            to="/changePassword"
            icon={KeyRound}
            label="Change your password"
            text="Signs out your other devices"
          />
          <QuickLink
            to="/settings#my-data"
            icon={Download}
            label="Your data"
            text="Download it, or delete your account"
          />
        </ul>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My account" }, { name: "robots", content: "noindex" }];
