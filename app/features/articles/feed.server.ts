import { renderMarkdown } from "~/features/content/markdown.server";
import type { Db } from "~/server/db/client.server";
import { feedArticles } from "./catalogue.server";

/** How many articles the feed carries: the newest. */
export const FEED_ENTRIES = 20;

/** The text without the characters XML 1.0 does not allow at all (control characters, lone surrogates). */
function xmlCharacters(text: string) {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (allowed) out += char;
  }
  return out;
}

export function escapeXml(text: string) {
  return xmlCharacters(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * Feed readers show the HTML away from the site: addresses on the site ("/media/…") are made
 * absolute, and a heading's "#" link points into the article's page.
 */
function absoluteHtml(html: string, siteUrl: string, pageUrl: string) {
  return html.replace(/(href|src)="(\/(?!\/)[^"]*|#[^"]*)"/g, (_, attribute: string, address: string) =>
    address.startsWith("#") ? `${attribute}="${pageUrl}${address}"` : `${attribute}="${siteUrl}${address}"`,
  );
}

/**
 * The Atom 1.0 feed of the newest public articles (RFC 4287): ids that never change (the
 * article's uuid as a URN, so a new slug is not a new entry), absolute links, the sanitised
 * HTML of each body, a category per tag. An article with no author names the club.
 */
export async function articlesFeed(db: Db, site: { name: string; url: string }, now: Date) {
  const entries = await feedArticles(db, { now, limit: FEED_ENTRIES });
  const blogUrl = `${site.url}/blog`;
  const updated = entries.reduce<Date | null>(
    (latest, entry) => (latest === null || entry.updatedAt > latest ? entry.updatedAt : latest),
    null,
  );
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${escapeXml(blogUrl)}</id>`,
    `  <title>${escapeXml(`${site.name} blog`)}</title>`,
    `  <subtitle>${escapeXml(`Event reports, build diaries, guides and news from ${site.name}.`)}</subtitle>`,
    `  <updated>${(updated ?? now).toISOString()}</updated>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(blogUrl)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${blogUrl}/feed.xml`)}"/>`,
    `  <author><name>${escapeXml(site.name)}</name><uri>${escapeXml(site.url)}</uri></author>`,
    `  <icon>${escapeXml(`${site.url}/icons/icon-64.png`)}</icon>`,
  ];
  for (const entry of entries) {
    const pageUrl = `${blogUrl}/${entry.slug}`;
    const html = absoluteHtml(renderMarkdown(entry.body, { article: true, siteOrigin: site.url }), site.url, pageUrl);
    lines.push(
      "  <entry>",
      `    <id>urn:uuid:${entry.id}</id>`,
      `    <title type="text">${escapeXml(entry.title)}</title>`,
      `    <published>${entry.publishedAt.toISOString()}</published>`,
      `    <updated>${new Date(Math.max(entry.updatedAt.getTime(), entry.publishedAt.getTime())).toISOString()}</updated>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>`,
      `    <author><name>${escapeXml(entry.authorName ?? site.name)}</name></author>`,
      ...(entry.excerpt ? [`    <summary type="text">${escapeXml(entry.excerpt)}</summary>`] : []),
      `    <content type="html">${escapeXml(html)}</content>`,
      ...entry.tags.map((tag) => `    <category term="${escapeXml(tag)}"/>`),
      "  </entry>",
    );
  }
  lines.push("</feed>", "");
  return lines.join("\n");
}
