import { Badge, type BadgeTone } from "~/ui/badge";
import type { OrderStatus } from "../../../db/schema";
import { ORDER_STATUS_LABELS } from "./admin-schemas";

const STATUS_TONES: Record<OrderStatus, BadgeTone> = {
  pending: "warning",
  paid: "success",
  fulfilled: "success",
  expired: "neutral",
  cancelled: "neutral",
  refunded: "danger",
  partly_refunded: "danger",
};

/** An order's state as staff and the buyer both see it: "Paid", "Partly refunded"… */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{ORDER_STATUS_LABELS[status]}</Badge>;
}
