import { Award, Flag, Trophy, Users } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card } from "~/ui/card";
import { formatDay } from "~/ui/day";
import { plural } from "~/ui/plural";
import type { ShowHistoryEntry } from "./car-history.server";

/** "1st", "2nd", "3rd", "11th". */
function ordinal(place: number) {
  const tens = place % 100;
  if (tens >= 11 && tens <= 13) return `${place}th`;
  return `${place}${{ 1: "st", 2: "nd", 3: "rd" }[place % 10] ?? "th"}`;
}

/**
 * A car's show history, latest show first: where it was shown, its class and place, awards and
 * People's Choice votes. `choices` adds the owner's forms to each show (`HistoryChoices`).
 */
export function CarTimeline({
  entries,
  choices,
  headingLevel = 2,
}: {
  entries: readonly ShowHistoryEntry[];
  /** The owner's forms for one show, on the garage page only: the public page ships none of their code. */
  choices?: (entry: ShowHistoryEntry) => ReactNode;
  headingLevel?: 2 | 3;
}) {
  const owner = choices !== undefined;
  if (entries.length === 0) return null;
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-labelledby="show-history" className="space-y-4">
      <Heading id="show-history" className="wide text-2xl font-extrabold">
        Show history
      </Heading>
      {owner ? (
        <p className="max-w-prose text-sm text-muted">
          Filled in from the shows this car was in. Hide a show from everyone but you, or show its judges&rsquo; score
          (hidden unless you choose).
        </p>
      ) : null}
      <ol className="space-y-3">
        {entries.map((entry) => (
          <li key={entry.applicationId}>
            <Card className={`space-y-2 p-4 ${entry.hidden ? "opacity-80" : ""}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-bold">
                  <Link to={`/events/${entry.event.slug}`} className="text-link underline">
                    {entry.event.title}
                  </Link>
                </p>
                <p className="text-sm text-muted">
                  <time dateTime={entry.event.startsAt.toISOString()}>
                    {formatDay(entry.event.startsAt, entry.event.timeZone)}
                  </time>
                  {entry.event.town ? ` · ${entry.event.town}` : ""}
                </p>
              </div>
              <ul className="space-y-1 text-sm">
                <li className="flex items-center gap-2">
                  <Flag aria-hidden className="size-4 shrink-0 text-muted" />
                  {entry.className ? `Shown in ${entry.className}` : "Shown"}
                  {entry.showNumber ? `, car ${entry.showNumber}` : ""}
                  {entry.place ? ` · ${ordinal(entry.place)} of ${entry.classSize}` : ""}
                  {entry.score !== null ? ` · ${entry.score.toFixed(2)} points` : ""}
                </li>
                {entry.awards.map((award) => (
                  <li key={award.id} className="flex items-center gap-2 font-semibold">
                    <Trophy aria-hidden className="size-4 shrink-0 text-accent-ink" />
                    {award.title}
                    {award.className ? ` (${award.className})` : ""}
                  </li>
                ))}
                {entry.votes.map((vote) => (
                  <li key={vote.category} className="flex items-center gap-2">
                    <Users aria-hidden className="size-4 shrink-0 text-muted" />
                    {vote.category}: {vote.votes} {plural(vote.votes, "vote", "votes")}, {ordinal(vote.place)}
                  </li>
                ))}
                {entry.published ? (
                  <li className="flex items-center gap-2">
                    <Award aria-hidden className="size-4 shrink-0 text-muted" />
                    <Link to={`/events/${entry.event.slug}/results`} className="text-link underline">
                      The show&rsquo;s results
                    </Link>
                  </li>
                ) : null}
              </ul>
              {choices?.(entry)}
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}
