import { ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** What the public /responsible-play page needs from the site's configuration. */
export type ResponsiblePlayFacts = {
  siteName: string;
  complaintsEmail: string;
  creditCardCap: string;
};

function Measure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="rounded-2xl border border-line bg-surface p-5">
      <h3 className="font-bold">{title}</h3>
      <div className="mt-1 text-muted">{children}</div>
    </li>
  );
}

const link = "font-semibold text-text underline";

/** Every measure the club takes for its prize draws, where to find help, and how to complain. */
export function ResponsiblePlayPage({ facts }: { facts: ResponsiblePlayFacts }) {
  return (
    <main id="main" className="mx-auto max-w-[1200px] space-y-12 px-4 py-12 sm:px-6 sm:py-16">
      <header className="max-w-[70ch] space-y-3">
        <h1 className="wide text-3xl font-extrabold sm:text-4xl">Responsible play</h1>
        <p className="text-lg text-muted">
          {facts.siteName} runs prize draws (paid competitions and free giveaways) following the UK's voluntary code of
          good practice for prize draw operators. This is what we do to keep them safe and fair, and how to reach us if
          something goes wrong.
        </p>
      </header>

      <section aria-labelledby="measures" className="space-y-4">
        <h2 id="measures" className="wide text-2xl font-extrabold">
          How we protect players
        </h2>
        <ul className="grid gap-4 md:grid-cols-2">
          <Measure title="18 or over only">
            Every entrant needs an account with a date of birth showing they are 18 or over, and confirms it with each
            entry.
          </Measure>
          <Measure title="A verified phone number">
            Paid competitions are open only to members who have verified their phone number with a code we text them.
          </Measure>
          <Measure title="Spending limits, including £0">
            Set a weekly or monthly limit on what you spend on entries in{" "}
            <Link to="/settings/responsiblePlay" className={link}>
              your settings
            </Link>
            , or offered when you join. A limit of £0 stops paid entries altogether. A lower limit applies at once; a
            higher one, or removing one, only after 24 hours. Payment is refused if it would take you over.
          </Measure>
          <Measure title="Take a break">
            A cool-off of 24 hours, 7 days or 30 days stops every entry, paid or free, until it ends. It cannot be ended
            early, only made longer.
          </Measure>
          <Measure title="Self-exclusion">
            Exclude yourself from all our prize draws for 6 months, 1 year or 5 years. It cannot be undone or shortened
            by you or by us.
          </Measure>
          <Measure title="Free entry by post">
            Every paid competition can be entered free by post, with the same chance of winning as a paid entry. Each
            competition's page says how.
          </Measure>
          <Measure title="Odds on every draw">
            Every draw's page shows the chance of one entry winning when every entry is sold, the number of entries, the
            limit per person and the closing time.
          </Measure>
          <Measure title="Credit cards">
            A credit card can pay for at most {facts.creditCardCap} of entries a calendar month, and never for a draw
            with instant wins: such a payment is refunded at once. Debit cards are not capped.
          </Measure>
          <Measure title="Winners drawn in the open">
            Before a draw opens we publish a fingerprint of a secret number; at close we publish a fingerprint of the
            entry list, and the winner comes from both together with a public random value named in advance. Anyone can
            check a result on the draw's verify page, <code>/giveaways/&lt;draw&gt;/verify</code>, linked from every
            drawn draw on{" "}
            <Link to="/giveaways" className={link}>
              Competitions and giveaways
            </Link>
            . Winners are checked (age, identity, a correct answer) before a prize is awarded.
          </Measure>
        </ul>
      </section>

      <section aria-labelledby="help" className="max-w-[70ch] space-y-3">
        <h2 id="help" className="wide text-2xl font-extrabold">
          If play stops being fun
        </h2>
        <p className="text-muted">Free, confidential help is available any time:</p>
        <ul className="space-y-2">
          <li>
            <a href="https://www.gamcare.org.uk/" rel="noopener" className={`${link} inline-flex items-center gap-1`}>
              GamCare <ExternalLink aria-hidden className="size-4" />
            </a>{" "}
            <span className="text-muted">: the National Gambling Helpline, 0808 8020 133, day and night.</span>
          </li>
          <li>
            <a
              href="https://www.begambleaware.org/"
              rel="noopener"
              className={`${link} inline-flex items-center gap-1`}
            >
              BeGambleAware <ExternalLink aria-hidden className="size-4" />
            </a>{" "}
            <span className="text-muted">: advice, self-assessment and treatment.</span>
          </li>
        </ul>
      </section>

      <section aria-labelledby="complaints" className="max-w-[70ch] space-y-3">
        <h2 id="complaints" className="wide text-2xl font-extrabold">
          Complaints
        </h2>
        <p className="text-muted">
          Email{" "}
          <a href={`mailto:${facts.complaintsEmail}`} className={link}>
            {facts.complaintsEmail}
          </a>{" "}
          with your name, the email address of your account, the draw or order concerned and what went wrong.
        </p>
        <ul className="list-disc space-y-1 pl-6 text-muted">
          <li>We acknowledge your complaint within 2 working days.</li>
          <li>We reply in full within 14 days, saying what we found and what we will do.</li>
          <li>
            If you are not happy with the reply, say so and someone not involved in the first answer reviews it within a
            further 14 days.
          </li>
        </ul>
      </section>
    </main>
  );
}
