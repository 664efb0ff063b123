const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value from an address, a form or a provider has the shape of a row id. Checked before
 * querying, so a mangled link is a 404 or a message, never a database error about a malformed UUID.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
