import { describe, expect, it } from "vitest";
import { attendeesCsv } from "~/features/gate/attendees-csv";
import { csvCell, toCsv } from "~/ui/csv-download";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("Smith, Jo")).toBe('"Smith, Jo"');
    expect(csvCell('The "Stig"')).toBe('"The ""Stig"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(12)).toBe("12");
  });

  it("keeps spreadsheet formulas from running", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+44 7700")).toBe("'+44 7700");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("Jo=Smith")).toBe("Jo=Smith");
  });
});

describe("attendeesCsv", () => {
  it("writes a header and one line per ticket, CRLF-separated", () => {
    const csv = attendeesCsv([
      {
        id: "1",
        name: "=cmd|' /C calc'!A0",
        email: "a@example.test",
        order: "PL-000042",
        ticketType: "Day, Saturday",
        codeEnd: "7KQ2",
        status: "checked_in",
        checkedInAt: "10:42",
        checkedInBy: "Sam",
      },
    ]);
    expect(csv).toBe(
      "Name,Email,Ticket type,Code ends,Status,Checked in,Checked in by\r\n" +
        "'=cmd|' /C calc'!A0,a@example.test,\"Day, Saturday\",7KQ2,Checked in,10:42,Sam\r\n",
    );
    expect(toCsv([])).toBe("\r\n");
  });
});
