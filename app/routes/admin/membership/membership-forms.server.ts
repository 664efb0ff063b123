import { parseWithZod } from "@conform-to/zod/v4";
import { tierSchema } from "~/features/membership/schemas";
import { createTier, updateTier } from "~/features/membership/tiers.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The membership editor's forms: a new tier, a tier's terms. Read the form, check it with its
// schema, call the area's rule, and answer a redirect with a flash message or the form's errors.

type Call = { db: Db; actorId: string; currency: string; timeZone: string; now: Date };

export async function createTierAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, { schema: tierSchema(call) });
  if (submission.status !== "success") return invalidReply("create", submission);
  await createTier(call.db, submission.value, call);
  return redirectWithFlash("/admin/membership", {
    kind: "success",
    message: `${submission.value.name} is saved${submission.value.onSale ? " and on sale" : ""}.`,
  });
}

export async function updateTierAction(call: Call & { tierId: string }, formData: FormData) {
  const submission = parseWithZod(formData, { schema: tierSchema(call) });
  if (submission.status !== "success") return invalidReply("update", submission);
  const outcome = await updateTier(call.db, call.tierId, submission.value, call);
  if (!outcome.ok) return refusedReply("update", submission, outcome);
  return redirectWithFlash("/admin/membership", { kind: "success", message: `${submission.value.name} is saved.` });
}
