import { ArrowRight, BadgeCheck, CircleAlert, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** "a photo, your town and your Instagram" */
export function listOf(items: readonly string[]) {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A part of the account that is done, or what to do about it. */
export function StatusCard({
  icon: Icon,
  title,
  done,
  doneText,
  todoText,
  action,
  children,
}: {
  icon: LucideIcon;
  title: string;
  done: boolean;
  doneText: string;
  todoText: string;
  action?: { to: string; label: string };
  children?: ReactNode;
}) {
  return (
    <li className="flex flex-col rounded-3xl border border-line bg-surface-raised p-5">
      <div className="flex items-center justify-between gap-3">
        <h3 className="inline-flex items-center gap-2 font-bold">
          <Icon aria-hidden className="size-5 text-muted" /> {title}
        </h3>
        {done ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-sm font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
            <BadgeCheck aria-hidden className="size-4" /> {doneText}
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-950 dark:bg-amber-950 dark:text-amber-100">
            <CircleAlert aria-hidden className="size-4" /> To do
          </span>
        )}
      </div>
      {done ? null : <p className="mt-3 text-sm text-muted">{todoText}</p>}
      {children && !done ? children : null}
      {action ? (
        <Link to={action.to} className="mt-4 inline-flex items-center gap-1.5 font-semibold text-link underline">
          {action.label} <ArrowRight aria-hidden className="size-4" />
        </Link>
      ) : null}
    </li>
  );
}

/** A large link to another page of the members' area. */
export function QuickLink({
  to,
  icon: Icon,
  label,
  text,
}: {
  to: string;
  icon: LucideIcon;
  label: string;
  text: string;
}) {
  return (
    <li>
      <Link
        to={to}
        className="group flex items-center gap-4 rounded-3xl border border-line p-4 transition-colors hover:border-accent hover:bg-surface-raised"
      >
        <span className="grid size-11 shrink-0 place-items-center rounded-2xl bg-asphalt-900 text-accent-strong dark:bg-asphalt-800">
          <Icon aria-hidden className="size-5" />
        </span>
        <span className="min-w-0">
          <span className="block font-bold">{label}</span>
          <span className="block text-sm text-muted">{text}</span>
        </span>
        <ArrowRight
          aria-hidden
          className="ml-auto size-5 shrink-0 text-muted transition-transform group-hover:translate-x-0.5"
        />
      </Link>
    </li>
  );
}

/** What is held for the member and ends if they do nothing: a waiting-list offer, a difference to pay. */
export function WaitingForYou({
  items,
}: {
  items: { key: string; title: string; text: string; action: { to: string; label: string } }[];
}) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="waiting-title" className="space-y-4">
      <h2 id="waiting-title" className="wide text-xl font-extrabold">
        Waiting for you
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {items.map((item) => (
          <li key={item.key} className="flex flex-col gap-3 rounded-3xl border-2 border-accent bg-surface-raised p-5">
            <h3 className="font-bold">{item.title}</h3>
            <p className="text-muted">{item.text}</p>
            {/* A document request: the offer's link is a resource route that fills the cart. */}
            <Link
              to={item.action.to}
              reloadDocument
              className="inline-flex items-center gap-1.5 self-start rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
            >
              {item.action.label} <ArrowRight aria-hidden className="size-4" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
