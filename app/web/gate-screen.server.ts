import { data, type RouterContextProvider } from "react-router";
import { changeFulfilment, collectionsAtGate } from "~/features/fulfilment/fulfilment.server";
import { admitAtGate, type GateResult } from "~/features/gate/gate.server";
import type { GateRole } from "~/features/gate/gate-roles";
import { letInByHand } from "~/features/gate/gate-staff.server";
import { LetInSchema } from "~/features/gate/schemas";
import { requestContext, runtimeContext, type SessionUser } from "~/server/context.server";

/**
 * What the gate's page does with a form (docs/gate.md), for the organizer's check-in tab and a
 * gate worker's page alike: a code scanned or typed, merch handed over, or (a supervisor only)
 * someone let in by hand with a reason. Every answer carries what the big panel shows.
 */
export async function gateScreenAction(input: {
  form: FormData;
  context: Readonly<RouterContextProvider>;
  user: SessionUser;
  role: GateRole;
  eventId: string;
}) {
  const { form, context, user, role, eventId } = input;
  const { db, env, outbox } = context.get(runtimeContext);
  const intent = form.get("intent");
  // Merch bought for collection here, handed over at the gate (docs/fulfilment.md).
  if (intent === "handover") {
    const orderId = String(form.get("orderId") ?? "");
    const mine = (await collectionsAtGate(db, { eventId, orderId })).length > 0;
    if (!mine) return data({ problem: "This order is not waiting here." }, { status: 404 });
    const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
    const ip = context.get(requestContext).ip;
    const outcome = await changeFulfilment(
      db,
      { intent: "collected", orderId },
      { actorId: user.id, brand, now: new Date(), ip },
    );
    if (!outcome.ok) return data({ problem: outcome.message }, { status: outcome.status });
    if (outcome.email) await outbox.sendEmail(outcome.email);
    return { handedOver: outcome.reference };
  }
  if (intent === "let-in") {
    const ticketId = String(form.get("ticketId") ?? "");
    const parsed = LetInSchema.safeParse({ ticketId, reason: form.get("reason") ?? "" });
    if (!parsed.success) {
      return data({ letIn: { ticketId, problem: parsed.error.issues[0]!.message } }, { status: 400 });
    }
    const outcome = await letInByHand(db, {
      eventId,
      ...parsed.data,
      staff: { id: user.id, role },
      now: new Date(),
    });
    if (!outcome.ok) return data({ letIn: { ticketId, problem: outcome.message } }, { status: outcome.status });
    const result: GateResult = { tone: "admitted", headline: outcome.headline, detail: parsed.data.reason };
    return { result, merch: [] };
  }
  const value = String(form.get("code") ?? "").slice(0, 200);
  if (!value.trim()) {
    return data(
      { result: { tone: "refused" as const, headline: "Enter the ticket's code", detail: null }, merch: [] },
      { status: 400 },
    );
  }
  const { buyerId, ...result } = await admitAtGate(db, {
    value,
    eventId,
    staffId: user.id,
    secret: env.AUTH_SECRET,
    now: new Date(),
    shownTo: role,
    direction: form.get("direction") === "out" ? "out" : "in",
  });
  const merch = buyerId && result.tone !== "refused" ? await collectionsAtGate(db, { eventId, userId: buyerId }) : [];
  return { result, merch };
}
