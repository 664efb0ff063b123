import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { drawRefunder } from "~/features/checkout/draw-refunds.server";
import { enterBeacon } from "~/features/draws/beacon.server";
import { drawWinner, publishDraw } from "~/features/draws/closing.server";
import { createDraw, updateDraw } from "~/features/draws/organizer/draw-editor.server";
import {
  addDrawImage,
  describeDrawImage,
  moveDrawImage,
  removeDrawImage,
} from "~/features/draws/organizer/draw-images.server";
import {
  cancelDraw,
  closeDrawNow,
  recordPostalEntryFor,
  retryDrawRefunds,
} from "~/features/draws/organizer/draw-steps.server";
import { drawExists } from "~/features/draws/organizer/queries.server";
import {
  AddImageSchema,
  BeaconSchema,
  CancelDrawSchema,
  ConfirmSchema,
  DRAW_LIMITS,
  DrawIdSchema,
  drawFormSchema,
  ImageAltSchema,
  ImageHashSchema,
  postalEntrySchema,
  SafeDrawSchema,
} from "~/features/draws/organizer/schemas";
import { drawResultsJob } from "~/features/draws/results.server";
import { tiersForPrices } from "~/features/membership/tiers.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { JobQueue } from "~/server/jobs/queue.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { countOf, plural } from "~/ui/plural";
import { withinAttemptLimits } from "~/web/account-call.server";
import { intentOf } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The forms of the organizer's draw pages (new, details, photos, entries): read the form, check
// it with its schema, call the draw rule, and answer a redirect with a flash message or the
// form's errors (400).

type Call = { db: Db; actorId: string; currency: string; timeZone: string; now: Date };
type DrawCall = Call & { drawId: string; jobs: Pick<JobQueue, "enqueue"> };

/** The draw id from the address; anything that is not an id is a missing page, not an error. */
export function drawIdFrom(value: string | undefined) {
  const parsed = DrawIdSchema.safeParse(value);
  if (!parsed.success) notFound();
  return parsed.data.toLowerCase();
}

type Extra = { hash?: string | null };

function unknownIntent(formData: FormData) {
  const submission = parseWithZod(formData, { schema: z.object({}) });
  const result = submission.reply({ formErrors: ["That action is not available here. Reload the page."] });
  return data({ intent: "", result, hash: null as string | null | undefined }, { status: 400 });
}

export async function createDrawAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, {
    schema: drawFormSchema({ ...call, tiers: await tiersForPrices(call.db) }),
  });
  if (submission.status !== "success") return invalidReply("save", submission);
  const outcome = await createDraw(call.db, { actorId: call.actorId, draw: submission.value, now: call.now });
  if (!outcome.ok) return refusedReply("save", submission, outcome);
  return redirectWithFlash(`/admin/draws/${outcome.id}`, {
    kind: "success",
    message: "Draft saved. Add photos of the prize, then publish it.",
  });
}

