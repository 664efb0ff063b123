/**
 * A CSV file for the browser to save as `filename`. Staff lists hold members' names and emails:
 * the answer is kept out of shared caches and not stored.
 */
export function csvDownload(csv: string, filename: string) {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
