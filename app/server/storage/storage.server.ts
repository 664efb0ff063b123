import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.server";
import { checkKey, contentTypeOf, isPrivateKey, isValidKey, MEDIA_PATH, PRIVATE_PREFIX, type Storage } from "./keys";
import { type S3Setting, s3SettingsOf, s3Storage } from "./s3.server";

export {
  cacheControlOf,
  isPrivateKey,
  isValidKey,
  MEDIA_PATH,
  PRIVATE_PREFIX,
  type Storage,
} from "./keys";

/**
 * Files on the local disk: public ones under `root`, private ones under `privateRoot` (by
 * default `root` + "-private", beside it, never served). Writes go through a temporary file, so
 * a reader never sees half a file.
 */
export function localStorage(root: string, privateRoot = `${root.replace(/[\\/]+$/, "")}-private`): Storage {
  const fileOf = (key: string) =>
    isPrivateKey(key)
      ? path.join(privateRoot, ...key.slice(PRIVATE_PREFIX.length).split("/"))
      : path.join(root, ...key.split("/"));
  async function* walk(base: string, prefix: string): AsyncGenerator<string> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(base, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory()) yield* walk(path.join(base, entry.name), `${key}/`);
      else if (isValidKey(key)) yield key;
    }
  }
  return {
    publicBase: MEDIA_PATH,
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
      if (isPrivateKey(key)) throw new Error(`${key} is private and has no address`);
      return `${MEDIA_PATH}${key}`;
    },
    async exists(key) {
      if (!isValidKey(key)) return false;
      try {
        await stat(fileOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async *list(prefix = "") {
      for await (const key of walk(root, "")) if (key.startsWith(prefix)) yield key;
      for await (const key of walk(privateRoot, PRIVATE_PREFIX)) if (key.startsWith(prefix)) yield key;
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

export type StorageEnv = Pick<Env, "DATA_DIR"> & Partial<Pick<Env, S3Setting>>;

/** The local store of DATA_DIR (also the source of `npm run media:migrate`). */
export function localStorageFor(env: Pick<Env, "DATA_DIR">) {
  const root = path.join(env.DATA_DIR, "media");
  return cached(`local:${root}`, () => localStorage(root));
}

/** The storage the site is configured with: the S3 bucket when S3_BUCKET is set, else the local disk. */
export function storageFor(env: StorageEnv): Storage {
  const settings = s3SettingsOf(env);
  if (settings) return cached(`s3:${settings.endpoint ?? ""}:${settings.bucket}`, () => s3Storage(settings));
  return localStorageFor(env);
}

function cached(id: string, make: () => Storage) {
  let storage = storages.get(id);
  if (!storage) {
    storage = make();
    storages.set(id, storage);
  }
  return storage;
}
