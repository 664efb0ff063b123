import { z } from "zod";
import { checkbox, line, wholeNumber, wholeNumberText } from "~/features/forms/fields";
import { MIN_OFFER_HOURS } from "../../../db/schema/waiting-lists";

/** The waiting lists' forms, read on the server; every message names what to fix. */

const entryId = z.uuid({ message: "This place in line could not be found" });

/** The event page's "Join the waiting list", sent as a plain form. */
export const JoinListSchema = z.object({
  intent: z.literal("join-waiting-list"),
  ticketTypeId: z.uuid({ message: "These tickets are not sold on this page" }),
  quantity: wholeNumberText(1, 1000, "how many places you want"),
});

/** A product page's "Join the waiting list" for a sold-out variant, sent as a plain form. */
export const JoinVariantListSchema = z.object({
  intent: z.literal("join-waiting-list"),
  variantId: z.uuid({ message: "Choose the one you want" }),
  quantity: wholeNumberText(1, 1000, "how many you want"),
});

/** "Buy my places" and "Leave the list" on the member's tickets page. */
export const MemberListSchema = z.object({
  intent: z.enum(["claim-offer", "leave-waiting-list"], { message: "Choose what to do" }),
  entryId,
});

/** The link in an offer email, which names the member's place in line. */
export const OfferLinkSchema = z.object({ entryId });

/** The most hours an offer may hold places (two weeks), and before the event a list may close (30 days). */
const LIST_LIMITS = { offerHours: 336, closesHours: 720 };

/** The organizer's settings for an event's lists. */
export const ListSettingsSchema = z.object({
  intent: z.literal("settings"),
  enabled: checkbox,
  offerHours: wholeNumber(MIN_OFFER_HOURS, LIST_LIMITS.offerHours, "the hours an offer holds places"),
  closesHours: wholeNumber(0, LIST_LIMITS.closesHours, "the hours before the start"),
});

/** Whether a product's variants take waiting lists. */
export const ProductListSettingsSchema = z.object({ intent: z.literal("settings"), enabled: checkbox });

/** Moving someone up the line, with the reason kept in the audit log. */
export const MoveSchema = z.object({
  intent: z.literal("move"),
  entryId,
  position: wholeNumber(1, 100_000, "the place in line"),
  reason: line(200, "Say why they move up: it is kept in the audit log"),
});
