import { Trophy } from "lucide-react";
import { Link } from "react-router";
import { Card } from "~/ui/card";
import { plural } from "~/ui/plural";
import type { MyDrawEntries } from "./catalogue.server";

const STATUS = {
  draft: "Not open",
  live: "Open",
  closed: "Closed: awaiting the draw",
  drawn: "Drawn",
  cancelled: "Cancelled: refunded",
} as const;

/** "My entries" in the members' area: each draw entered, its numbers, and how it ended. */
export function MyEntries({ draws }: { draws: MyDrawEntries[] }) {
  if (draws.length === 0) return null;
  return (
    <section aria-labelledby="entries-title" className="space-y-4">
      <h2 id="entries-title" className="wide text-xl font-extrabold">
        My entries
      </h2>
      <Card as="ul" variant="list">
        {draws.map((draw) => (
          <li key={draw.slug} className="flex flex-wrap items-start justify-between gap-3 p-4">
            <div className="min-w-0">
              <Link to={`/giveaways/${draw.slug}`} className="font-bold text-link underline">
                {draw.title}
              </Link>
              <p className="tabular mt-1 break-words">
                {plural(draw.numbers.length, "Number", "Numbers")} {draw.numbers.join(", ")}
              </p>
            </div>
            <p className="flex items-center gap-2 text-sm font-semibold">
              {draw.won ? (
                <>
                  <Trophy aria-hidden className="size-4 text-accent-ink" /> You won
                </>
              ) : draw.status === "drawn" ? (
                "Drawn: not a winner this time"
              ) : (
                STATUS[draw.status]
              )}
            </p>
          </li>
        ))}
      </Card>
    </section>
  );
}
