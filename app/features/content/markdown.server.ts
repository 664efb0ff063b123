import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** Recently rendered sources and their HTML: an event page renders the same description on every request. */
const rendered = new Map<string, string>();
const CACHE_ENTRIES = 200;
/** Longer sources are rendered every time rather than kept in memory. */
const CACHE_MAX_SOURCE = 64 * 1024;

/**
 * Markdown to HTML for content written by staff and members. Raw HTML in the source is
 * escaped, not passed through (micromark's default), and links may only use safe protocols,
 * so nothing a writer types can run in a reader's browser. The result depends on the source
 * alone, so the most recent few hundred are remembered (least recently used go first).
 */
export function renderMarkdown(source: string): string {
  const cached = rendered.get(source);
  if (cached !== undefined) {
    rendered.delete(source);
    rendered.set(source, cached);
    return cached;
  }
  const html = micromark(source, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
  if (source.length <= CACHE_MAX_SOURCE) {
    rendered.set(source, html);
    if (rendered.size > CACHE_ENTRIES) rendered.delete(rendered.keys().next().value!);
  }
  return html;
}
