import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { addEntriesToCart } from "~/features/draws/cart-entries.server";
import { entryChoiceQuery, parsePicks } from "~/features/draws/draw-rules";
import { enterGiveaway } from "~/features/draws/enter.server";
import { claimPrize } from "~/features/draws/results.server";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { countOf } from "~/ui/plural";

/** A choice among a few: an index as the form sends it, or null when missing or malformed. */
const index = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/)
  .transform(Number)
  .nullable()
  .catch(null);

/** What the draw page's forms send, read without trusting it: the rules decide what is allowed. */
const EntryFormSchema = z.object({
  intent: z.enum(["add", "enter", "claim"]).catch("add"),
  choice: z.enum(["prize", "cash"]).catch("prize"),
  answer: index,
  bundle: index.transform((value) => value ?? 1),
  adult: z
    .string()
    .nullable()
    .transform((value) => value === "yes")
    .catch(false),
  // Null when the numbers are not written as numbers.
  picks: z
    .string()
    .nullable()
    .transform((value) => parsePicks((value ?? "").slice(0, 2000)))
    .catch(null),
});

function readEntryForm(form: FormData) {
  const field = (name: string) => form.get(name);
  return EntryFormSchema.parse({
    intent: field("intent"),
    choice: field("choice"),
    answer: field("answer"),
    bundle: field("bundle"),
    adult: field("adult"),
    picks: field("picks"),
  });
}

/**
 * The draw page's forms: a paid competition's bundle goes into the cart with the answer; a
 * giveaway's one entry is made at once; the winner claims the prize or its cash alternative. Refusals come back as a 400 with the message to show.
 */
export async function drawPageAction(args: {
  request: Request;
  context: Readonly<RouterContextProvider>;
  drawId: string;
  slug: string;
}) {
  const { db } = args.context.get(runtimeContext);
  const user = args.context.get(userContext);
  const form = readEntryForm(await args.request.formData());
  if (!user) {
    // Signing in brings the visitor back to the draw with what they had chosen.
    const back = `/giveaways/${args.slug}${entryChoiceQuery({ ...form, picks: form.picks?.join(", ") ?? "" })}`;
    return redirectWithFlash(`/login?redirectTo=${encodeURIComponent(back)}`, {
      kind: "info",
      message:
        form.intent === "enter"
          ? "Sign in or create an account to enter the giveaway. Your answer is kept."
          : "Sign in or create an account to add your entries to the cart. Your choices are kept.",
    });
  }
  if (form.intent === "claim") {
    const result = await claimPrize(db, { drawId: args.drawId, userId: user.id, choice: form.choice, now: new Date() });
    if (!result.ok) return data({ message: result.problem }, { status: 400 });
    return redirectWithFlash(`/giveaways/${args.slug}`, {
      kind: "success",
      message:
        result.choice === "cash"
          ? "You chose the cash alternative. We will be in touch to pay it."
          : "You chose the prize. We will be in touch to arrange it.",
    });
  }
  if (form.answer === null) return data({ message: "Choose an answer to the question" }, { status: 400 });
  if (form.picks === null) {
    return data({ message: "Type the numbers you want as whole numbers, separated by commas" }, { status: 400 });
  }
  const now = new Date();
  if (form.intent === "enter") {
    const result = await enterGiveaway(db, {
      drawId: args.drawId,
      userId: user.id,
      answer: form.answer,
      confirmedAdult: form.adult,
      now,
    });
    if (!result.ok) return data({ message: result.problem.message }, { status: 400 });
    return redirectWithFlash(`/giveaways/${args.slug}`, {
      kind: "success",
      message: `You're in: your entry number is ${result.numbers[0]}. Good luck!`,
    });
  }
  const result = await addEntriesToCart(db, {
    userId: user.id,
    drawId: args.drawId,
    entriesPerUnit: form.bundle,
    answer: form.answer,
    confirmedAdult: form.adult,
    picks: form.picks,
    // Spending limits are checked on what the bundle costs this member.
    ...(await membershipBuyer(db, user.id, now)),
    now,
  });
  if (!result.ok) return data({ message: result.problem.message }, { status: 400 });
  const entries = countOf(result.entries, "entry", "entries");
  return redirectWithFlash("/cart", { kind: "success", message: `${entries} for ${result.title} added to your cart.` });
}
