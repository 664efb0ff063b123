import { Transform } from "node:stream";

const HEAD_END = Buffer.from("</head>");
const BODY_END = Buffer.from("</body>");

const MODULE_PRELOAD = /<link\b(?=[^>]*\brel="modulepreload")[^>]*>/g;
const HREF = /\bhref="([^"]+)"/;
/** The module script React Router's `<Scripts>` writes: the route modules, the manifest, the entry. */
const MODULE_SCRIPT = /<script\b(?=[^>]*\btype="module")([^>]*)>([\s\S]*?)<\/script>/;
const NONCE = /\bnonce="[^"]*"/;

/** The id of the data block that holds a page's module script until it is started. */
export const HELD_SCRIPT_ID = "page-scripts";

/**
 * The script that starts the held module script: the module preloads first, so the chunks
 * download side by side, then the script itself, each with the held block's nonce (empty on a
 * stored page, whose policy allows the script by its hash instead). It starts once, at the first
 * of: a frame after the page's `load` (the cover is in and painted), the reader's first tap or
 * key press, or 4 seconds, so a stalled picture never keeps the page from coming alive.
 */
function starter(hrefs: string[]) {
  const list = JSON.stringify(hrefs).replaceAll("<", "\\u003c");
  return (
    `(function(h){var s=0;function go(){if(s)return;s=1;var d=document,o=d.getElementById("${HELD_SCRIPT_ID}");` +
    'if(!o)return;h.forEach(function(u){var l=d.createElement("link");l.rel="modulepreload";l.href=u;l.nonce=o.nonce;d.head.appendChild(l)});' +
    'var m=d.createElement("script");m.type="module";m.nonce=o.nonce;m.textContent=o.textContent;o.replaceWith(m)}' +
    "function later(){requestAnimationFrame(function(){setTimeout(go,0)})}" +
    'document.readyState==="complete"?later():addEventListener("load",later,{once:true});' +
    '["pointerdown","keydown"].forEach(function(t){addEventListener(t,go,{once:true,capture:true,passive:true})});' +
    `setTimeout(go,4000)})(${list})`
  );
}

/** `head` without its module preloads, and their addresses in order. */
export function takeModulePreloads(head: string) {
  const hrefs: string[] = [];
  const rest = head.replace(MODULE_PRELOAD, (link) => {
    const href = HREF.exec(link)?.[1];
    if (href) hrefs.push(href);
    return "";
  });
  return { head: rest, hrefs };
}

/**
 * `html` with React Router's module script held as an inert data block and the starter after
 * it, or null when the script is not in it.
 */
export function holdModuleScript(html: string, hrefs: string[], nonce: string | undefined) {
  const found = MODULE_SCRIPT.exec(html);
  if (!found) return null;
  const [script, attributes = "", text = ""] = found;
  const nonceAttribute = NONCE.exec(attributes)?.[0];
  const held =
    `<script type="text/x-held-module" id="${HELD_SCRIPT_ID}"${nonceAttribute ? ` ${nonceAttribute}` : ""}>${text}</script>` +
    `<script${nonce ? ` nonce="${nonce}"` : ""}>${starter(hrefs)}</script>`;
  return html.slice(0, found.index) + held + html.slice(found.index + script.length);
}

/** `html` (a page's head) with its module preloads asked for at low priority. */
export function lowerModulePreloads(html: string) {
  return html.replace(/<link\b(?=[^>]*\brel="modulepreload")(?![^>]*\bfetchpriority=)/g, '<link fetchpriority="low"');
}

/**
 * A page's stream with its module preloads asked for at low priority, for a page that is a
 * member's or staff's own (ADR 0011): React Router lists every chunk of the page as a `<link
 * rel="modulepreload">` in the head, at high priority by default, and at low priority the browser
 * fetches the stylesheet, the font and the cover first. Its controls come alive as soon as the
 * scripts are in, where a public page waits for its first paint (`scriptsAfterFirstPaint`).
 *
 * Only the head is rewritten: the stream is held until `</head>` has gone by (it comes with the
 * first flush, with the start of the body), then passes through untouched.
 */
export function lowPriorityModulePreloads() {
  let held: Buffer[] | null = [];
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (!held) return callback(null, buffer);
      held.push(buffer);
      const start = Buffer.concat(held);
      const end = start.indexOf(HEAD_END);
      if (end === -1) return callback();
      held = null;
      callback(
        null,
        Buffer.concat([Buffer.from(lowerModulePreloads(start.subarray(0, end).toString())), start.subarray(end)]),
      );
    },
    flush(callback) {
      callback(null, held ? Buffer.concat(held) : undefined);
    },
  });
}

