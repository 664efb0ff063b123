import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { createGunzip, createGzip } from "node:zlib";
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from "age-encryption";
import tar from "tar-stream";

/**
 * The backup file (docs/backup.md, "What is inside"): a gzipped tar whose members are the
 * backup's files, so `tar -tzf` lists them. A sealed archive encrypts every member with age:
 * `backup-key.age` comes first and holds an age key made for this backup alone, encrypted with
 * the operator's passphrase; every other member is `<name>.age`, encrypted to that key. The
 * passphrase's slow key derivation runs once per backup, not once per file, and the standard
 * `age` tool opens each member (`age -d -i backup-key.age tables/users.jsonl.age`).
 */

export const KEY_MEMBER = "backup-key.age";
/** The one member written in clear in a sealed archive: what it is and how to open it by hand. */
const README_MEMBER = "README.txt";
const SEALED_SUFFIX = ".age";
/** age's own default: a second or more of CPU and 256 MiB of memory, once per backup. */
const DEFAULT_WORK_FACTOR = 18;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

export type Seal = {
  passphrase: string;
  /** scrypt's work factor (log2 N) for the passphrase; lower only in tests. */
  workFactor?: number;
};

export type ArchiveWriter = {
  /** Adds a member from bytes in memory. */
  addBytes(name: string, bytes: Uint8Array): Promise<void>;
  /** Adds a member from a file of `size` bytes, streamed. */
  addFile(name: string, file: string, size: number): Promise<void>;
  /** Ends the archive and waits for the file to be written. */
  finish(): Promise<void>;
  /** Stops writing after a failure; the caller removes the file. */
  abort(): void;
};

type Chunks = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * age works on web streams. The app is compiled with the DOM's types, which lack `from` and
 * async iteration; Node's own streams have both.
 */
const webStream = (chunks: Chunks) => NodeReadableStream.from(chunks) as unknown as ReadableStream<Uint8Array>;
const chunksOf = (stream: ReadableStream<Uint8Array>) => stream as unknown as AsyncIterable<Uint8Array>;
/** A tar member's bytes, as tar-stream hands them (Buffers). */
const bytesOf = (entry: AsyncIterable<unknown>) => entry as AsyncIterable<Buffer>;

type Header = { name: string; size: number; mode: number; mtime: Date };

/** Writes one member from `chunks`, waiting whenever the archive asks to. */
function addMember(pack: tar.Pack, header: Header, chunks: Chunks) {
  return new Promise<void>((resolve, reject) => {
    const entry = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    (async () => {
      for await (const chunk of chunks) {
        if (!entry.write(chunk)) await new Promise<void>((drained) => entry.once("drain", () => drained()));
      }
      entry.end(null);
    })().catch((error: unknown) => {
      entry.destroy(error as Error);
      reject(error);
    });
  });
}

/**
 * Starts writing an archive to `out` (mode 0600). With a seal, every member but the README is
 * encrypted; without one, members are written as they are.
 */
