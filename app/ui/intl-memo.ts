/**
 * What the page's `Intl` calls answered on the server, handed to the browser with the page.
 *
 * A browser's first `Intl.NumberFormat` or `Intl.DateTimeFormat` loads locale data: 40–60 ms of
 * main thread on a desktop, four times that on a mid-range phone, in the middle of hydration.
 * Every public page shows a price or a date, and hydration formats them again only to find the
 * same text the server sent. So the formatting helpers (money, counts, dates) go through
 * `intlMemo`: on the server it records each answer of the request being rendered, and the page
 * carries them in a JSON block (`<script type="application/json" id="intl-memo">`, which no
 * browser runs); in the browser it answers from that block, and calls `Intl` only for values
 * the page did not carry (after a navigation, or a page streamed in parts whose block has not
 * arrived yet), which gives the same text.
 *
 * Answers must be plain JSON values, and a key must name every input of the answer (the
 * function, its options, the value, the time zone).
 */

export const INTL_MEMO_ID = "intl-memo";

type Recorder = () => Map<string, unknown> | undefined;

let recorder: Recorder = () => undefined;
let carried: Record<string, unknown> | null = null;

/** On the server: where the answers of the request being rendered go (entry.server.tsx). */
export function recordIntlAnswers(current: Recorder) {
  recorder = current;
}

function carriedAnswers() {
  if (carried) return carried;
  if (typeof document === "undefined") return null;
  const block = document.getElementById(INTL_MEMO_ID);
  // Not there yet (a page still streaming): ask again next time.
  if (!block) return null;
  try {
    carried = JSON.parse(block.textContent ?? "{}") as Record<string, unknown>;
  } catch {
    carried = {};
  }
  return carried;
}

export function intlMemo<T>(key: string, compute: () => T): T {
  const answers = carriedAnswers();
  if (answers && Object.hasOwn(answers, key)) return answers[key] as T;
  const answer = compute();
  recorder()?.set(key, answer);
  return answer;
}

/**
 * The JSON block for a page whose render recorded `answers`; "" when there are none. It carries
 * the response's nonce like the page's own scripts, so the page cache keeps it (it takes out
 * every inline script without one).
 */
export function intlMemoBlock(answers: Map<string, unknown>, nonce: string) {
  if (answers.size === 0) return "";
  // "<" escaped, so no text can close the script element early.
  const json = JSON.stringify(Object.fromEntries(answers)).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${INTL_MEMO_ID}" nonce="${nonce}">${json}</script>`;
}
