import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import {
  cancelEvent,
  createEvent,
  duplicateEvent,
  publishEvent,
  removeEventCover,
  setEventCover,
  unpublishEvent,
  updateEvent,
} from "~/features/events/organizer/event-editor.server";
import { getEventCover, getEventTimes } from "~/features/events/organizer/queries.server";
import {
  CancelEventSchema,
  coverSchema,
  EventIdSchema,
  eventFormSchema,
  PublishEventSchema,
  ticketTypeSchema,
} from "~/features/events/organizer/schemas";
import {
  createTicketType,
  deleteTicketType,
  setTicketTypeHidden,
  updateTicketType,
} from "~/features/events/organizer/ticket-type-editor.server";
import { tiersForPrices } from "~/features/membership/tiers.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { withinAttemptLimits } from "~/web/account-call.server";
import { intentOf } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The forms of the organizer's event pages (new, details, cover, tickets): read the form, check it
// with its schema, call the organizer rule, and answer a redirect with a flash message or the
// form's errors (400).

type Call = { db: Db; actorId: string; currency: string };
type EventCall = Call & { eventId: string };

/** The form's errors, with the submitted values kept so nothing typed is lost. */
type Extra = { ticketTypeId?: string | null };

export async function createEventAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, { schema: eventFormSchema({ currency: call.currency }) });
  if (submission.status !== "success") return invalidReply("save", submission);
  const outcome = await createEvent(call.db, { actorId: call.actorId, event: submission.value });
  if (!outcome.ok) return refusedReply("save", submission, outcome);
  return redirectWithFlash(`/admin/events/${outcome.id}`, {
    kind: "success",
    message: "Draft saved. Add ticket types and a cover, then publish it.",
  });
}

