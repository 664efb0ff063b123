import { isUuid } from "~/server/db/uuid";

/** Whether a value from an address or a provider could be an order's id (see `isUuid`). */
export function isOrderId(value: unknown): value is string {
  return isUuid(value);
}
