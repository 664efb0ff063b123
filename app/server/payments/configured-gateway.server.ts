import { sandboxGateway } from "~/server/payments/sandbox-provider.server";
import type { Env } from "../env.server";
import type { PaymentGateway } from "./payments.server";
import { stripeGateway } from "./stripe.server";

/** Stripe Checkout or the built-in test checkout, as PAYMENTS chose (parseEnv settles it). */
export function paymentGatewayFor(
  env: Pick<Env, "PAYMENTS" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_URL" | "SITE_URL">,
): PaymentGateway {
  if (env.PAYMENTS === "stripe" && env.STRIPE_SECRET_KEY) {
    return stripeGateway({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
      apiUrl: env.STRIPE_API_URL ?? null,
    });
  }
  if (env.PAYMENTS === "stripe") throw new Error("PAYMENTS=stripe needs STRIPE_SECRET_KEY");
  return sandboxGateway({ siteUrl: env.SITE_URL });
}
