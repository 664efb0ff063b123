/** A column heading: its label alone, or with classes of its own (alignment, width, hiding on phones). */
export type Column = string | { label: string; className: string };

/**
 * A table's header row. Every heading is marked as a column header so screen readers announce it with
 * each cell below; `cellClassName` is what all the headings share, such as their padding.
 */
export function HeaderRow({
  columns,
  cellClassName,
  className,
}: {
  columns: Column[];
  cellClassName?: string;
  className?: string;
}) {
  return (
    <tr className={className}>
      {columns.map((column) => {
        const { label, className: own } = typeof column === "string" ? { label: column, className: "" } : column;
        return (
          <th key={label} scope="col" className={[cellClassName, own].filter(Boolean).join(" ") || undefined}>
            {label}
          </th>
        );
      })}
    </tr>
  );
}
