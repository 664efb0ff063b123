import { CarPicture } from "~/features/media/car-picture";
import { Card } from "~/ui/card";
import { PlainFieldErrors } from "~/ui/plain-field-errors";
import type { VotePage } from "./voting.server";

// Plain markup and a plain form: the page behind a windscreen QR is opened on a phone in a field,
// often on a poor signal, and must vote before (or without) any JavaScript.
const button = "inline-flex min-h-12 items-center justify-center rounded-full px-6 text-base font-bold";

export type VoteErrors = { form?: string[]; ticketId?: string[]; categoryId?: string[] };

const STATE_NOTE = {
  not_open: "Voting has not opened yet: come back to this car during the show.",
  closed: "Voting has closed.",
} as const;

/**
 * A car's People's Choice page: the car, and for a member holding tickets to the show a button
 * per category. Their current ballots are listed with their ids, which the results page checks.
 */
export function VotePageView({
  page,
  signInHref,
  resultsHref,
  errors,
}: {
  page: VotePage;
  /** Where a visitor signs in; null when signed in. */
  signInHref: string | null;
  resultsHref: string;
  errors?: VoteErrors;
}) {
  const { car, categories, voting, tickets } = page;
  const usable = tickets.filter((ticket) => ticket.problem === null);
  const chosen = usable[0] ?? tickets[0];
  return (
    <main id="main" className="mx-auto max-w-[720px] space-y-8 px-4 py-8 sm:px-6 md:py-12">
      <header className="space-y-2">
        <p className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
          People's Choice ·{" "}
          <a href={`/events/${page.event.slug}`} className="text-link underline">
            {page.event.title}
          </a>
        </p>
        <h1 className="wide text-3xl font-black sm:text-4xl">
          <span className="tabular-nums">Car {car.showNumber}</span>: {car.label}
        </h1>
        {car.className ? <p className="text-muted">Class: {car.className}</p> : null}
      </header>
      {car.cover ? (
        <CarPicture photo={car.cover} alt={car.cover.alt} layout="gallery" priority className="w-full rounded-2xl" />
      ) : null}

      <Card as="section" aria-labelledby="vote-heading" className="space-y-5 p-5 sm:p-6">
        <h2 id="vote-heading" className="text-xl font-bold">
          Vote for car {car.showNumber}
        </h2>
        {voting.state !== "open" ? (
          <p className="font-semibold">
            {STATE_NOTE[voting.state]}{" "}
            {page.resultsPublished ? (
              <a href={resultsHref} className="text-link underline">
                See the results
              </a>
            ) : null}
          </p>
        ) : null}
        {categories.length === 0 ? <p className="text-muted">This show has no People's Choice vote.</p> : null}
        {signInHref ? (
          <p>
            <a href={signInHref} className={`${button} bg-accent text-on-accent hover:bg-accent-strong`}>
              Sign in to vote
            </a>
            <span className="mt-2 block text-sm text-muted">
              Each ticket checked in at the show votes once in each category, and you can change your vote until voting
              closes.
            </span>
          </p>
        ) : tickets.length === 0 ? (
          <p>
            Only ticket holders checked in at the show can vote, and you hold no ticket for it.{" "}
            <a href={`/events/${page.event.slug}#tickets`} className="text-link underline">
              Tickets
            </a>
          </p>
        ) : voting.state === "open" && categories.length > 0 ? (
          <form method="post" className="space-y-5" aria-describedby={errors?.form ? "vote-form-error" : undefined}>
            <div role="alert">
              <PlainFieldErrors id="vote-form-error" errors={errors?.form} />
            </div>
            {tickets.length === 1 ? (
              <>
                <input type="hidden" name="ticketId" value={tickets[0]!.id} />
                {tickets[0]!.problem ? <p className="font-semibold">{tickets[0]!.problem}</p> : null}
              </>
            ) : (
              <fieldset className="space-y-2" aria-describedby={errors?.ticketId ? "vote-ticket-error" : undefined}>
                <legend className="font-semibold">Which ticket votes</legend>
                {tickets.map((ticket) => (
                  <label key={ticket.id} className="flex min-h-11 items-start gap-3 rounded-xl border border-line p-3">
                    <input
                      type="radio"
                      name="ticketId"
                      value={ticket.id}
                      defaultChecked={ticket.id === chosen?.id}
                      className="mt-1 size-5"
                    />
                    <span>
                      <span className="block font-semibold">{ticket.label}</span>
                      {ticket.problem ? <span className="block text-sm text-muted">{ticket.problem}</span> : null}
                    </span>
                  </label>
                ))}
                <PlainFieldErrors id="vote-ticket-error" errors={errors?.ticketId} />
              </fieldset>
            )}
            <ul className="space-y-4">
              {categories.map((category) => {
                const current = chosen?.ballots[category.id];
                return (
                  <li key={category.id} className="space-y-1.5">
                    <button
                      type="submit"
                      name="categoryId"
                      value={category.id}
                      className={`${button} w-full bg-accent text-on-accent hover:bg-accent-strong sm:w-auto`}
                    >
                      {category.name}: vote for car {car.showNumber}
                    </button>
                    {current && tickets.length === 1 ? (
                      <p className="text-sm">
                        {current.thisCar
                          ? "Your vote: this car."
                          : `Your vote: car ${current.showNumber} — change it by voting here.`}
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
            <PlainFieldErrors id="vote-category-error" errors={errors?.categoryId} />
          </form>
        ) : null}
      </Card>

      {tickets.some((ticket) => Object.keys(ticket.ballots).length > 0) ? (
        <section aria-labelledby="ballots-heading" className="space-y-3">
          <h2 id="ballots-heading" className="text-xl font-bold">
            Your ballots
          </h2>
          <p className="text-sm text-muted">
            Keep a ballot's id: when voting closes the full list of ballots is published, and with the id you can check
            yours was counted for the car you chose.
          </p>
          <ul className="divide-y divide-line rounded-xl border border-line">
            {tickets.flatMap((ticket) =>
              categories
                .filter((category) => ticket.ballots[category.id])
                .map((category) => {
                  const ballot = ticket.ballots[category.id]!;
                  return (
                    <li key={`${ticket.id}-${category.id}`} className="space-y-1 p-3">
                      <p>
                        {tickets.length > 1 ? `${ticket.label} · ` : ""}
                        {category.name}: <span className="font-semibold">car {ballot.showNumber}</span>
                        {ballot.thisCar ? " (this car)" : ` (${ballot.label})`}
                      </p>
                      <p className="text-sm">
                        Ballot id <code className="break-all font-mono">{ballot.id}</code>{" "}
                        <a href={`${resultsHref}?ballot=${ballot.id}#check`} className="text-link underline">
                          Check it in the results
                        </a>
                      </p>
                    </li>
                  );
                }),
            )}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
