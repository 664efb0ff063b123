import type { SubmissionResult } from "@conform-to/react";
import { Copy } from "lucide-react";
import { Form } from "react-router";
import { Checkbox, SubmitButton } from "~/ui/form";
import { countOf, plural } from "~/ui/plural";
import { CancelCard, CancelledCard, ChecklistItem, StatusCard, StepForm } from "~/ui/status-panel";
import type { EventSummary } from "./queries.server";
import { CancelEventSchema, PublishEventSchema } from "./schemas";

type StatusEvent = Pick<
  EventSummary,
  | "id"
  | "status"
  | "sold"
  | "ticketTypeCount"
  | "visibleTicketTypes"
  | "coverHash"
  | "publishedLabel"
  | "cancelledLabel"
  | "cancelReason"
>;

type Results = Partial<Record<"publish" | "unpublish" | "cancel", SubmissionResult<string[]>>>;

/**
 * The event's state and what can happen to it next: a checklist and Publish for a draft, Back
 * to draft while nothing is sold, Duplicate always, and Cancel with a reason.
 */
export function EventStatusPanel({ event, results }: { event: StatusEvent; results: Results }) {
  return (
    <div className="space-y-4">
      {event.status === "draft" ? <PublishCard event={event} lastResult={results.publish} /> : null}
      {event.status === "published" ? <PublishedCard event={event} lastResult={results.unpublish} /> : null}
      {event.status === "cancelled" ? (
        <CancelledCard cancelledLabel={event.cancelledLabel} reason={event.cancelReason} />
      ) : null}
      <StatusCard title="Run it again">
        <p className="text-sm text-muted">A draft copy with the same details, cover and ticket types, none sold.</p>
        <Form method="post">
          <SubmitButton name="intent" value="duplicate" variant="secondary" pendingLabel="Copying…">
            <Copy aria-hidden className="size-4" /> Duplicate event
          </SubmitButton>
        </Form>
      </StatusCard>
      {event.status !== "cancelled" ? (
        <CancelCard
          title="Cancel event"
          consequence={
            event.sold === 0
              ? "No tickets are sold yet."
              : `${countOf(event.sold, "ticket", "tickets")} ${plural(event.sold, "is", "are")} sold: their holders will need refunds.`
          }
          warning="Cancelling cannot be undone; the event page will say it is cancelled and why."
          opener="Cancel this event…"
          formId="cancel-event"
          schema={CancelEventSchema}
          lastResult={results.cancel}
          reasonLabel="Reason, shown on the event page"
          submitLabel="Cancel event"
        />
      ) : null}
    </div>
  );
}

function PublishCard({ event, lastResult }: { event: StatusEvent; lastResult?: SubmissionResult<string[]> }) {
  const hasTickets = event.visibleTicketTypes > 0;
  return (
    <StatusCard title="Draft: not on the site yet">
      <ul className="space-y-1.5">
        <ChecklistItem done>Details saved</ChecklistItem>
        <ChecklistItem
          done={hasTickets}
          fix={hasTickets ? undefined : { to: `/admin/events/${event.id}/tickets`, label: "Add tickets" }}
        >
          {hasTickets
            ? `${event.visibleTicketTypes} ticket ${plural(event.visibleTicketTypes, "type", "types")} on sale`
            : "No ticket types on sale yet."}
        </ChecklistItem>
        <ChecklistItem
          done={Boolean(event.coverHash)}
          fix={event.coverHash ? undefined : { to: `/admin/events/${event.id}/cover`, label: "Add a cover" }}
        >
          {event.coverHash ? "Cover image set" : "No cover: tiles show a plain background."}
        </ChecklistItem>
      </ul>
      <StepForm
        id="publish-event"
        intent="publish"
        label="Publish event"
        pendingLabel="Publishing…"
        lastResult={lastResult}
        schema={PublishEventSchema}
        fields={(fields) =>
          hasTickets ? null : (
            <Checkbox meta={fields.noTickets}>This event needs no tickets: it is free to turn up</Checkbox>
          )
        }
      />
    </StatusCard>
  );
}

function PublishedCard({ event, lastResult }: { event: StatusEvent; lastResult?: SubmissionResult<string[]> }) {
  return (
    <StatusCard title="Published">
      <p className="text-sm text-muted">
        Listed on the site{event.publishedLabel ? ` since ${event.publishedLabel}` : ""}.
      </p>
      {event.sold === 0 ? (
        <StepForm
          id="unpublish-event"
          intent="unpublish"
          label="Back to draft"
          pendingLabel="Unpublishing…"
          lastResult={lastResult}
          variant="secondary"
        />
      ) : (
        <p className="text-sm text-muted">Tickets are sold, so it stays published. To call it off, cancel it below.</p>
      )}
    </StatusCard>
  );
}
