import { z } from "zod";
import { checkbox, line, moneyField, wholeNumber } from "~/features/forms/fields";
import { TRANSFER_RULES } from "../../../db/schema/events";

/** The forms under a ticket on the member's tickets page, read on the server. */

const ticketId = z.uuid({ message: "This ticket could not be found" });

/** "Send this ticket": to whom, by name and email address. */
export const SendTransferSchema = z.object({
  intent: z.literal("send-transfer"),
  ticketId,
  toName: line(100, "Enter the name of the person you are sending it to"),
  toEmail: z
    .string({ error: "Enter the email address to send it to" })
    .trim()
    .min(1, "Enter the email address to send it to")
    .max(254, "That email address is too long")
    .pipe(z.email({ error: "Enter an email address like name@example.com" })),
});

/** "Cancel the transfer" of a ticket not yet accepted. */
export const CancelTransferSchema = z.object({
  intent: z.literal("cancel-transfer"),
  transferId: z.uuid({ message: "This transfer could not be found" }),
});

/** "Hand it back" and "Take it off sale". */
export const HandBackSchema = z.object({
  intent: z.enum(["hand-back", "withdraw-hand-back"], { message: "Choose what to do" }),
  ticketId,
});

/** The intents the forms above send, for the page's action to tell them apart. */
export const PASSING_ON_INTENTS = ["send-transfer", "cancel-transfer", "hand-back", "withdraw-hand-back"] as const;

/** The most hours before the start an organizer may close transfers and resale (30 days). */
const MOST_CLOSE_HOURS = 720;

/** The organizer's passing-on settings for one event. */
export function passingOnSettingsSchema(currency: string) {
  return z.object({
    intent: z.literal("settings"),
    transfers: z.enum(TRANSFER_RULES, { message: "Choose whether tickets may be transferred" }),
    closesHours: wholeNumber(0, MOST_CLOSE_HOURS, "the hours before the start"),
    handBackEnabled: checkbox,
    handBackFee: moneyField(currency, "Enter the resale fee (0 for none)"),
  });
}
