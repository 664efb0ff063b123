import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { countOf, formatCount, plural } from "~/ui/plural";
import type { QueueView } from "./queue-page.server";

const button = "inline-block rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong";

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <dt className="text-sm font-semibold text-muted">{label}</dt>
      <dd className="tabular text-2xl font-black">{value}</dd>
    </div>
  );
}

/** Join needs an account: a visitor who is not signed in is sent to sign in and brought back. */
function JoinForm({ slug, signedIn }: { slug: string; signedIn: boolean }) {
  if (!signedIn) {
    return (
      <>
        <p>Sign in (or create an account) to take a place: each place belongs to one member.</p>
        <Link to={`/login?redirectTo=${encodeURIComponent(`/events/${slug}/queue`)}`} className={button}>
          Sign in to join the queue
        </Link>
      </>
    );
  }
  return (
    <Form method="post">
      <button type="submit" name="intent" value="join" className={button}>
        Join the queue
      </button>
    </Form>
  );
}

/**
 * What a visitor sees in an event's queue. Everything is worked out on the server; the page
 * reloads itself (a meta refresh) so it moves on without any script.
 */
export function QueuePanel({ view, slug, error }: { view: QueueView; slug: string; error?: string }) {
  const eventLink = (
    <Link to={`/events/${slug}`} className="font-semibold text-link underline">
      Back to the event
    </Link>
  );
  return (
    <Card as="section" aria-labelledby="queue-status" className="space-y-5 p-5 sm:p-6">
      {error ? (
        <p role="alert" className="font-semibold text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {(() => {
        switch (view.kind) {
          case "no_queue":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  No queue for this event
                </h2>
                <p>Tickets are sold straight from the event page.</p>
                {eventLink}
              </>
            );
          case "closed":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  This event has been cancelled
                </h2>
                {eventLink}
              </>
            );
          case "join":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  {view.opensAt ? `Sales open at ${view.opensAt}` : "Tickets are sold through a queue"}
                </h2>
                <p>
                  {view.opensAt
                    ? "Everyone who joins before sales open gets a place in a random order when they open, so there is no need to rush. After that, places go in order of arrival."
                    : "Places go in order of arrival. You will see your place and how long it should take."}
                </p>
                <p className="text-sm text-muted">{countOf(view.waiting, "person", "people")} in the queue.</p>
                <JoinForm slug={slug} signedIn={view.signedIn} />
              </>
            );
          case "before_opening":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  You are in the queue
                </h2>
                <p>
                  Sales open at {view.opensAt}. Then everyone here gets a place in a random order, and people are let
                  through a few at a time. Keep this page open or come back later: your place is kept either way.
                </p>
                <p className="text-sm text-muted">{countOf(view.waiting, "person", "people")} in the queue.</p>
              </>
            );
          case "waiting":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  You are in the queue
                </h2>
                <dl className="grid gap-4 sm:grid-cols-3">
                  <Fact label="Your place" value={formatCount(view.position)} />
                  <Fact label="People ahead of you" value={formatCount(view.ahead)} />
                  <Fact label="Expected wait" value={view.expectedWait} />
                </dl>
                <p className="text-sm text-muted">
                  {countOf(view.ratePerMinute, "person", "people")} {plural(view.ratePerMinute, "is", "are")} let
                  through every minute; your turn should come at {view.turnAt}. This page updates itself, and your place
                  is kept if you leave and come back.
                </p>
              </>
            );
          case "your_turn":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  It is your turn
                </h2>
                <p>You can buy tickets until {view.endsAt}.</p>
                <Link to={`/events/${slug}#tickets`} className={button}>
                  Choose your tickets
                </Link>
              </>
            );
          case "turn_over":
            return (
              <>
                <h2 id="queue-status" className="text-xl font-bold">
                  Your turn has ended
                </h2>
                <p>Your time to buy tickets ended at {view.endedAt}.</p>
                {eventLink}
              </>
            );
        }
      })()}
    </Card>
  );
}

/** Whether the page should reload itself: only while the visitor's state can still change. */
export function queueRefreshes(view: QueueView) {
  return view.kind === "before_opening" || view.kind === "waiting";
}