/**
 * A public page's stream with its scripts started after the first paint. React Router lists every
 * chunk of the page as a `<link rel="modulepreload">` in the head and loads them from a module
 * script at the end of the shell: on a slow mobile connection the cover image, the largest thing
 * on screen, then shares the line with some 120 kB of JavaScript that only hydrates what is
 * already there (ADR 0029). Here the preloads leave the head and the module script is held as a
 * data block, with a small script after it that starts both once the page has loaded and painted
 * (or at the first tap). Until then the page is the server's page: links and forms work as plain
 * HTML. Pages of members and staff, whose controls are used at once (the gate's scanner), load
 * theirs as before (`lowPriorityModulePreloads`).
 *
 * The head is held until `</head>` has gone by; after it, the body passes on as it comes, less a
 * tag still open at the end of a chunk, until the module script has gone by (it ends the shell)
 * or `</body>` has. A page that does not hydrate has no module script, and loses only its
 * preloads. The bytes are searched as bytes and rewritten as Latin-1, one character per byte, so
 * a letter cut between two chunks passes whole.
 */
export function scriptsAfterFirstPaint(nonce: string | undefined) {
  let phase: "head" | "body" | "through" = "head";
  let held: Buffer = Buffer.alloc(0);
  let hrefs: string[] = [];
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (phase === "through") return callback(null, buffer);
      held = held.length ? Buffer.concat([held, buffer]) : buffer;
      const out: Buffer[] = [];
      if (phase === "head") {
        const end = held.indexOf(HEAD_END);
        if (end === -1) return callback();
        const taken = takeModulePreloads(held.subarray(0, end).toString("latin1"));
        hrefs = taken.hrefs;
        out.push(Buffer.from(taken.head, "latin1"));
        held = held.subarray(end);
        phase = "body";
      }
      const found = findModuleScript(held);
      if (found.script) {
        const [from, to] = found.script;
        const rewritten = holdModuleScript(held.subarray(from, to).toString("latin1"), hrefs, nonce);
        const script = rewritten === null ? held.subarray(from, to) : Buffer.from(rewritten, "latin1");
        out.push(held.subarray(0, from), script, held.subarray(to));
        held = Buffer.alloc(0);
        phase = "through";
      } else if (held.includes(BODY_END)) {
        out.push(held);
        held = Buffer.alloc(0);
        phase = "through";
      } else {
        // What comes before a tag that may still turn out to be the script goes on at once.
        out.push(held.subarray(0, found.keepFrom));
        held = held.subarray(found.keepFrom);
      }
      callback(null, Buffer.concat(out));
    },
    flush(callback) {
      callback(null, held.length ? held : undefined);
    },
  });
}

const MODULE_TYPE = Buffer.from('type="module"');
const SCRIPT_START = Buffer.from("<script");
const SCRIPT_END = Buffer.from("</script>");

/**
 * Where the module script is in `html` (its start and end, when both have come), else from where
 * `html` must be kept because the script may begin there: the last tag still open, or the
 * module script whose end has not come yet.
 */
function findModuleScript(html: Buffer): { script?: [number, number]; keepFrom: number } {
  let at = html.indexOf(MODULE_TYPE);
  while (at !== -1) {
    const start = html.lastIndexOf(SCRIPT_START, at);
    const inTag = start !== -1 && html.subarray(start, at).indexOf(">") === -1;
    if (inTag) {
      const end = html.indexOf(SCRIPT_END, at);
      if (end === -1) return { keepFrom: start };
      return { script: [start, end + SCRIPT_END.length], keepFrom: start };
    }
    at = html.indexOf(MODULE_TYPE, at + 1);
  }
  const lastTag = html.lastIndexOf("<");
  const closed = lastTag !== -1 && html.indexOf(">", lastTag) !== -1;
  return { keepFrom: lastTag === -1 || closed ? html.length : lastTag };
}

/**
 * A page's stream with `html()` put just before `</body>`, asked for when the end comes by, so
 * it can say what the whole render did. The last few bytes of each chunk are held back until the
 * next, so an end tag cut between two chunks is still found; a stream without one gets `html()`
 * at its very end. Chunks stay bytes: one may end inside a letter.
 */
export function beforeBodyEnd(html: () => string) {
  let added = false;
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = Buffer.concat([held, typeof chunk === "string" ? Buffer.from(chunk) : chunk]);
      if (added) return callback(null, buffer);
      const end = buffer.lastIndexOf(BODY_END);
      if (end === -1) {
        const keep = Math.min(buffer.length, BODY_END.length - 1);
        held = buffer.subarray(buffer.length - keep);
        return callback(null, buffer.subarray(0, buffer.length - keep));
      }
      added = true;
      held = Buffer.alloc(0);
      callback(null, Buffer.concat([buffer.subarray(0, end), Buffer.from(html()), buffer.subarray(end)]));
    },
    flush(callback) {
      callback(null, added ? held : Buffer.concat([held, Buffer.from(html())]));
    },
  });
}
