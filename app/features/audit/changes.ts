// What an edit changed, in the words the audit log keeps: every organizer editor (events, ticket
// types, draws) compares the row it locked with the values it is about to write.

const auditValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** Whether two values of a column are the same: dates by their instant, anything else by its JSON. */
export const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date
    ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime()
    : JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed between a row and the values about to replace it: the names of the fields that
 * differ, and for the `keyFields` among them the old and new values (long texts are named only).
 */
export function changesBetween<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  keyFields: ReadonlySet<string>,
) {
  const changed: string[] = [];
  const values: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after) as (keyof T & string)[]) {
    if (same(before[field], after[field])) continue;
    changed.push(field);
    if (keyFields.has(field)) values[field] = { from: auditValue(before[field]), to: auditValue(after[field]) };
  }
  return { changed, values };
}
