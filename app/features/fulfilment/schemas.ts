import { z } from "zod";
import { listSearch } from "~/features/forms/fields";
import { CARRIER_IDS, type Carrier, isHttpsUrl, normaliseTrackingNumber, TRACKING_NUMBER } from "./carriers";

export const FULFILMENT_VIEWS = {
  "to-ship": "To ship",
  "to-collect": "To collect",
  shipped: "Shipped",
  collected: "Collected",
} as const;
export type FulfilmentView = keyof typeof FULFILMENT_VIEWS;

/** The fulfilment list's address: `?view=…&q=…`. Nonsense falls back to the defaults. */
export const FulfilmentQuerySchema = z.object({
  view: z.enum(Object.keys(FULFILMENT_VIEWS) as [FulfilmentView, ...FulfilmentView[]]).catch("to-ship"),
  q: listSearch,
});

const orderId = z.uuid({ error: "That order does not exist" });

/**
 * The staff forms of /admin/fulfilment, one per intent. A tracking number is kept as staff
 * typed it for the form, and checked without its spaces; "other" needs the tracking page's https
 * address, every listed carrier gets its link built from the number.
 */
export const FulfilmentActionSchema = z.discriminatedUnion("intent", [
  z
    .object({
      intent: z.literal("ship"),
      orderId,
      carrier: z.enum(CARRIER_IDS as [Carrier, ...Carrier[]], { error: "Choose the carrier" }),
      trackingNumber: z
        .string({ error: "Enter the tracking number" })
        .trim()
        .min(1, "Enter the tracking number")
        .max(60, "That is too long for a tracking number")
        .transform(normaliseTrackingNumber)
        .refine((value) => TRACKING_NUMBER.test(value), "Use the letters and digits of the tracking number (6 to 40)"),
      trackingUrl: z.string().trim().max(500, "That address is too long").optional().default(""),
    })
    .superRefine((form, context) => {
      if (form.carrier !== "other") return;
      if (!form.trackingUrl) {
        context.addIssue({
          code: "custom",
          path: ["trackingUrl"],
          message: "Enter the carrier's tracking page address",
        });
      } else if (!isHttpsUrl(form.trackingUrl)) {
        context.addIssue({ code: "custom", path: ["trackingUrl"], message: "Use a full https:// address" });
      }
    }),
  z.object({ intent: z.literal("ready"), orderId }),
  z.object({ intent: z.literal("collected"), orderId }),
]);

/** `?orders=id,id` of the packing list: up to 50 ids; anything else in the list is ignored. */
export function packingListIds(raw: string | null): string[] {
  if (!raw) return [];
  const ids = raw
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => z.uuid().safeParse(part).success);
  return [...new Set(ids)].slice(0, 50);
}
