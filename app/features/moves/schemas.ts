import { z } from "zod";
import { line, wholeNumberText } from "~/features/forms/fields";

/** The order page's "Move tickets" form, read on the server; every message names what to fix. */
export const MoveFormSchema = z.object({
  intent: z.literal("move"),
  orderItemId: z.uuid({ message: "Choose tickets of this order to move" }),
  quantity: wholeNumberText(1, 1000, "how many tickets to move"),
  toTicketTypeId: z.uuid({ message: "Choose the tickets to move them to" }),
  backTo: z.enum(["money", "credit"], { message: "Choose where a lower price's difference goes" }),
  extra: z.enum(["charge", "waive"], { message: "Choose whether the buyer pays a higher price's difference" }),
  reason: line(200, "Say why they move: the buyer reads it, and it is kept in the audit log"),
});
