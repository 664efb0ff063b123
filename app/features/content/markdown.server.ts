import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/**
 * Markdown to HTML for content written by staff and members. Raw HTML in the source is
 * escaped, not passed through (micromark's default), and links may only use safe protocols,
 * so nothing a writer types can run in a reader's browser.
 */
export function renderMarkdown(source: string): string {
  return micromark(source, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
  });
}
