import { z } from "zod";
import { ATTENDEE_NAME_MAX } from "~/features/tickets/ticket-lines";
import { MAX_LINE_QUANTITY } from "../../../db/schema";

/**
 * The cart's plain forms (they work without JavaScript), read on the server. Every message
 * here is shown next to the line the form belongs to.
 */

const ticketTypeId = z.uuid({ message: "These tickets could not be found" });
const quantity = z.coerce
  .number({ message: "Choose how many tickets you want" })
  .int("Choose how many tickets you want")
  .min(1, "Choose at least 1 ticket")
  .max(MAX_LINE_QUANTITY, "Choose fewer tickets");

const drawId = z.uuid({ message: "This draw could not be found" });
const variantId = z.uuid({ message: "That item could not be found" });
/** How many of a merch variant: the cart's Update and the product page's Add to cart alike. */
export const merchQuantity = z.coerce
  .number({ message: "Choose how many you want" })
  .int("Choose how many you want")
  .min(1, "Choose at least 1")
  .max(MAX_LINE_QUANTITY, "Choose fewer");
const bundle = z.coerce.number({ message: "Choose a bundle" }).int("Choose a bundle").min(1).max(MAX_LINE_QUANTITY);

export const AddToCartSchema = z.object({ ticketTypeId, quantity });

export const CartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("update"),
    ticketTypeId,
    quantity,
    attendeeNames: z
      .array(z.string().max(ATTENDEE_NAME_MAX, `Attendee names can be up to ${ATTENDEE_NAME_MAX} characters`))
      .max(MAX_LINE_QUANTITY),
  }),
  z.object({ intent: z.literal("remove"), ticketTypeId }),
  z.object({ intent: z.literal("update-entries"), drawId, bundle, quantity }),
  z.object({ intent: z.literal("remove-entries"), drawId, bundle }),
  z.object({
    intent: z.literal("remove-application"),
    applicationId: z.uuid({ message: "That application fee is no longer in your cart" }),
  }),
  z.object({ intent: z.literal("update-merch"), variantId, quantity: merchQuantity }),
  z.object({ intent: z.literal("remove-merch"), variantId }),
  z.object({
    intent: z.literal("remove-membership"),
    tierId: z.uuid({ message: "That membership is no longer in your cart" }),
  }),
  z.object({
    intent: z.literal("pay"),
    idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "Refresh the page and press Pay again"),
    // Only sent when the cart holds merch; the address fields are read and checked on their own.
    shippingMethod: z.enum(["delivery", "collection"], { message: "Choose delivery or collection" }).optional(),
    collectionEventId: z.uuid({ message: "Choose the event to collect at" }).optional(),
  }),
  z.object({ intent: z.literal("resume"), orderId: z.uuid({ message: "That order could not be found" }) }),
  z.object({
    intent: z.literal("apply-code"),
    code: z
      .string({ message: "Enter a discount code" })
      .min(1, "Enter a discount code")
      .max(64, "That is not a code we issue: check it and try again"),
  }),
  z.object({ intent: z.literal("remove-code") }),
  z.object({ intent: z.literal("add-unlocked"), ticketTypeId }),
]);

export type CartAction = z.infer<typeof CartActionSchema>;

function text(value: FormDataEntryValue | null) {
  return typeof value === "string" ? value.trim() : undefined;
}

/** The form's fields as the schemas expect them; `attendeeName` repeats, one per ticket. */
export function cartFormValues(formData: FormData) {
  return {
    intent: text(formData.get("intent")),
    ticketTypeId: text(formData.get("ticketTypeId")),
    quantity: text(formData.get("quantity")),
    attendeeNames: formData.getAll("attendeeName").map((value) => (typeof value === "string" ? value : "")),
    idempotencyKey: text(formData.get("idempotencyKey")),
    orderId: text(formData.get("orderId")),
    drawId: text(formData.get("drawId")),
    bundle: text(formData.get("bundle")),
    applicationId: text(formData.get("applicationId")),
    variantId: text(formData.get("variantId")),
    tierId: text(formData.get("tierId")),
    code: text(formData.get("code")),
    shippingMethod: text(formData.get("shippingMethod")) || undefined,
    collectionEventId: text(formData.get("collectionEventId")) || undefined,
  };
}

/** The first message of a refused form, and the ticket type it was about if that was readable. */
export function firstIssue(error: z.ZodError, values: { ticketTypeId?: string; variantId?: string }) {
  const line = values.ticketTypeId ?? values.variantId;
  const id = line && ticketTypeId.safeParse(line).success ? line : null;
  return { message: error.issues[0]?.message ?? "Check the form and try again", ticketTypeId: id };
}
