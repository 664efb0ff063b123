import { createReadStream } from "node:fs";
import type { Readable, Writable } from "node:stream";

/**
 * Just enough of the tar format (POSIX ustar, with a PAX record for names over 100 bytes) to
 * write a backup and read it back, so a backup needs no tar program and opens with any
 * `tar -xzf` for a look inside. Only regular files: no links, no directories, no modes.
 */

const BLOCK = 512;

function writeField(header: Buffer, offset: number, length: number, value: string) {
  header.write(value, offset, length, "utf8");
}

function octal(value: number, length: number) {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

function headerBlock(name: string, size: number, type: "0" | "x", mtime: number) {
  const header = Buffer.alloc(BLOCK);
  writeField(header, 0, 100, name);
  writeField(header, 100, 8, "0000600\0");
  writeField(header, 108, 8, "0000000\0");
  writeField(header, 116, 8, "0000000\0");
  writeField(header, 124, 12, octal(size, 12));
  writeField(header, 136, 12, octal(Math.floor(mtime / 1000), 12));
  writeField(header, 148, 8, "        ");
  writeField(header, 156, 1, type);
  writeField(header, 257, 6, "ustar\0");
  writeField(header, 263, 2, "00");
  let sum = 0;
  for (const byte of header) sum += byte;
  writeField(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** A PAX record "<length> path=<name>\n", whose length counts its own digits. */
function paxPath(name: string) {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return Buffer.from(`${length}${body}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes entries to `out` (a gzip stream, usually), waiting whenever it asks to. */
export function tarWriter(out: Writable) {
  const mtime = Date.now();
  async function write(chunk: Buffer | Uint8Array) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", resolve));
  }
  async function header(name: string, size: number) {
    if (Buffer.byteLength(name) > 100) {
      const record = paxPath(name);
      await write(headerBlock("././@PaxHeader", record.length, "x", mtime));
      await write(record);
      await write(padding(record.length));
    }
    await write(headerBlock(name.slice(0, 100), size, "0", mtime));
  }
  return {
    async addBytes(name: string, bytes: Uint8Array) {
      await header(name, bytes.byteLength);
      await write(bytes);
      await write(padding(bytes.byteLength));
    },
    async addFile(name: string, file: string, size: number) {
      await header(name, size);
      let written = 0;
      for await (const chunk of createReadStream(file)) {
        written += (chunk as Buffer).length;
        await write(chunk as Buffer);
      }
      if (written !== size) throw new Error(`${file} changed while it was archived`);
      await write(padding(size));
    },
    /** The two empty blocks that end an archive; the caller ends `out`. */
    async finish() {
      await write(Buffer.alloc(BLOCK * 2));
    },
  };
}

/** Pulls exact byte counts out of a stream of chunks. */
function byteReader(stream: Readable) {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buffered: Buffer = Buffer.alloc(0);
  let ended = false;
  async function fill(wanted: number) {
    while (buffered.length < wanted && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else buffered = buffered.length ? Buffer.concat([buffered, next.value]) : next.value;
    }
  }
  return {
    async take(length: number) {
      await fill(length);
      const taken = buffered.subarray(0, length);
      buffered = buffered.subarray(taken.length);
      return taken;
    },
    /** Yields `length` bytes in pieces, without holding them all at once. */
    async *pieces(length: number) {
      let left = length;
      while (left > 0) {
        await fill(1);
        if (buffered.length === 0) throw new TarError("The archive ends in the middle of a file");
        const piece = buffered.subarray(0, Math.min(left, buffered.length));
        buffered = buffered.subarray(piece.length);
        left -= piece.length;
        yield piece;
      }
    },
  };
}

export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TarError";
  }
}

const text = (header: Buffer, offset: number, length: number) => {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
};

function parseHeader(header: Buffer) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  const stored = Number.parseInt(text(header, 148, 8).trim(), 8);
  if (stored !== sum) throw new TarError("This is not a backup archive (a damaged or foreign tar header)");
  const prefix = text(header, 345, 155);
  const name = text(header, 0, 100);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    size: Number.parseInt(text(header, 124, 12).trim() || "0", 8),
    type: text(header, 156, 1) || "0",
  };
}

function paxRecords(body: Buffer) {
  const records = new Map<string, string>();
  for (const line of body.toString("utf8").split("\n")) {
    const match = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (match) records.set(match[1]!, match[2]!);
  }
  return records;
}

/**
 * Reads the regular files of a tar stream in order, handing each one's name and bytes (in
 * pieces) to `onFile`, which must consume them before the next file is read.
 */
export async function readTar(
  stream: Readable,
  onFile: (name: string, size: number, pieces: AsyncIterable<Buffer>) => Promise<void>,
) {
  const reader = byteReader(stream);
  let longName: string | undefined;
  for (;;) {
    const block = await reader.take(BLOCK);
    if (block.length === 0) return;
    if (block.length < BLOCK) throw new TarError("The archive ends in the middle of a header");
    if (block.every((byte) => byte === 0)) return;
    const entry = parseHeader(block);
    const skip = padding(entry.size).length;
    if (entry.type === "x") {
      longName = paxRecords(await reader.take(entry.size)).get("path") ?? longName;
    } else if (entry.type === "0" || entry.type === "\0") {
      const name = longName ?? entry.name;
      longName = undefined;
      await onFile(name, entry.size, reader.pieces(entry.size));
    } else {
      longName = undefined;
      for await (const _ of reader.pieces(entry.size));
    }
    await reader.take(skip);
  }
}