/** The forms of an event's details page: save, publish, back to draft, duplicate, cancel. */
export async function eventDetailsAction(call: EventCall, formData: FormData, here: string) {
  const intent = intentOf(formData);
  const { db, actorId, eventId } = call;
  switch (intent) {
    case "save": {
      const submission = parseWithZod(formData, { schema: eventFormSchema({ currency: call.currency }) });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await updateEvent(db, { actorId, eventId, event: submission.value });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      const moved = outcome.ticketDaysMoved
        ? ` ${countOf(outcome.ticketDaysMoved, "ticket type's", "ticket types'")} days moved with the dates.`
        : "";
      const message = outcome.changed.length === 0 ? "Nothing had changed." : `Changes saved.${moved}`;
      return redirectWithFlash(here, { kind: "success", message });
    }
    case "publish": {
      const submission = parseWithZod(formData, { schema: PublishEventSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await publishEvent(db, { actorId, eventId, noTickets: submission.value.noTickets });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      return redirectWithFlash(here, { kind: "success", message: "Published. The event is now listed on the site." });
    }
    case "unpublish": {
      const submission = parseWithZod(formData, { schema: z.object({}) });
      const outcome = await unpublishEvent(db, { actorId, eventId });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      return redirectWithFlash(here, { kind: "success", message: "Back to draft. The event is no longer listed." });
    }
    case "duplicate": {
      const outcome = await duplicateEvent(db, { actorId, eventId });
      if (!outcome.ok) notFound();
      return redirectWithFlash(`/admin/events/${outcome.id}`, {
        kind: "success",
        message: "This is your copy, as a draft. Change its dates, then publish it.",
      });
    }
    case "cancel": {
      const submission = parseWithZod(formData, { schema: CancelEventSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await cancelEvent(db, { actorId, eventId, reason: submission.value.reason });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      const sold =
        outcome.ticketsSold === 0
          ? "No tickets had been sold."
          : `${countOf(outcome.ticketsSold, "ticket", "tickets")} had been sold: their holders need refunds.`;
      return redirectWithFlash(here, { kind: "success", message: `Event cancelled. ${sold}` });
    }
    default:
      return unknownIntent(formData);
  }
}

function unknownIntent(formData: FormData) {
  const submission = parseWithZod(formData, { schema: z.object({}) });
  const result = submission.reply({ formErrors: ["That action is not available here. Reload the page."] });
  return data({ intent: "", result, ticketTypeId: null as string | null | undefined }, { status: 400 });
}

/** What the cover form depends on: whether the event has one already. */
async function hasCover(db: Db, eventId: string) {
  const cover = await getEventCover(db, eventId);
  if (!cover) notFound();
  return Boolean(cover.coverHash);
}

export async function eventCoverAction(
  call: EventCall & { storage: Storage; ip: string },
  formData: FormData,
  here: string,
) {
  const intent = intentOf(formData);
  const { db, actorId, eventId } = call;
  if (intent === "remove") {
    const submission = parseWithZod(formData, { schema: z.object({}) });
    const outcome = await removeEventCover(db, { actorId, eventId });
    if (!outcome.ok) return refusedReply(intent, submission, outcome);
    return redirectWithFlash(here, { kind: "success", message: "Cover removed." });
  }
  if (intent !== "upload") return unknownIntent(formData);
  const submission = parseWithZod(formData, { schema: coverSchema({ hasCover: await hasCover(db, eventId) }) });
  if (submission.status !== "success") return invalidReply(intent, submission);
  const { cover, coverAlt } = submission.value;
  if (cover) await withinAttemptLimits(limitImageUploads(db, { userId: actorId, ip: call.ip }));
  const image = cover ? new Uint8Array(await cover.arrayBuffer()) : null;
  const outcome = await setEventCover(db, call.storage, { actorId, eventId, image, alt: coverAlt });
  if (!outcome.ok) return refusedReply(intent, submission, outcome);
  const message = { added: "Cover added.", replaced: "Cover replaced.", described: "Description saved." }[
    outcome.action
  ];
  return redirectWithFlash(here, { kind: "success", message });
}

async function ticketContext(db: Db, eventId: string, currency: string) {
  const event = await getEventTimes(db, eventId);
  if (!event) notFound();
  return { ...event, currency, tiers: await tiersForPrices(db) };
}

const TicketTypeIdSchema = z.object({ ticketTypeId: EventIdSchema });

/** The forms of an event's tickets page: add, edit, hide or show, delete a ticket type. */
export async function ticketTypesAction(call: EventCall, formData: FormData, here: string) {
  const intent = intentOf(formData);
  const { db, actorId, eventId } = call;
  const target = TicketTypeIdSchema.safeParse({ ticketTypeId: formData.get("ticketTypeId") });
  const ticketTypeId = target.success ? target.data.ticketTypeId : null;
  // Errors come back to the form they belong to: the new one, or one ticket type's.
  const extra: Extra = { ticketTypeId };
  const back = here.split("?")[0]!;

  switch (intent) {
    case "create":
    case "update": {
      const schema = ticketTypeSchema(await ticketContext(db, eventId, call.currency));
      const submission = parseWithZod(formData, { schema });
      if (intent === "update" && !ticketTypeId) notFound();
      if (submission.status !== "success") return invalidReply(intent, submission, extra);
      const ticketType = submission.value;
      const outcome =
        intent === "create"
          ? await createTicketType(db, { actorId, eventId, ticketType })
          : await updateTicketType(db, { actorId, eventId, ticketTypeId: ticketTypeId!, ticketType });
      if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
      const message = intent === "create" ? `“${ticketType.name}” added.` : `“${ticketType.name}” saved.`;
      return redirectWithFlash(back, { kind: "success", message });
    }
    case "hide":
    case "show":
    case "delete": {
      if (!ticketTypeId) notFound();
      const submission = parseWithZod(formData, { schema: z.object({}) });
      const outcome =
        intent === "delete"
          ? await deleteTicketType(db, { actorId, eventId, ticketTypeId })
          : await setTicketTypeHidden(db, { actorId, eventId, ticketTypeId, hidden: intent === "hide" });
      if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
      const message = {
        hide: `“${outcome.name}” is hidden: it is no longer on sale.`,
        show: `“${outcome.name}” is shown again.`,
        delete: `“${outcome.name}” deleted.`,
      }[intent];
      return redirectWithFlash(back, { kind: "success", message });
    }
    default:
      return unknownIntent(formData);
  }
}
