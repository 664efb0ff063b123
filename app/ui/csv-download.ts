/**
 * One CSV cell. Quoted when it holds a comma, quote or line break (RFC 4180). A cell that starts
 * with = + - @ (or a tab or carriage return) would run as a formula when the file is opened in a
 * spreadsheet, so it gets a leading apostrophe: a buyer's name can never become a command.
 */
export function csvCell(value: string | number | null | undefined) {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: (string | number | null | undefined)[][]) {
  return `${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

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
