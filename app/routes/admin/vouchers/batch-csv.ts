import { formatEventInstant } from "~/features/dates/event-dates";
import { slugify } from "~/features/forms/slug";
import { batchCodes } from "~/features/vouchers/staff-vouchers.server";
import { describeEffect } from "~/features/vouchers/voucher-rules";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { isUuid } from "~/server/db/uuid";
import { csvDownload, toCsv } from "~/ui/csv-download";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/batch-csv";

/** Every code of a batch, with its terms and the uses that count now, as CSV. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  if (!isUuid(params.batchId)) notFound("This batch of codes could not be found");
  const { db, env } = context.get(runtimeContext);
  const batch = await batchCodes(db, params.batchId.toLowerCase(), new Date());
  if (!batch) notFound("This batch of codes could not be found");
  const at = (instant: Date | null) => (instant ? formatEventInstant(instant, env.TIME_ZONE) : "");
  const limit = (value: number | null) => (value === null ? "No limit" : value);
  return csvDownload(
    toCsv([
      ["Code", "Label", "Effect", "Used", "Most uses", "Most per member", "Valid from", "Valid until", "Active"],
      ...batch.codes.map((code) => [
        code.code,
        code.label,
        describeEffect(code, env.CURRENCY),
        code.used,
        limit(code.maxUses),
        limit(code.maxUsesPerMember),
        at(code.validFrom),
        at(code.validUntil),
        code.active ? "Yes" : "No",
      ]),
    ]),
    `${slugify(batch.label, { max: 60, fallback: "vouchers" })}-codes.csv`,
  );
}
