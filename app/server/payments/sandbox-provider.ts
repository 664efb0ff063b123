import type { PaymentGateway, PaymentState, StartPaymentInput } from "./payments.server";
import { PermanentPaymentError, WebhookSignatureError } from "./payments.server";

type SandboxSession = {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  status: PaymentState["status"];
  paymentReference: string | null;
  /** The paying card's funding type, as `pay` was told (debit unless said). */
  cardFunding: string;
  expiresAt: Date;
  idempotencyKey: string;
};

/** Across sandboxes, so ids stay unique in a database several tests share (as Stripe's are). */
let count = 0;

/**
 * A payment provider that lives in memory and behaves as Stripe Checkout does where the order
 * flow can tell: sessions made once per idempotency key, paid, left unpaid by a bank, expired,
 * refunded once per key, and a provider that cannot be reached. Tests drive the buyer's side
 * with `pay`, and the payment then exists only at the "provider" until something asks for it,
 * which is what the reconciliation tests need.
 */
export function sandboxGateway() {
  const sessions = new Map<string, SandboxSession>();
  const refunds = new Map<string, { reference: string; paymentReference: string; amount: number }>();
  const calls: string[] = [];
  const controls = {
    /** Every call throws, as a provider that is down (or a network that is) would. */
    unreachable: false,
    /** The next refunds are refused for good (already refunded, say). */
    refuseRefunds: false,
  };

  const stateOf = (session: SandboxSession): PaymentState => ({
    sessionId: session.id,
    status: session.status,
    orderId: session.orderId,
    paymentReference: session.paymentReference,
    amount: session.amount,
    currency: session.currency,
    redirectUrl: session.status === "open" ? `https://pay.example/${session.id}` : null,
  });
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No such session: ${sessionId}`);
    return session;
  };
  const reach = (call: string) => {
    calls.push(call);
    if (controls.unreachable) throw new Error("connect ECONNREFUSED");
  };

  const gateway: PaymentGateway = {
    provider: "stripe",
    async startPayment(input: StartPaymentInput) {
      reach("startPayment");
      const existing = [...sessions.values()].find((session) => session.idempotencyKey === input.idempotencyKey);
      const session = existing ?? {
        id: `cs_sandbox_${++count}`,
        orderId: input.order.id,
        amount: input.lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0),
        currency: input.order.currency,
        status: "open" as const,
        paymentReference: null,
        cardFunding: "debit",
        expiresAt: input.expiresAt,
        idempotencyKey: input.idempotencyKey,
      };
      sessions.set(session.id, session);
      return { sessionId: session.id, redirectUrl: `https://pay.example/${session.id}` };
    },
    async expirePayment(sessionId) {
      reach("expirePayment");
      const session = find(sessionId);
      if (session.status === "open") session.status = "expired";
      return stateOf(session);
    },
    async retrievePayment(sessionId) {
      reach("retrievePayment");
      return stateOf(find(sessionId));
    },
    async refund({ paymentReference, amount, idempotencyKey }) {
      reach("refund");
      if (controls.refuseRefunds) throw new PermanentPaymentError("Charge has already been refunded");
      const existing = refunds.get(idempotencyKey);
      if (existing) return { reference: existing.reference };
      const reference = `re_sandbox_${++count}`;
      refunds.set(idempotencyKey, { reference, paymentReference, amount });
      return { reference };
    },
    async cardFunding(paymentReference) {
      if (controls.unreachable) throw new Error("connect ECONNREFUSED");
      return (
        [...sessions.values()].find((session) => session.paymentReference === paymentReference)?.cardFunding ?? null
      );
    },
    parseWebhook() {
      throw new WebhookSignatureError("The sandbox sends no notifications");
    },
  };

  return {
    gateway,
    controls,
    sessions,
    refunds,
    calls,
    /** The buyer pays an open session (a bank payment: it completes unpaid, and `settleBank` follows). */
    pay(sessionId: string, options: { amount?: number; bank?: boolean; cardFunding?: "credit" | "debit" } = {}) {
      const session = find(sessionId);
      if (session.status !== "open") throw new Error(`Session ${sessionId} is ${session.status}`);
      if (options.cardFunding) session.cardFunding = options.cardFunding;
      session.status = options.bank ? "unpaid" : "paid";
      session.paymentReference = `pi_sandbox_${++count}`;
      if (options.amount !== undefined) session.amount = options.amount;
      return stateOf(session);
    },
    /** A bank payment left unpaid by `pay(…, { bank: true })` arrives. */
    settleBank(sessionId: string) {
      const session = find(sessionId);
      if (session.status !== "unpaid") throw new Error(`Session ${sessionId} is ${session.status}`);
      session.status = "paid";
      return stateOf(session);
    },
    /** The provider's own timeout. */
    expire(sessionId: string) {
      find(sessionId).status = "expired";
    },
    sessionOf(orderId: string) {
      return [...sessions.values()].find((session) => session.orderId === orderId) ?? null;
    },
  };
}
