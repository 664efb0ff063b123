import { Transform } from "node:stream";

const HEAD_END = Buffer.from("</head>");

/** `html` (a page's head) with its module preloads asked for at low priority. */
export function lowerModulePreloads(html: string) {
  return html.replace(/<link\b(?=[^>]*\brel="modulepreload")(?![^>]*\bfetchpriority=)/g, '<link fetchpriority="low"');
}

/**
 * A page's stream with its module preloads asked for at low priority. React Router lists every
 * chunk of the page as a `<link rel="modulepreload">` in the head, at high priority by default:
 * on a slow mobile connection the first paint and the cover image then share their first round
 * trips with some 120 kB of JavaScript that only hydrates what is already on screen. At low
 * priority the browser fetches the stylesheet, the font and the cover first; the page is the same
 * server-rendered page meanwhile, and hydrates once the scripts are in.
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

const BODY_END = Buffer.from("</body>");

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
