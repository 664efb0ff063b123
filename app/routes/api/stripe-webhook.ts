import { followUpPayments } from "~/features/checkout/payment-jobs.server";
import { handlePaymentNotification } from "~/features/checkout/payment-notifications.server";
import { runtimeContext } from "~/server/context.server";
import { getLog } from "~/server/log.server";
import type { Route } from "./+types/stripe-webhook";

const json = (body: object, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/** Only Stripe's POSTs are answered; a browser opening the address learns nothing. */
export function loader() {
  return json({ error: "Method not allowed" }, 405);
}

/**
 * Stripe's payment notifications (docs/payments.md lists the events to enable). The body is read
 * as raw bytes, exactly as sent: the signature is over those bytes, and nothing in server.ts
 * parses request bodies before the router. Stripe sends no Origin header, so server.ts exempts
 * this one path from its Origin check (ADR 0004); the signature check replaces it. A 2xx tells
 * Stripe to stop; an error makes it retry, which is safe because handling is idempotent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return json({ error: "Method not allowed" }, 405);
  const runtime = context.get(runtimeContext);
  const result = await handlePaymentNotification(runtime.db, runtime.payments, {
    rawBody: new Uint8Array(await request.arrayBuffer()),
    signature: request.headers.get("stripe-signature"),
    now: new Date(),
  });
  const log = getLog();
  if (result.kind === "refused") {
    log.warn({ reason: result.message }, "payment notification refused: bad signature");
    return json({ error: "Invalid signature" }, 400);
  }
  if (result.kind === "handled") {
    log.info({ event: result.eventId, type: result.type, outcome: result.outcome }, "payment notification handled");
    await followUpPayments(runtime, result.followUps);
  }
  return json({ received: true, result: result.kind });
}
