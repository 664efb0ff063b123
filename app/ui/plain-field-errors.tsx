/**
 * A field's messages for the forms written in plain markup (applying with a car on an event page,
 * reporting a car): those pages keep to their first-load JavaScript budget by leaving out the
 * form kit, icons included.
 */
export function PlainFieldErrors({ id, errors }: { id: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="space-y-0.5 text-sm font-medium text-red-700 dark:text-red-300">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}
