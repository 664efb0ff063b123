import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** Recently rendered sources and their HTML: an event page renders the same description on every request. */
const rendered = new Map<string, string>();
const CACHE_ENTRIES = 200;
/** Longer sources are rendered every time rather than kept in memory. */
const CACHE_MAX_SOURCE = 64 * 1024;

export type MarkdownOptions = {
  /**
   * For long reads (articles): the shallowest heading becomes an h2 (the page's title is the one h1),
   * get a unique `id` from their text and a "#" link to themselves; links to other sites get
   * `rel="noopener nofollow ugc"`; images load lazily.
   */
  article?: boolean;
  /** The site's own origin ("https://club.example"): links to it are not "other sites". */
  siteOrigin?: string;
};

/**
 * Markdown to HTML for content written by staff and members. Raw HTML in the source is
 * escaped, not passed through (micromark's default), and links may only use safe protocols,
 * so nothing a writer types can run in a reader's browser; a link or image whose address was
 * refused is dropped rather than left pointing nowhere. The result depends on the source
 * alone, so the most recent few hundred are remembered (least recently used go first).
 */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  const key = options.article ? `article\u0000${options.siteOrigin ?? ""}\u0000${source}` : source;
  const cached = rendered.get(key);
  if (cached !== undefined) {
    rendered.delete(key);
    rendered.set(key, cached);
    return cached;
  }
  const raw = micromark(defuse(source), {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  const safe = dropRefusedAddresses(raw);
  const html = options.article ? articleHtml(safe, options.siteOrigin) : safe;
  if (source.length <= CACHE_MAX_SOURCE) {
    rendered.set(key, html);
    if (rendered.size > CACHE_ENTRIES) rendered.delete(rendered.keys().next().value!);
  }
  return html;
}

/** Containers (quotes, lists) deeper than this are flattened: nobody writes them, and the parser slows with depth. */
const MAX_CONTAINER_DEPTH = 8;
const MAX_INDENT = 2 * MAX_CONTAINER_DEPTH;
/** Emphasis and link brackets beyond this many in one paragraph are taken literally (see `defuse`). */
const MAX_DELIMITERS_PER_BLOCK = 400;
const CONTAINER_PREFIX = /^(?:[ \t]{0,3}(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]?)+/;
const FENCE = /^[ \t]{0,3}(```|~~~)/;

/**
 * The parser's time grows faster than the input for a few shapes nobody writes by hand:
 * thousands of nested quotes or lists, and thousands of unmatched `*`, `_`, `~` or `[` in
 * one paragraph. Such input is made ordinary before parsing (deep nesting flattened, extra
 * delimiters escaped), so a page never takes seconds to render; normal writing is untouched.
 */
function defuse(source: string) {
  const lines = source.split("\n");
  let inFence = false;
  let block: number[] = [];
  const out: string[] = [];
  const flush = () => {
    if (block.length === 0) return;
    let budget = MAX_DELIMITERS_PER_BLOCK;
    for (const index of block) {
      const [line, left] = escapeBeyond(out[index]!, budget);
      out[index] = line;
      budget = left;
    }
    block = [];
  };
  for (let line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence) {
      const prefix = CONTAINER_PREFIX.exec(line)?.[0];
      if (prefix) {
        const markers = prefix.match(/>|[-*+](?=[ \t])|\d{1,9}[.)]/g) ?? [];
        if (markers.length > MAX_CONTAINER_DEPTH)
          line = `${markers.slice(0, MAX_CONTAINER_DEPTH).join(" ")} ${line.slice(prefix.length)}`;
      }
      const indent = /^[ \t]*/.exec(line)![0];
      if (indent.replace(/\t/g, "    ").length > MAX_INDENT) line = " ".repeat(MAX_INDENT) + line.slice(indent.length);
    }
    out.push(line);
    if (inFence) continue;
    if (line.trim() === "") flush();
    else block.push(out.length - 1);
  }
  flush();
  return out.join("\n");
}

/** The line with every delimiter past the `budget` backslash-escaped, and the budget left. */
function escapeBeyond(line: string, budget: number): [string, number] {
  if (budget > line.length) {
    const count = line.match(/[*_~[\]]/g)?.length ?? 0;
    if (count <= budget) return [line, budget - count];
  }
  let result = "";
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "\\") {
      result += char + (line[i + 1] ?? "");
      i++;
    } else if ("*_~[]".includes(char)) {
      if (budget > 0) {
        budget--;
        result += char;
      } else result += `\\${char}`;
    } else result += char;
  }
  return [result, budget];
}

/**
 * micromark keeps a link or an image whose address it refused (javascript:, data:…) with an
 * empty address: the link becomes its text, the image its description.
 */
function dropRefusedAddresses(html: string) {
  return html
    .replace(/<a href=""(?: title="[^"]*")?>([\s\S]*?)<\/a>/g, "$1")
    .replace(/<img src="" alt="([^"]*)"(?: title="[^"]*")? \/>/g, "$1");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/** The text of a piece of our own HTML: tags removed, the entities micromark writes decoded. */
function textOf(html: string) {
  return html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!);
}

/** "Engine & gearbox (part 2)" → "engine-gearbox-part-2". */
function headingSlug(text: string) {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/g, "") || "section"
  );
}

/** Ids the page around an article already uses. */
const RESERVED_IDS = new Set(["main", "top", "content", "related", "comments", "tags"]);

function articleHtml(html: string, siteOrigin: string | undefined) {
  const used = new Set(RESERVED_IDS);
  // The shallowest heading becomes an h2 and the others keep their distance from it, so the
  // outline under the page's h1 has no gaps whether the writer started at # or at ##.
  const levels = [...html.matchAll(/<h([1-6])>/g)].map((match) => Number(match[1]));
  const shift = levels.length > 0 ? 2 - Math.min(...levels) : 0;
  const withHeadings = html.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_, digit: string, inner: string) => {
    const level = Math.min(Math.max(Number(digit) + shift, 2), 6);
    const base = headingSlug(textOf(inner));
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return `<h${level} id="${id}">${inner}<a class="heading-anchor" href="#${id}" aria-label="Link to this section">#</a></h${level}>`;
  });
  return withHeadings
    .replace(/<a href="((?:https?:)?\/\/[^"]*)"/g, (whole, href: string) =>
      isOwn(href, siteOrigin) ? whole : `<a href="${href}" rel="noopener nofollow ugc"`,
    )
    .replace(/<img src="/g, '<img loading="lazy" decoding="async" src="');
}

function isOwn(href: string, siteOrigin: string | undefined) {
  if (!siteOrigin) return false;
  try {
    const origin = new URL(siteOrigin).origin;
    return new URL(href.replace(/&amp;/g, "&"), origin).origin === origin;
  } catch {
    return false;
  }
}
