import type { ReportReason } from "../../../db/schema";

/** Why a member reports a car or a photo, as the form words it. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  plate: "Shows a number plate or a face that should be hidden",
  offensive: "Offensive or inappropriate",
  spam: "Spam or advertising",
  not_theirs: "Not their car or not their photo",
  other: "Something else",
};

export const REPORT_REASON_LIST = Object.keys(REPORT_REASON_LABELS) as [ReportReason, ...ReportReason[]];

export const MAX_REPORT_NOTE = 1000;
