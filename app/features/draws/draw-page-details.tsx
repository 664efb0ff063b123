import { Gift, ShieldCheck, Trophy } from "lucide-react";
import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import { countOf, formatCount } from "~/ui/plural";
import { useSite } from "~/ui/site";
import { HeaderRow } from "~/ui/table";
import type { DrawPage } from "./catalogue.server";
import { oddsAtFullSale } from "./draw-rules";
import type { PrizeClaim } from "./results.server";

/**
 * The prize-draw page's parts below its photos and entry form: the description and rules, the
 * postal route, prize claims, instant wins and the result. In the server's HTML with the rest,
 * their code loaded after the page's (app/ui/later.ts). Claiming a prize is a plain POST form.
 */

/** What happens if too few entries sell; nothing to say when a single entry is enough to draw. */
function policyText(
  page: Pick<DrawPage, "undersoldPolicy" | "minEntries" | "extendDays" | "cashAlternative">,
  price: (n: number) => string,
) {
  if (page.minEntries <= 1) return null;
  const threshold = countOf(page.minEntries, "entry", "entries");
  if (page.undersoldPolicy === "extend") {
    return `If fewer than ${threshold} are sold by the closing time, the draw stays open ${countOf(page.extendDays, "more day", "more days")}, once; then it is drawn whatever the number.`;
  }
  if (page.undersoldPolicy === "refund") {
    return `If fewer than ${threshold} are sold by the closing time, the draw is cancelled and every paid entry is refunded.`;
  }
  return `If fewer than ${threshold} are sold by the closing time, the draw still goes ahead and the winner receives the cash alternative${page.cashAlternative ? ` of ${price(page.cashAlternative)}` : ""}.`;
}

/** Description, prize, value, cash alternative, odds and rules. */
export function DrawBody({ page }: { page: DrawPage }) {
  const { currency } = useSite();
  const price = (minor: number) => formatMoney(minor, currency);
  const policy = policyText(page, price);
  return (
    <div className="space-y-8">
      <dl className="grid gap-4 sm:grid-cols-3">
        <Card className="p-4">
          <dt className="text-sm text-muted">Prize value</dt>
          <dd className="wide tabular text-2xl font-black">{price(page.prizeValue)}</dd>
        </Card>
        <Card className="p-4">
          <dt className="text-sm text-muted">Cash alternative</dt>
          <dd className="wide tabular text-2xl font-black">
            {page.cashAlternative === null ? "None" : price(page.cashAlternative)}
          </dd>
        </Card>
        <Card className="p-4">
          <dt className="text-sm text-muted">Odds at full sale</dt>
          <dd className="wide tabular text-2xl font-black">{oddsAtFullSale(page.totalEntries)}</dd>
        </Card>
      </dl>
      {/* Markdown rendered on the server with raw HTML escaped. */}
      <div className="prose max-w-none" dangerouslySetInnerHTML={{ __html: page.descriptionHtml }} />
      <section aria-labelledby="draw-rules" className="space-y-3">
        <h2 id="draw-rules" className="wide text-xl font-extrabold">
          Rules
        </h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            {countOf(page.totalEntries, "entry", "entries")} in total; up to {formatCount(page.maxPerMember)} per
            person, however you enter.
          </li>
          <li>Entrants must be 18 or over and live in the UK. Paid entry needs a verified phone number.</li>
          <li>Answer the question correctly for your entries to count. Wrong answers are not refunded.</li>
          {policy ? <li>{policy}</li> : null}
          {page.instantWins ? (
            <li>
              {page.instantWins.count === 1 ? "One entry number wins" : `${page.instantWins.count} entry numbers win`} a
              prize instantly, shown to you at payment. The list was committed to when the draw opened and is published
              when it closes. Entries in draws with instant wins cannot be paid by credit card.
            </li>
          ) : null}
          <li>
            The winner is drawn from a seed committed to before the draw opened and a public value named in advance, so
            anyone can check it:{" "}
            <Link to={`/giveaways/${page.slug}/verify`} className="text-link underline">
              how this draw is checked
            </Link>
            .
          </li>
        </ul>
        {page.rulesHtml ? (
          <div className="prose max-w-none" dangerouslySetInnerHTML={{ __html: page.rulesHtml }} />
        ) : null}
      </section>
    </div>
  );
}

/** The free postal route, as prominent as paid entry (UK prize-draw rules). */
export function PostalRoute({ page }: { page: DrawPage }) {
  if (page.kind !== "competition") return null;
  return (
    <Card as="section" aria-labelledby="postal-route" className="space-y-2 p-5">
      <h2 id="postal-route" className="flex items-center gap-2 text-lg font-bold">
        <Gift aria-hidden className="size-5 text-accent-ink" />
        Enter free by post
      </h2>
      <p>
        You can enter this draw free by post, with the same chance of winning as a paid entry. Send your name, address,
        date of birth, phone number, the draw's title and your answer to the question on an unenclosed postcard
        {page.postalRoute ? ` to: ${page.postalRoute}` : ""}. One entry per postcard; postcards must arrive before the
        draw closes. Postal entries count towards the limit per person.
      </p>
    </Card>
  );
}

