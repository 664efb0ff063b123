/** The order's human reference (PL-000123), for receipts and searches. */
export function formatOrderNumber(number: number) {
  return `PL-${String(number).padStart(6, "0")}`;
}

/** "PL-000123", "pl 123" or "123" → 123; null when it is not an order number. */
export function parseOrderNumber(input: string): number | null {
  const match = /^\s*(?:pl[\s-]*)?0*(\d{1,15})\s*$/i.exec(input);
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}
