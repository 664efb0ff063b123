import { z } from "zod";

/** A partner's web address: https only, a real host, no credentials in it. */
export function partnerUrlProblem(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return "Enter the full address, starting with https://";
  }
  if (url.protocol !== "https:") return "Use an https:// address";
  if (!url.hostname.includes(".") || url.username || url.password) return "Enter the partner's website address";
  return null;
}

const name = z
  .string({ error: "Enter the partner's name" })
  .trim()
  .min(1, "Enter the partner's name")
  .max(80, "Keep the name to 80 characters");
const url = z
  .string({ error: "Enter the partner's website" })
  .trim()
  .min(1, "Enter the partner's website")
  .max(500, "That address is too long")
  .superRefine((value, context) => {
    const problem = partnerUrlProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
const partnerId = z.uuid({ error: "That partner does not exist" });

/** The forms of /admin/partners, one per intent. The logo file is read beside the schema. */
export const PartnerActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), name, url }),
  z.object({ intent: z.literal("update"), partnerId, name, url }),
  z.object({ intent: z.literal("move"), partnerId, direction: z.enum(["up", "down"]) }),
  z.object({
    intent: z.literal("active"),
    partnerId,
    active: z.enum(["true", "false"]).transform((value) => value === "true"),
  }),
  z.object({ intent: z.literal("delete"), partnerId }),
]);

export type PartnerErrors = { name?: string[]; url?: string[]; logo?: string[] };
export type PartnerValues = { name?: string; url?: string };
