import { Card } from "~/ui/card";
import { countOf } from "~/ui/plural";
import type { CreditView } from "./credit-view.server";

/**
 * The member's account credit: what they can spend, what runs out when, and the ledger; each
 * line's order by its reference (PL-000123), which the route writes.
 */
export function CreditSection({
  credit,
}: {
  credit: Omit<CreditView, "lines"> & { lines: (CreditView["lines"][number] & { order: string | null })[] };
}) {
  return (
    <section aria-labelledby="credit-title" className="space-y-3">
      <h2 id="credit-title" className="wide text-xl font-extrabold">
        Account credit
      </h2>
      <Card className="space-y-2 p-4">
        <p>
          <span className="text-2xl font-black tabular">{credit.available}</span>{" "}
          <span className="text-muted">to spend: it pays first the next time you check out.</span>
        </p>
        {credit.expiring.length > 0 ? (
          <div>
            <p className="text-sm font-semibold">
              {countOf(credit.expiring.length, "amount runs out", "amounts run out")} unless spent:
            </p>
            <ul className="text-sm text-muted">
              {credit.expiring.map((grant) => (
                <li key={`${grant.when}-${grant.amount}`}>
                  <span className="tabular">{grant.amount}</span> on {grant.when}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
      <ul aria-label="Account credit history" className="divide-y divide-line rounded-2xl border border-line">
        {credit.lines.map((line) => (
          <li key={line.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-4">
            <span>
              <span className="font-semibold">{line.label}</span>
              {line.order ? <span className="tabular"> · {line.order}</span> : null}
              <span className="text-muted"> · {line.when}</span>
              <span className="block text-sm text-muted">
                {line.reason}
                {line.expires ? ` · runs out ${line.expires}` : ""}
              </span>
            </span>
            <span className="font-bold tabular">{line.amount}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
