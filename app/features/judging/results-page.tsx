import { Trophy } from "lucide-react";
import { CarPicture } from "~/features/media/car-picture";
import { Card } from "~/ui/card";
import { countOf } from "~/ui/plural";
import type { ResultsPage } from "./results.server";
import { TallyCheckForm } from "./tally-check";

function carName(car: { showNumber: number | null; label: string }) {
  return car.showNumber === null ? car.label : `Car ${car.showNumber}: ${car.label}`;
}

/** A place as read out: 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st. */
function ordinal(place: number) {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][place % 10] ?? "th");
  return `${place}${suffix}`;
}

/**
 * A show's published results: the awards (Best in Show and named trophies first), each class's
 * placings, and People's Choice with the tally's proof and the ballot check.
 */
export function ResultsPageView({ page }: { page: ResultsPage }) {
  const base = `/events/${page.event.slug}/results`;
  const choice = page.peoplesChoice;
  return (
    <main id="main" className="mx-auto max-w-[1200px] space-y-12 px-4 py-10 sm:px-6 md:py-14">
      <header className="space-y-3">
        <p className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
          <a href={`/events/${page.event.slug}`} className="text-link underline">
            {page.event.title}
          </a>
        </p>
        <h1 className="wide text-3xl font-black sm:text-4xl">Show results</h1>
        {page.preview ? (
          <p role="status" className="rounded-xl border border-line bg-surface-sunken p-3 font-semibold">
            Preview — not published. Only organizers and admins see this page until the results are published.
          </p>
        ) : null}
      </header>

      <section aria-labelledby="awards-heading" className="space-y-5">
        <h2 id="awards-heading" className="wide text-2xl font-extrabold">
          Awards
        </h2>
        {page.awards.length === 0 ? (
          <Card variant="empty" className="p-6">
            No awards have been given yet.
          </Card>
        ) : (
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {page.awards.map((award) => (
              <Card as="li" key={award.id} className="overflow-hidden">
                {award.car.cover ? (
                  <CarPicture
                    photo={award.car.cover}
                    alt={award.car.cover.alt}
                    layout="tile"
                    className="aspect-video w-full object-cover"
                  />
                ) : null}
                <div className="space-y-1 p-4">
                  <h3 className="flex items-center gap-2 text-lg font-bold">
                    <Trophy aria-hidden className="size-5 text-accent-ink" /> {award.title}
                  </h3>
                  {award.className ? <p className="text-sm text-muted">{award.className}</p> : null}
                  <p className="font-semibold">{carName(award.car)}</p>
                </div>
              </Card>
            ))}
          </ul>
        )}
      </section>

      {page.classes.length > 0 ? (
        <section aria-labelledby="classes-heading" className="space-y-5">
          <h2 id="classes-heading" className="wide text-2xl font-extrabold">
            Classes
          </h2>
          <div className="grid gap-5 md:grid-cols-2">
            {page.classes.map((showClass) => (
              <Card as="section" key={showClass.id} aria-labelledby={`class-${showClass.id}`} className="space-y-3 p-5">
                <h3 id={`class-${showClass.id}`} className="text-lg font-bold">
                  {showClass.name}
                </h3>
                {showClass.standings.length === 0 ? (
                  <p className="text-muted">No cars in this class.</p>
                ) : (
                  <ol className="divide-y divide-line">
                    {showClass.standings.map((car) => (
                      <li key={car.applicationId} className="flex items-baseline gap-3 py-2">
                        <span className="w-12 shrink-0 font-bold tabular-nums">
                          {car.place === null ? "–" : ordinal(car.place)}
                        </span>
                        <span className="min-w-0 flex-1">
                          {carName(car)}
                          {car.tied ? <span className="text-sm text-muted"> (tied)</span> : null}
                        </span>
                        {page.showScores && car.score !== null ? (
                          <span className="font-semibold tabular-nums">{car.score.toFixed(2)}</span>
                        ) : null}
                      </li>
                    ))}
                  </ol>
                )}
              </Card>
            ))}
          </div>
        </section>
      ) : null}

      {choice ? (
        <section aria-labelledby="choice-heading" className="space-y-5">
          <h2 id="choice-heading" className="wide text-2xl font-extrabold">
            People's Choice
          </h2>
          {!choice.tally ? (
            <p>
              {choice.state === "closed" || !choice.closesLabel
                ? "The votes are counted when voting closes."
                : `Voting closes ${choice.closesLabel}; the votes are counted then.`}
            </p>
          ) : (
            <>
              <p>
                {countOf(choice.tally.ballots, "ballot", "ballots")} counted when voting closed. Each ballot is on the
                published list under its id alone, never who cast it.
              </p>
              <div className="grid gap-5 md:grid-cols-2">
                {choice.tally.categories.map((category) => (
                  <Card
                    as="section"
                    key={category.slug}
                    aria-labelledby={`vote-${category.slug}`}
                    className="space-y-3 p-5"
                  >
                    <h3 id={`vote-${category.slug}`} className="text-lg font-bold">
                      {category.name}
                    </h3>
                    {category.cars.length === 0 ? (
                      <p className="text-muted">No votes.</p>
                    ) : (
                      <ol className="divide-y divide-line">
                        {category.cars.map((car) => (
                          <li key={car.car} className="flex items-baseline gap-3 py-2">
                            <span className="min-w-0 flex-1">
                              Car {car.car}: {car.label}
                            </span>
                            <span className="font-semibold tabular-nums">{countOf(car.votes, "vote", "votes")}</span>
                          </li>
                        ))}
                      </ol>
                    )}
                  </Card>
                ))}
              </div>
              <Card
                as="section"
                id="check"
                aria-labelledby="check-heading"
                className="scroll-mt-24 space-y-4 p-5 sm:p-6"
              >
                <h3 id="check-heading" className="text-lg font-bold">
                  Check your ballot
                </h3>
                <dl className="space-y-1">
                  <dt className="font-semibold">Commitment (SHA-256 of the ballot list), fixed when voting closed</dt>
                  <dd className="break-all font-mono text-sm">{choice.tally.commitment}</dd>
                </dl>
                <p className="text-sm text-muted">
                  The{" "}
                  <a href={`${base}/ballots.txt`} className="text-link underline">
                    ballot list
                  </a>{" "}
                  has a line per ballot: its id, the category and the car's number. Its SHA-256 is the commitment above,
                  and its count is the totals on this page. Enter the ballot id your vote page showed: your browser
                  loads the list and checks all three.
                </p>
                <TallyCheckForm
                  action={`${base}#check`}
                  listUrl={`${base}/ballots.txt`}
                  commitment={choice.tally.commitment}
                  totals={choice.tally.totals}
                  categoryNames={Object.fromEntries(
                    choice.tally.categories.map((category) => [category.slug, category.name]),
                  )}
                  initial={page.check}
                />
              </Card>
            </>
          )}
        </section>
      ) : null}
    </main>
  );
}
