import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.server";

/**
 * Where uploaded files live. Keys are content-addressed ("avatars/<sha256>.webp"), so a stored
 * file never changes and may be cached for a year. The local adapter keeps files under
 * DATA_DIR/media and the site serves them at /media/*; an object-store adapter (S3) implements
 * the same four calls and answers `url` with its own address.
 */
export type Storage = {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The address a browser loads the file from. */
  url(key: string): string;
  delete(key: string): Promise<void>;
  /** The stored bytes, for the /media/* route; null when there is no such file. */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
};

export const MEDIA_PATH = "/media/";

const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
  png: "image/png",
};

/** Lowercase path segments and one known extension: no "..", no absolute paths, no surprises. */
const KEY_PATTERN = /^(?:[a-z0-9][a-z0-9_-]{0,63}\/){0,4}[a-z0-9][a-z0-9_-]{0,127}\.([a-z0-9]{2,5})$/;

export function isValidKey(key: string) {
  const match = KEY_PATTERN.exec(key);
  return Boolean(match && CONTENT_TYPES[match[1]!]);
}

function contentTypeOf(key: string) {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

function checkKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
}

/** Files on the local disk, under `root`. Writes go through a temporary file, so a reader never sees half a file. */
export function localStorage(root: string): Storage {
  const fileOf = (key: string) => path.join(root, ...key.split("/"));
  return {
    async put(key, bytes, contentType) {
      checkKey(key);
      if (contentType !== contentTypeOf(key)) throw new Error(`${key} cannot be stored as ${contentType}`);
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    },
    url(key) {
      checkKey(key);
      return `${MEDIA_PATH}${key}`;
    },
    async delete(key) {
      checkKey(key);
      await rm(fileOf(key), { force: true });
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      try {
        return { bytes: await readFile(fileOf(key)), contentType: contentTypeOf(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
  };
}

const storages = new Map<string, Storage>();

/** The storage the site is configured with (local disk until an object store is added). */
export function storageFor(env: Pick<Env, "DATA_DIR">): Storage {
  const root = path.join(env.DATA_DIR, "media");
  let storage = storages.get(root);
  if (!storage) {
    storage = localStorage(root);
    storages.set(root, storage);
  }
  return storage;
}
