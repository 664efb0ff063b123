import { Clock, ListOrdered } from "lucide-react";
import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { countOf } from "~/ui/plural";
import { ordinal } from "./waiting-list-rules";
import type { MemberWaitingList } from "./waiting-lists.server";

/** "2 places", "1 item". */
function unitsOf(list: Pick<MemberWaitingList, "quantity" | "unit">) {
  return list.unit === "place" ? countOf(list.quantity, "place", "places") : countOf(list.quantity, "item", "items");
}

/** An offer in a line of its own: "A place for Paddock, Track Day", "2 × Club tee, M". */
export function offerTitle(list: Pick<MemberWaitingList, "quantity" | "unit" | "itemName" | "title">) {
  if (list.unit === "place") {
    return `${list.quantity === 1 ? "A place" : `${list.quantity} places`} for ${list.itemName}, ${list.title}`;
  }
  return `${list.quantity === 1 ? "" : `${list.quantity} × `}${list.title}, ${list.itemName}`;
}

/** What taking up an offer says: "Buy my places", "Buy it now". */
export function buyLabel(list: Pick<MemberWaitingList, "quantity" | "unit">) {
  if (list.unit === "place") return "Buy my places";
  return list.quantity === 1 ? "Buy it now" : "Buy them now";
}

/**
 * The member's waiting lists on their tickets page (tickets and merch): an offer first, with "Buy my places" and when
 * it ends; then each place in line. Leaving is one button, a plain form.
 */
export function MyWaitingLists({ lists }: { lists: MemberWaitingList[] }) {
  return (
    <section id="waiting-lists" aria-labelledby="waiting-lists-title" className="scroll-mt-24 space-y-4">
      <h2 id="waiting-lists-title" className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
        Waiting lists
      </h2>
      <ul className="grid gap-3">
        {lists.map((list) => (
          <li key={list.id}>
            <Card
              as="article"
              aria-labelledby={`list-${list.id}`}
              className={`space-y-3 p-5 ${list.offer ? "border-2 border-accent" : ""}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <h3 id={`list-${list.id}`} className="text-lg font-bold">
                    <Link to={list.href} className="hover:underline">
                      {list.title}
                    </Link>
                  </h3>
                  <p className="text-sm text-muted">
                    {list.detail} · {list.itemName} · {unitsOf(list)}
                  </p>
                </div>
                {list.offer ? (
                  <p className="flex items-center gap-2 font-semibold">
                    <Clock aria-hidden className="size-4 text-accent-ink" />
                    Held for you until <time dateTime={list.offer.endsAt}>{list.offer.endsLabel}</time>
                  </p>
                ) : (
                  <p className="flex items-center gap-2 font-semibold">
                    <ListOrdered aria-hidden className="size-4" />
                    {ordinal(list.position ?? 1)} in line
                  </p>
                )}
              </div>
              {list.offer ? (
                <p>
                  {list.unit === "place" ? "Places came back" : "It is back in stock"} and{" "}
                  {list.quantity === 1 ? "it is" : "they are"} yours to buy. After that{" "}
                  {list.quantity === 1 ? "it goes" : "they go"} to the next person in line.
                </p>
              ) : (
                <p className="text-sm text-muted">
                  {list.closesLabel
                    ? `We email you if places come back. The list closes at ${list.closesLabel}.`
                    : "We email you when it is back in stock."}
                </p>
              )}
              <Form method="post" className="flex flex-wrap gap-3">
                <input type="hidden" name="entryId" value={list.id} />
                {list.offer ? (
                  <button
                    type="submit"
                    name="intent"
                    value="claim-offer"
                    className="rounded-full bg-accent px-6 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
                  >
                    {buyLabel(list)}
                  </button>
                ) : null}
                <button
                  type="submit"
                  name="intent"
                  value="leave-waiting-list"
                  aria-label={`${list.offer ? "No thanks, leave the list" : "Leave the list"}: ${list.itemName}, ${list.title}`}
                  className="rounded-full border border-line px-5 py-2.5 font-semibold hover:bg-surface-sunken"
                >
                  {list.offer ? "No thanks, leave the list" : "Leave the list"}
                </button>
              </Form>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
