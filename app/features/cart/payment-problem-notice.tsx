import { Notice } from "~/ui/form";

/** The last payment problem as the cart page receives it: formatted on the server. */
export type PaymentProblemView = {
  kind: "declined" | "cancelled" | "expired";
  reason: string;
  orderNumber: string;
  /** When the order ended, in the site's time zone. */
  when: string;
};

const NEXT_STEP: Record<PaymentProblemView["kind"], string> = {
  declined:
    "Nothing was charged and your cart is as you left it. Check your card details or use another card, then press Pay to try again.",
  cancelled: "Nothing was charged and your cart is as you left it. Press Pay when you are ready.",
  expired:
    "Nothing was charged. The places held for you were given back, so check your cart, then press Pay to try again.",
};

const HEADING: Record<PaymentProblemView["kind"], string> = {
  declined: "Your payment did not go through",
  cancelled: "Payment cancelled",
  expired: "Your hold ran out before the payment arrived",
};

/**
 * Why the last try at paying failed and what to do next, in place on the cart until the next
 * try (a message that vanishes on a timer fails people who read slowly: WCAG 2.2.1).
 */
export function PaymentProblemNotice({ problem }: { problem: PaymentProblemView }) {
  return (
    <Notice kind="error" id="payment-problem">
      <p className="font-bold">{HEADING[problem.kind]}</p>
      <p>
        {problem.reason}. Order {problem.orderNumber}, {problem.when}.
      </p>
      <p>{NEXT_STEP[problem.kind]}</p>
    </Notice>
  );
}
