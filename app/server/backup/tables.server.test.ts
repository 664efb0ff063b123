import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { type Connection, loadTable, readLines, rowLine, type Table } from "./tables.server";

/** Values a row line must carry through a file as they are: every kind of line end and multi-byte characters. */
const AWKWARD = [
  "line\u2028separator",
  "paragraph\u2029separator",
  "next\u0085line",
  "carriage\rreturn\r\n",
  "Émile 🏎 ∑ 日本",
  '"quoted" \\ back',
  null,
  "",
];

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-backup-lines-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The bytes in pieces of `size` bytes, so multi-byte characters straddle the pieces. */
function inPieces(bytes: Buffer, size: number) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return Readable.from(pieces);
}

async function linesOf(input: AsyncIterable<Uint8Array>) {
  const lines: string[] = [];
  for await (const line of readLines(input)) lines.push(line);
  return lines;
}

/** A connection that only records the values of each insert. */
function recorder() {
  const inserted: unknown[][] = [];
  const connection: Connection = {
    query: async <T>(_text: string, params?: unknown[]) => {
      inserted.push(params ?? []);
      return [] as T[];
    },
    release() {},
  };
  return { connection, inserted };
}

const table: Table = {
  name: "notes",
  columns: [
    { name: "id", type: "integer", identity: false },
    { name: "body", type: "text", identity: false },
  ],
  primaryKey: ["id"],
};

describe("a row line", () => {
  it("is one line, with no character any reader takes for a line end, and parses back to its values", () => {
    const line = rowLine(AWKWARD);
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(JSON.parse(line)).toEqual(AWKWARD);
  });
});

describe("reading lines", () => {
  it("splits at newlines only and decodes characters cut between chunks, whatever the chunk size", async () => {
    const rows = [AWKWARD, ["1", "two"], AWKWARD.slice().reverse()];
    // Older backups hold U+2028 and U+2029 raw, as JSON.stringify writes them.
    const text = `${rows.map((row) => rowLine(row)).join("")}${JSON.stringify(AWKWARD)}\n`;
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
      const lines = await linesOf(inPieces(bytes, size));
      expect(lines.map((line) => JSON.parse(line))).toEqual([...rows, AWKWARD]);
    }
  });

  it("yields a last line that has no newline, and nothing for an empty stream", async () => {
    expect(await linesOf(inPieces(Buffer.from("a\n\nb é"), 1))).toEqual(["a", "", "b é"]);
    expect(await linesOf(Readable.from([]))).toEqual([]);
  });
});

describe("loading a table", () => {
  it("takes one row per line, even with line separators and carriage returns inside a line", async () => {
    const file = path.join(scratch, "notes.jsonl");
    writeFileSync(
      file,
      [
        // As JSON.stringify writes it (older backups): U+2028 and U+2029 raw.
        `${JSON.stringify(["1", "a\u2028b\u2029c"])}\n`,
        '["2", "\\u2028 Émile 🏎"]\n',
        // JSON allows a carriage return between values, and a line may end in CRLF.
        '["3",\r"cr"]\r\n',
        "\n",
        '["4", null]',
      ].join(""),
    );
    const { connection, inserted } = recorder();
    expect(await loadTable(connection, table, ["id", "body"], file)).toBe(4);
    expect(inserted).toEqual([["1", "a\u2028b\u2029c", "2", "\u2028 Émile 🏎", "3", "cr", "4", null]]);
  });
});
