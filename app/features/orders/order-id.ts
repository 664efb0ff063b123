const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value from an address or a provider could be an order's id. Checked before querying,
 * so a mangled link is a 404 and never a database error about a malformed UUID.
 */
export function isOrderId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