/** The forms of a draw's details page: save, publish, close, beacon, draw, cancel, refunds. */
export async function drawDetailsAction(call: DrawCall, formData: FormData, here: string) {
  const intent = intentOf(formData);
  const { db, actorId, drawId, now } = call;
  const step = { drawId, actorId, now };
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  if (!(await drawExists(db, drawId))) notFound();
  switch (intent) {
    case "save": {
      // A live draw's form sends only its words; the editor checks the status again under the lock.
      const wording = formData.get("scope") === "wording";
      if (wording) {
        const submission = parseWithZod(formData, { schema: SafeDrawSchema });
        if (submission.status !== "success") return invalidReply(intent, submission);
        const outcome = await updateDraw(db, { ...step, edit: { scope: "wording", draw: submission.value } });
        if (!outcome.ok) return refusedReply(intent, submission, outcome);
        return done(outcome.changed.length === 0 ? "Nothing had changed." : "Changes saved.");
      }
      const submission = parseWithZod(formData, {
        schema: drawFormSchema({ ...call, tiers: await tiersForPrices(call.db) }),
      });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await updateDraw(db, { ...step, edit: { scope: "draft", draw: submission.value } });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      return done(outcome.changed.length === 0 ? "Nothing had changed." : "Changes saved.");
    }
    case "publish": {
      const submission = parseWithZod(formData, { schema: z.object({}) });
      const outcome = await publishDraw(db, step);
      if (!outcome.ok) return refusedReply(intent, submission, { ok: false, field: "", message: outcome.problem });
      return done("Published. The draw is on /giveaways with its commitment.");
    }
    case "close": {
      const submission = parseWithZod(formData, { schema: ConfirmSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await closeDrawNow(db, drawRefunder(call.jobs), step);
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      const message = {
        closed: "Closed. The entry list is frozen and its hash published.",
        cash: "Closed with too few entries: it will be drawn for the cash alternative.",
        extended: "Too few entries: the closing time moved on once, as the draw's terms say.",
        refund: "Too few entries: the draw is cancelled and its paid entries are being refunded.",
      }[outcome.outcome];
      return done(message);
    }
    case "beacon": {
      const submission = parseWithZod(formData, { schema: BeaconSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await enterBeacon(db, { ...step, value: submission.value.beaconValue });
      if (!outcome.ok)
        return refusedReply(intent, submission, { ok: false, field: "beaconValue", message: outcome.problem });
      return done("Beacon value recorded. The winner can be drawn.");
    }
    case "draw": {
      const submission = parseWithZod(formData, { schema: ConfirmSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await drawWinner(db, step);
      if (!outcome.ok) return refusedReply(intent, submission, { ok: false, field: "", message: outcome.problem });
      if (outcome.already) {
        return done(
          outcome.winner === null
            ? "Already drawn: there were no eligible entries."
            : `Already drawn: entry ${outcome.winner} won.`,
        );
      }
      // The result emails go out now rather than at the close job's next run.
      await call.jobs.enqueue(drawResultsJob, { drawId: step.drawId }, { singletonKey: step.drawId });
      return done(
        outcome.winner === null ? "Drawn: there were no eligible entries." : `Drawn: entry ${outcome.winner} wins.`,
      );
    }
    case "cancel": {
      const submission = parseWithZod(formData, { schema: CancelDrawSchema });
      if (submission.status !== "success") return invalidReply(intent, submission);
      const outcome = await cancelDraw(db, drawRefunder(call.jobs), { ...step, reason: submission.value.reason });
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      const refunds = outcome.refundedOrders
        ? ` ${countOf(outcome.refundedOrders, "order", "orders")} ${plural(outcome.refundedOrders, "is", "are")} being refunded.`
        : "";
      return done(`Draw cancelled.${refunds}`);
    }
    case "refunds": {
      const submission = parseWithZod(formData, { schema: z.object({}) });
      const outcome = await retryDrawRefunds(db, drawRefunder(call.jobs), step);
      if (!outcome.ok) return refusedReply(intent, submission, outcome);
      return done(
        outcome.refundedOrders
          ? `${countOf(outcome.refundedOrders, "order", "orders")} refunded.`
          : "Nothing left to refund.",
      );
    }
    default:
      return unknownIntent(formData);
  }
}

/** The postal entry form on a draw's entries page. */
export async function postalEntryAction(call: DrawCall, formData: FormData, here: string) {
  const intent = intentOf(formData);
  if (intent !== "postal") return unknownIntent(formData);
  // The draw's own number of answers is checked under its lock by recordPostalEntry.
  const schema = postalEntrySchema({ timeZone: call.timeZone, optionCount: DRAW_LIMITS.options });
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return invalidReply(intent, submission);
  const outcome = await recordPostalEntryFor(call.db, {
    drawId: call.drawId,
    actorId: call.actorId,
    entry: submission.value,
    now: call.now,
  });
  if (!outcome.ok) {
    if ("field" in outcome) return refusedReply(intent, submission, outcome);
    const { problem } = outcome;
    if (problem.code === "not_found") notFound();
    const field =
      problem.code === "limit" || problem.code === "free_once" ? "email" : problem.code === "answer" ? "answer" : "";
    return refusedReply(intent, submission, { ok: false, field, message: `${problem.message}.` });
  }
  return redirectWithFlash(here, {
    kind: "success",
    message: `Postal entry recorded for ${submission.value.name}: entry number ${outcome.numbers[0]}.`,
  });
}

/** The forms of the photos page: add, describe, move, remove. */
export async function drawImagesAction(
  call: DrawCall & { storage: Storage; ip: string },
  formData: FormData,
  here: string,
) {
  const intent = intentOf(formData);
  const { db, actorId, drawId } = call;
  const target = ImageHashSchema.safeParse({ hash: formData.get("hash") });
  const hash = target.success ? target.data.hash : null;
  const extra: Extra = { hash };
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  switch (intent) {
    case "add": {
      const submission = parseWithZod(formData, { schema: AddImageSchema });
      if (submission.status !== "success") return invalidReply(intent, submission, extra);
      await withinAttemptLimits(limitImageUploads(db, { userId: actorId, ip: call.ip }));
      const image = new Uint8Array(await submission.value.image!.arrayBuffer());
      const outcome = await addDrawImage(db, call.storage, { actorId, drawId, image, alt: submission.value.alt });
      if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
      return done("Photo added.");
    }
    case "describe": {
      const submission = parseWithZod(formData, { schema: ImageAltSchema });
      if (submission.status !== "success") return invalidReply(intent, submission, extra);
      const outcome = await describeDrawImage(db, { actorId, drawId, ...submission.value });
      if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
      return done("Description saved.");
    }
    case "up":
    case "down":
    case "remove": {
      const submission = parseWithZod(formData, { schema: ImageHashSchema });
      if (submission.status !== "success") return invalidReply(intent, submission, extra);
      const input = { actorId, drawId, hash: submission.value.hash };
      const outcome =
        intent === "remove"
          ? await removeDrawImage(db, input)
          : await moveDrawImage(db, { ...input, by: intent === "up" ? -1 : 1 });
      if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
      return done(intent === "remove" ? "Photo removed." : "Order saved.");
    }
    default:
      return unknownIntent(formData);
  }
}
