import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { VoucherIntentSchema, voucherSchema } from "~/features/vouchers/schemas";
import { createVouchers, setVoucherActive, updateVoucher } from "~/features/vouchers/staff-vouchers.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { intentOf } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The voucher pages' forms: a new code or batch, a code's terms, switching a code off or on. Read
// the form, check it with its schema, call the area's rule, and answer a redirect with a flash
// message or the form's errors (400).

type Call = { db: Db; actorId: string; currency: string; timeZone: string; now: Date };

/** The code's id from the address; anything that is not an id is a missing page, not an error. */
export function voucherIdFrom(value: string | undefined) {
  if (!isUuid(value)) notFound("This code could not be found");
  return value.toLowerCase();
}

export async function createVoucherAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, { schema: voucherSchema(call) });
  if (submission.status !== "success") return invalidReply("save", submission);
  const outcome = await createVouchers(call.db, submission.value, call);
  if (!outcome.ok) return refusedReply("save", submission, outcome);
  if (outcome.batchId !== null) {
    return redirectWithFlash(`/admin/vouchers?batch=${outcome.batchId}`, {
      kind: "success",
      message: `${countOf(outcome.codes, "code", "codes")} made for ${submission.value.terms.label}. Download CSV lists them.`,
    });
  }
  return redirectWithFlash("/admin/vouchers", { kind: "success", message: `${outcome.code} is saved.` });
}

/** The forms of a code's own page: save its terms, switch it off, switch it on. */
export async function voucherPageAction(call: Call & { voucherId: string }, formData: FormData) {
  const intent = VoucherIntentSchema.safeParse({ intent: intentOf(formData) });
  if (!intent.success) {
    const submission = parseWithZod(formData, { schema: z.object({}) });
    const result = submission.reply({ formErrors: ["That action is not available here. Reload the page."] });
    return data({ intent: "", result }, { status: 400 });
  }
  const here = `/admin/vouchers/${call.voucherId}`;
  if (intent.data.intent !== "save") {
    const active = intent.data.intent === "switch-on";
    const outcome = await setVoucherActive(call.db, call.voucherId, active, call);
    if (!outcome.ok) notFound("This code could not be found");
    return redirectWithFlash(here, {
      kind: "success",
      message: active ? `${outcome.code} is on: buyers can use it.` : `${outcome.code} is off: nobody can use it now.`,
    });
  }
  const submission = parseWithZod(formData, { schema: voucherSchema(call) });
  if (submission.status !== "success") return invalidReply("save", submission);
  const outcome = await updateVoucher(call.db, call.voucherId, submission.value, call);
  if (!outcome.ok) return refusedReply("save", submission, outcome);
  return redirectWithFlash(here, { kind: "success", message: `${outcome.code} is saved.` });
}
