import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { type PreparedLogo, prepareLogo } from "./logo.server";
import {
  type Actor,
  createPartner,
  deletePartner,
  movePartner,
  setPartnerActive,
  updatePartner,
} from "./partners.server";
import { PartnerActionSchema, type PartnerErrors, type PartnerValues } from "./schemas";

export type PartnerFormOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404; form: string; errors: PartnerErrors; values: PartnerValues; problem?: string };

async function readLogo(file: FormDataEntryValue | null): Promise<PreparedLogo | null> {
  if (!(file instanceof File) || file.size === 0) return null;
  return prepareLogo(new Uint8Array(await file.arrayBuffer()));
}

/**
 * The forms of /admin/partners: checks what was sent (field messages and the typed values back
 * on a mistake), prepares a new logo through the media pipeline, then makes the change.
 */
export async function partnerFormAction(
  deps: { db: Db; storage: Storage; actor: Actor },
  formData: FormData,
): Promise<PartnerFormOutcome> {
  const fields = Object.fromEntries([...formData.entries()].filter(([, value]) => typeof value === "string"));
  const form = typeof fields.partnerId === "string" && fields.partnerId ? fields.partnerId : "new";
  const values = { name: String(fields.name ?? ""), url: String(fields.url ?? "") };
  const parsed = PartnerActionSchema.safeParse(fields);
  const errors: PartnerErrors = {};
  let problem: string | undefined;
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === "name" || field === "url") errors[field] = [...(errors[field] ?? []), issue.message];
      else problem ??= issue.message;
    }
  }
  const intent = parsed.success ? parsed.data.intent : fields.intent;
  let logo: PreparedLogo | null = null;
  if (intent === "create" || intent === "update") {
    logo = await readLogo(formData.get("logo"));
    if (logo && !logo.ok) errors.logo = [logo.message];
    if (!logo && intent === "create") errors.logo = ["Choose the partner's logo"];
  }
  if (!parsed.success || errors.logo) {
    return {
      ok: false,
      status: 400,
      form,
      errors,
      values,
      problem: problem ?? (errors.name || errors.url || errors.logo ? undefined : "Reload the page and try again."),
    };
  }
  const { db, storage, actor } = deps;
  const action = parsed.data;
  const prepared = logo?.ok ? logo : null;
  const outcome =
    action.intent === "create"
      ? await createPartner(db, storage, { name: action.name, url: action.url, logo: prepared! }, actor)
      : action.intent === "update"
        ? await updatePartner(db, storage, { ...action, logo: prepared }, actor)
        : action.intent === "move"
          ? await movePartner(db, action, actor)
          : action.intent === "active"
            ? await setPartnerActive(db, action, actor)
            : await deletePartner(db, storage, action, actor);
  if (!outcome.ok) return { ok: false, status: 404, form, errors: {}, values, problem: outcome.message };
  return outcome;
}
