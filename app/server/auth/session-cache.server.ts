import type { DatabaseHandle } from "../db/client.server";
import type { SessionUser } from "./session-user";

/** The channel on which the database announces a member's changed account or sessions (migration 0021). */
const AUTH_CHANGES_CHANNEL = "auth_changes";

/** How long a sign-in is kept at most, heard changes aside. */
const KEPT_SIGN_IN_MS = 30_000;

/** How many sign-ins a server keeps at most; the longest kept goes first. */
const KEPT_SIGN_INS = 10_000;

/** What a page needs of a sign-in, as the auth step made it from the session and its member. */
export type KeptSignIn = {
  user: SessionUser;
  /** The session's token, to end it when it passes its absolute lifetime. */
  token: string;
  expiresAt: Date;
};

type Entry = { signIn: KeptSignIn; until: number };

/**
 * The sign-ins a server has looked up lately, by session cookie, so that a member's pages do not
 * each read their session and account again. Only reads use it (the auth step looks every form
 * post up afresh), and only while the server hears the database's notices of changes to
 * accounts and sessions: a notice drops that member's sign-ins at once, on every server, and a
 * lost connection to the notices drops them all and keeps none until it is back.
 *
 * A lookup that began before a change was heard is not kept (`generation`), so a sign-in read
 * just before its session ended cannot outlive the notice that ended it.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #capacity: number;
  readonly #now: () => number;
  #generation = 0;
  #hearing = false;
  #found = 0;
  #missed = 0;

  constructor(options: { ttlMs?: number; capacity?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? KEPT_SIGN_IN_MS;
    this.#capacity = options.capacity ?? KEPT_SIGN_INS;
    this.#now = options.now ?? Date.now;
  }

  /** Taken before a lookup and handed back to `keep`. */
  get generation() {
    return this.#generation;
  }

  /** Since the server started: page reads answered from a kept sign-in, and those that were not. */
  stats() {
    return { kept: this.#entries.size, found: this.#found, missed: this.#missed };
  }

  /** The sign-in kept for this cookie, unless it is older than the limit or its session has expired. */
  find(cookie: string): KeptSignIn | undefined {
    const entry = this.#entries.get(cookie);
    const now = this.#now();
    if (entry && entry.until > now && entry.signIn.expiresAt.getTime() > now) {
      this.#found += 1;
      return entry.signIn;
    }
    this.#entries.delete(cookie);
    this.#missed += 1;
    return undefined;
  }

  /** Keeps a sign-in looked up since `generation` was taken, if no change was heard meanwhile. */
  keep(cookie: string, signIn: KeptSignIn, generation: number) {
    if (!this.#hearing || generation !== this.#generation) return;
    this.#entries.delete(cookie);
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(cookie, { signIn, until: this.#now() + this.#ttlMs });
  }

  forget(cookie: string) {
    this.#entries.delete(cookie);
  }

  /** A notice: a member's id drops their sign-ins; an empty one, or null (notices may have been lost), drops all. */
  heard(memberId: string | null) {
    this.#generation += 1;
    if (!memberId) return void this.#entries.clear();
    for (const [cookie, entry] of this.#entries) {
      if (entry.signIn.user.id === memberId) this.#entries.delete(cookie);
    }
  }

  /**
   * Listens for the database's notices; sign-ins are kept only from then on, and none after the
   * returned function stops it.
   */
  async hear(database: Pick<DatabaseHandle, "listen">) {
    const stop = await database.listen(AUTH_CHANGES_CHANNEL, (memberId) => this.heard(memberId));
    this.#hearing = true;
    return async () => {
      this.#hearing = false;
      this.heard(null);
      await stop();
    };
  }
}