/** The winner's choice between the prize and its cash alternative: a plain form, no script needed. */
export function PrizeClaimForm({ claim, message }: { claim: PrizeClaim; message: string | null }) {
  const { currency } = useSite();
  const cash = formatMoney(claim.cashAlternative, currency);
  return (
    <Card as="section" aria-labelledby="claim" className="space-y-3 border-2 border-accent p-5 sm:p-6">
      <h2 id="claim" className="wide text-xl font-black">
        You won!
      </h2>
      {claim.choice ? (
        <p>
          You chose {claim.choice === "cash" ? `the cash alternative of ${cash}` : claim.prize}. We will be in touch to
          arrange it.
        </p>
      ) : (
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="claim" />
          <fieldset className="space-y-2">
            <legend className="font-semibold">Choose your prize</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="choice" value="prize" defaultChecked className="size-4 accent-accent" />{" "}
              {claim.prize}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="choice" value="cash" className="size-4 accent-accent" /> {cash} cash instead
            </label>
          </fieldset>
          {message ? (
            <p role="alert" className="font-semibold text-red-700 dark:text-red-400">
              {message}
            </p>
          ) : null}
          <button
            type="submit"
            className="flex h-12 w-full items-center justify-center rounded-full bg-accent font-bold text-on-accent hover:bg-accent-strong"
          >
            Claim my prize
          </button>
        </Form>
      )}
    </Card>
  );
}

/** Instant wins after close: each winning number, its prize and who won it. */
export function InstantWinList({ page }: { page: DrawPage }) {
  const revealed = page.instantWins?.revealed;
  if (!revealed) return null;
  return (
    <Card as="section" aria-labelledby="instant-wins" className="space-y-3 p-5 sm:p-6">
      <h2 id="instant-wins" className="wide text-xl font-extrabold">
        Instant wins
      </h2>
      <table className="w-full text-left text-sm">
        <thead>
          <HeaderRow
            className="border-b border-line"
            cellClassName="py-2"
            columns={[{ label: "Entry", className: "pr-3" }, { label: "Prize", className: "pr-3" }, "Won by"]}
          />
        </thead>
        <tbody>
          {revealed.map((win) => (
            <tr key={win.number} className="border-b border-line last:border-0">
              <td className="tabular py-2 pr-3 font-bold">{win.number}</td>
              <td className="py-2 pr-3">{win.prize}</td>
              <td className="py-2">{win.winner ?? "Not won"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="break-all text-sm text-muted">
        Commitment published at go-live: <code>{page.instantWins?.commitment}</code>; salt:{" "}
        <code>{page.instantWins?.salt}</code>.
      </p>
    </Card>
  );
}

/** After close: the answer, the entry list's hash and, once drawn, the winner and the proof. */
export function DrawResult({ page }: { page: DrawPage }) {
  if (page.phase !== "closed") return null;
  return (
    <Card as="section" aria-labelledby="result" className="space-y-3 p-5 sm:p-6">
      <h2 id="result" className="wide flex items-center gap-2 text-2xl font-black">
        <Trophy aria-hidden className="size-6 text-accent-ink" />
        {page.status === "drawn" ? "Result" : page.status === "cancelled" ? "Cancelled" : "Closed"}
      </h2>
      {page.status === "cancelled" ? (
        <p>{page.cancelReason ?? "This draw was cancelled."} Paid entries are refunded.</p>
      ) : null}
      {page.status === "drawn" ? (
        <p className="text-lg">
          {page.winner ? (
            <>
              Winning entry <strong className="tabular">{page.winner.number}</strong>
              {page.winner.name ? <>, {page.winner.name}</> : null}
              {page.cashPrize ? " (cash alternative)" : ""}.
            </>
          ) : (
            "No eligible entries: there is no winner."
          )}
        </p>
      ) : page.status === "closed" ? (
        <p>Entries are closed. The winner is drawn once the beacon ({page.beaconSource}) is known.</p>
      ) : null}
      {page.correctAnswer ? (
        <p>
          The answer was <strong>{page.correctAnswer}</strong>.
        </p>
      ) : null}
      {page.status === "closed" || page.status === "drawn" ? (
        <p>
          <Link to={`/giveaways/${page.slug}/entries`} className="font-semibold text-link underline">
            The entry list
          </Link>{" "}
          ({formatCount(page.eligibleCount ?? 0)} eligible entries)
        </p>
      ) : null}
      {page.status === "closed" || page.status === "drawn" ? (
        <p className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-5 text-accent-ink" />
          <Link to={`/giveaways/${page.slug}/verify`} className="font-semibold text-link underline">
            Check the draw yourself
          </Link>
        </p>
      ) : null}
    </Card>
  );
}
