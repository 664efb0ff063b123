import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Copy } from "lucide-react";
import { Form, Link } from "react-router";
import { Checkbox, FormErrors, SubmitButton } from "~/ui/form";
import { TextAreaField } from "~/ui/form-fields";
import { countOf, plural } from "~/ui/plural";
import { ChecklistItem, StatusCard } from "~/ui/status-panel";
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
        <StatusCard title="Cancelled">
          <p className="text-sm">
            Cancelled {event.cancelledLabel ? `on ${event.cancelledLabel}` : ""}. The reason given:
          </p>
          <blockquote className="border-l-4 border-line pl-3 text-sm italic text-muted">
            {event.cancelReason}
          </blockquote>
        </StatusCard>
      ) : null}
      <StatusCard title="Run it again">
        <p className="text-sm text-muted">A draft copy with the same details, cover and ticket types, none sold.</p>
        <Form method="post">
          <SubmitButton name="intent" value="duplicate" variant="secondary" pendingLabel="Copying…">
            <Copy aria-hidden className="size-4" /> Duplicate event
          </SubmitButton>
        </Form>
      </StatusCard>
      {event.status !== "cancelled" ? <CancelCard event={event} lastResult={results.cancel} /> : null}
    </div>
  );
}

function PublishCard({ event, lastResult }: { event: StatusEvent; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "publish-event",
    lastResult,
    constraint: getZodConstraint(PublishEventSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PublishEventSchema }),
  });
  const hasTickets = event.visibleTicketTypes > 0;
  return (
    <StatusCard title="Draft: not on the site yet">
      <ul className="space-y-1.5">
        <ChecklistItem done>Details saved</ChecklistItem>
        <ChecklistItem done={hasTickets}>
          {hasTickets ? (
            `${event.visibleTicketTypes} ticket ${plural(event.visibleTicketTypes, "type", "types")} on sale`
          ) : (
            <>
              No ticket types on sale yet.{" "}
              <Link to={`/admin/events/${event.id}/tickets`} className="font-semibold text-link underline">
                Add tickets
              </Link>
            </>
          )}
        </ChecklistItem>
        <ChecklistItem done={Boolean(event.coverHash)}>
          {event.coverHash ? (
            "Cover image set"
          ) : (
            <>
              No cover: tiles show a plain background.{" "}
              <Link to={`/admin/events/${event.id}/cover`} className="font-semibold text-link underline">
                Add a cover
              </Link>
            </>
          )}
        </ChecklistItem>
      </ul>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        {hasTickets ? null : (
          <Checkbox meta={fields.noTickets}>This event needs no tickets: it is free to turn up</Checkbox>
        )}
        <SubmitButton name="intent" value="publish" pendingLabel="Publishing…">
          Publish event
        </SubmitButton>
      </Form>
    </StatusCard>
  );
}

function PublishedCard({ event, lastResult }: { event: StatusEvent; lastResult?: SubmissionResult<string[]> }) {
  const [form] = useForm({ id: "unpublish-event", lastResult });
  return (
    <StatusCard title="Published">
      <p className="text-sm text-muted">
        Listed on the site{event.publishedLabel ? ` since ${event.publishedLabel}` : ""}.
      </p>
      {event.sold === 0 ? (
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <SubmitButton name="intent" value="unpublish" variant="secondary" pendingLabel="Unpublishing…">
            Back to draft
          </SubmitButton>
        </Form>
      ) : (
        <p className="text-sm text-muted">Tickets are sold, so it stays published. To call it off, cancel it below.</p>
      )}
    </StatusCard>
  );
}

function CancelCard({ event, lastResult }: { event: StatusEvent; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "cancel-event",
    lastResult,
    constraint: getZodConstraint(CancelEventSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CancelEventSchema }),
  });
  const open = Boolean(lastResult?.error && Object.keys(lastResult.error).length > 0);
  return (
    <StatusCard title="Cancel event" tone="danger">
      <p className="text-sm">
        {event.sold === 0
          ? "No tickets are sold yet."
          : `${countOf(event.sold, "ticket", "tickets")} ${plural(event.sold, "is", "are")} sold: their holders will need refunds.`}{" "}
        <span className="text-muted">
          Cancelling cannot be undone; the event page will say it is cancelled and why.
        </span>
      </p>
      <details open={open} className="group">
        <summary className="cursor-pointer rounded text-sm font-bold text-red-700 dark:text-red-300">
          Cancel this event…
        </summary>
        <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextAreaField meta={fields.reason} label="Reason, shown on the event page" rows={3} />
          <SubmitButton name="intent" value="cancel" variant="danger" pendingLabel="Cancelling…">
            Cancel event
          </SubmitButton>
        </Form>
      </details>
    </StatusCard>
  );
}