export async function createArchive(out: string, seal: Seal | null, readme = ""): Promise<ArchiveWriter> {
  const pack = tar.pack();
  const written = pipelineAsync(pack, createGzip({ level: 6 }), createWriteStream(out, { mode: 0o600 }));
  written.catch(() => {}); // awaited in finish(); an earlier failure is the one reported
  const mtime = new Date();
  const header = (name: string, size: number) => ({ name, size, mode: 0o600, mtime });

  let encrypter: Encrypter | null = null;
  if (seal) {
    const identity = await generateX25519Identity();
    const keyFile = new Encrypter();
    keyFile.setScryptWorkFactor(seal.workFactor ?? DEFAULT_WORK_FACTOR);
    keyFile.setPassphrase(seal.passphrase);
    const sealedKey = await keyFile.encrypt(`${identity}\n`);
    await addMember(pack, header(KEY_MEMBER, sealedKey.byteLength), [sealedKey]);
    if (readme) {
      const text = Buffer.from(readme);
      await addMember(pack, header(README_MEMBER, text.byteLength), [text]);
    }
    encrypter = new Encrypter();
    encrypter.addRecipient(await identityToRecipient(identity));
  }

  return {
    async addBytes(name, bytes) {
      if (!encrypter) return addMember(pack, header(name, bytes.byteLength), [bytes]);
      const sealed = await encrypter.encrypt(bytes);
      return addMember(pack, header(name + SEALED_SUFFIX, sealed.byteLength), [sealed]);
    },
    async addFile(name, file, size) {
      let read = 0;
      const counted = (async function* () {
        for await (const chunk of createReadStream(file)) {
          read += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
        if (read !== size) throw new ArchiveError(`${file} changed while it was archived`);
      })();
      if (!encrypter) return addMember(pack, header(name, size), counted);
      const sealed = await encrypter.encrypt(webStream(counted));
      return addMember(pack, header(name + SEALED_SUFFIX, sealed.size(size)), chunksOf(sealed));
    },
    async finish() {
      pack.finalize();
      await written;
    },
    abort() {
      pack.destroy();
    },
  };
}

/** What `readArchive` hands on for each member: its name without `.age`, and its bytes, opened. */
type OnMember = (name: string, pieces: AsyncIterable<Uint8Array>) => Promise<void>;

/**
 * Reads the archive in `file` member by member, in order, opening sealed members with
 * `passphrase`; `onMember` must consume each member's pieces before the next is read. Answers
 * whether the archive was sealed. A sealed archive whose first member is not its key, or that
 * holds a member in clear (other than the README), is refused.
 */
export async function readArchive(file: string, passphrase: string | null, onMember: OnMember) {
  const extract = tar.extract();
  // pipeline, unlike pipe, hands a read error (a missing file, a damaged gzip) on to the reader.
  const unpacked = pipeline(createReadStream(file), createGunzip(), () => {});
  unpacked.on("error", (error) => extract.destroy(error));
  unpacked.pipe(extract);

  let decrypter: Decrypter | null = null;
  let first = true;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type !== "file") throw new ArchiveError(`The archive holds ${JSON.stringify(name)}, which is not a file`);
      if (first && name === KEY_MEMBER) {
        decrypter = await openKey(await collect(bytesOf(entry)), passphrase);
      } else if (decrypter && name === README_MEMBER) {
        entry.resume();
      } else if (decrypter) {
        if (!name.endsWith(SEALED_SUFFIX)) {
          throw new ArchiveError(`${name} is in clear in a sealed archive: it was not written by npm run backup`);
        }
        const opened = await decrypter.decrypt(webStream(bytesOf(entry))).catch((error: Error) => {
          throw new ArchiveError(`${name} does not open with this backup's key: ${error.message}`);
        });
        await onMember(name.slice(0, -SEALED_SUFFIX.length), damagedAs(name, chunksOf(opened)));
      } else if (name === KEY_MEMBER) {
        throw new ArchiveError(
          `The archive's ${KEY_MEMBER} is not its first member: it was not written by npm run backup`,
        );
      } else {
        await onMember(name, bytesOf(entry));
      }
      first = false;
    }
  } finally {
    unpacked.destroy(); // a refusal stops reading the file
  }
  return { sealed: decrypter !== null };
}

/** A sealed member's bytes; age checks each piece, and a piece that fails says which member. */
async function* damagedAs(name: string, pieces: AsyncIterable<Uint8Array>) {
  try {
    yield* pieces;
  } catch (error) {
    throw new ArchiveError(`${name} is damaged: ${(error as Error).message}`);
  }
}

async function collect(pieces: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  for await (const piece of pieces) chunks.push(piece);
  return Buffer.concat(chunks);
}

/** The backup's own key, from `backup-key.age` and the passphrase. */
async function openKey(sealedKey: Uint8Array, passphrase: string | null) {
  if (!passphrase) {
    throw new ArchiveError(
      "This backup is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with, and run again.",
    );
  }
  const withPassphrase = new Decrypter();
  withPassphrase.addPassphrase(passphrase);
  const identity = await withPassphrase.decrypt(sealedKey, "text").catch(() => {
    throw new ArchiveError(
      "BACKUP_PASSPHRASE does not open this backup: it was made with another passphrase (or its key is damaged).",
    );
  });
  const decrypter = new Decrypter();
  decrypter.addIdentity(identity.trim());
  return decrypter;
}
