import { Link } from "react-router";

/** What the public event page says when its tickets are sold through the queue. */
export type QueueNoticeData = { href: string; opensAt: string | null };

/**
 * The same for every visitor (the event page may be cached): who may buy is decided on the
 * queue page and again when tickets are added, never here.
 */
export function QueueNotice({ notice }: { notice: QueueNoticeData }) {
  return (
    <div className="space-y-3 rounded-xl border border-line bg-surface-sunken p-5">
      <p className="font-semibold">
        {notice.opensAt
          ? `Sales open at ${notice.opensAt} — join the queue`
          : "Tickets are sold through a queue: join it, and buy when it is your turn."}
      </p>
      {notice.opensAt ? (
        <p className="text-sm text-muted">
          Everyone in the queue when sales open gets a place in a random order, so there is no need to rush.
        </p>
      ) : null}
      <Link
        to={notice.href}
        className="inline-block rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
      >
        Join the queue
      </Link>
    </div>
  );
}
