import {
  base32,
  fromBase32,
  HMAC_SIGNATURE_LENGTH,
  normaliseTicketCode,
  splitSignedCode,
} from "~/features/tickets/code-format";
import { type AdmissionList, CODE_HASH_LENGTH, type GateDecision, type GateDirection } from "./offline-rules";

/**
 * The gate's own storage on the device (docs/gate.md), in the browser's IndexedDB: the admission
 * list of each event got ready for, what this device admitted since, and the outbox of scans made
 * offline. Nothing here leaves the device but the outbox, sent back to the server.
 */

const DB_NAME = "pitlane-gate";
const LISTS = "lists";
const OUTBOX = "outbox";

/**
 * An event's list on this device, with what the device admitted since (code hash → the first
 * time) and, at an event with re-entry, the latest way each code went through here (`moves`).
 */
export type StoredList = {
  list: AdmissionList;
  admitted: Record<string, string>;
  moves?: Record<string, Move>;
  savedAt: string;
};

/** The latest entry or exit this device scanned for a code. */
export type Move = { direction: GateDirection; at: string };

/** A scan waiting to be sent: its id, what was read, when, which way, and what the device decided. */
export type QueuedScan = {
  id: string;
  eventId: string;
  value: string;
  at: string;
  local: GateDecision;
  direction?: GateDirection;
};

/** What a scan that let someone through changes in the stored list: the first admission, the latest move. */
export function withMove(stored: StoredList, hash: string, move: Move): StoredList {
  const admitted =
    move.direction === "in" && !stored.admitted[hash] ? { ...stored.admitted, [hash]: move.at } : stored.admitted;
  return { ...stored, admitted, moves: { ...stored.moves, [hash]: move } };
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(LISTS)) db.createObjectStore(LISTS);
      if (!db.objectStoreNames.contains(OUTBOX)) {
        db.createObjectStore(OUTBOX, { keyPath: "id" }).createIndex("eventId", "eventId");
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs `work` in one transaction over `stores` and resolves with its result once it commits. */
async function inTransaction<T>(
  stores: string[],
  mode: IDBTransactionMode,
  work: (transaction: IDBTransaction) => IDBRequest<T> | undefined,
): Promise<T | undefined> {
  const db = await open();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const transaction = db.transaction(stores, mode);
      const request = work(transaction);
      transaction.oncomplete = () => resolve(request?.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

export function readList(eventId: string) {
  return inTransaction<StoredList>([LISTS], "readonly", (t) => t.objectStore(LISTS).get(eventId));
}

export async function saveList(stored: StoredList) {
  await inTransaction([LISTS], "readwrite", (t) => t.objectStore(LISTS).put(stored, stored.list.eventId));
}

/** Records a scan made offline: the outbox entry and, when it let someone through, the move. */
export async function recordScan(scan: QueuedScan, passed: { hash: string } | null) {
  await inTransaction([LISTS, OUTBOX], "readwrite", (t) => {
    t.objectStore(OUTBOX).put(scan);
    if (passed) putMove(t, scan.eventId, passed.hash, { direction: scan.direction ?? "in", at: scan.at });
    return undefined;
  });
}

/** Records what this device let through while online, so a scan of it offline later knows. */
export async function recordMove(eventId: string, hash: string, move: Move) {
  await inTransaction([LISTS], "readwrite", (t) => {
    putMove(t, eventId, hash, move);
    return undefined;
  });
}

function putMove(t: IDBTransaction, eventId: string, hash: string, move: Move) {
  const lists = t.objectStore(LISTS);
  const read = lists.get(eventId);
  read.onsuccess = () => {
    const stored = read.result as StoredList | undefined;
    if (stored) lists.put(withMove(stored, hash, move), eventId);
  };
}

export async function outboxOf(eventId: string): Promise<QueuedScan[]> {
  const scans =
    (await inTransaction<QueuedScan[]>([OUTBOX], "readonly", (t) =>
      t.objectStore(OUTBOX).index("eventId").getAll(eventId),
    )) ?? [];
  return scans.sort((a, b) => a.at.localeCompare(b.at));
}

/** Takes sent scans out of the outbox once the server has answered for them. */
export async function removeFromOutbox(ids: readonly string[]) {
  await inTransaction([OUTBOX], "readwrite", (t) => {
    const store = t.objectStore(OUTBOX);
    for (const id of ids) store.delete(id);
    return undefined;
  });
}

/** A code's hash as the list names it: SHA-256 in base64url, cut to the list's length. */
export async function hashOf(code: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "").slice(0, CODE_HASH_LENGTH);
}

const keys = new Map<string, Promise<CryptoKey>>();

function publicKey(pem: string) {
  let key = keys.get(pem);
  if (!key) {
    const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, "")), (char) => char.charCodeAt(0));
    key = crypto.subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
    keys.set(pem, key);
  }
  return key;
}

/**
 * What a scanned or typed value names, read as the server reads it: the plain code, and whether
 * its signature holds. A QR's Ed25519 signature is checked with the list's public key; an HMAC
 * signature (codes shown before Ed25519) only the server can check, so such a code counts as
 * signed and stands or falls by the list, which only holds real codes. A typed code has none.
 */
export async function readScanned(value: string, pem: string): Promise<{ code: string; signed: boolean } | null> {
  const trimmed = value.trim();
  if (!trimmed.includes(".")) {
    const code = normaliseTicketCode(trimmed);
    return code ? { code, signed: true } : null;
  }
  const split = splitSignedCode(trimmed);
  if (!split) return null;
  if (split.signature.length === HMAC_SIGNATURE_LENGTH) return { code: split.code, signed: true };
  const bytes = fromBase32(split.signature);
  if (bytes.length !== 64 || base32(bytes) !== split.signature) return { code: split.code, signed: false };
  try {
    const signed = await crypto.subtle.verify(
      { name: "Ed25519" },
      await publicKey(pem),
      bytes,
      new TextEncoder().encode(split.code),
    );
    return { code: split.code, signed };
  } catch {
    return { code: split.code, signed: false };
  }
}
