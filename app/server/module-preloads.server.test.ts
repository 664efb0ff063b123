import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { lowerModulePreloads, lowPriorityModulePreloads } from "./module-preloads.server";

const head =
  '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" href="/assets/framework.js" nonce="n"/><link href="/assets/shell.js" rel="modulepreload"/>' +
  "<title>Événements</title></head>";
const body = '<body><p>rel="modulepreload"</p><link rel="modulepreload" href="/assets/late.js"/></body></html>';

describe("lowPriorityModulePreloads", () => {
  it("asks for the head's module preloads at low priority, and only those", async () => {
    // Cut into small pieces, one inside the attribute and one inside a two-byte letter.
    const page = Buffer.from(head + body);
    const pieces = [];
    for (let at = 0; at < page.length; at += 7) pieces.push(page.subarray(at, at + 7));
    const out = await text(Readable.from(pieces).pipe(lowPriorityModulePreloads()));
    expect(out).toBe(
      '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/>' +
        '<link fetchpriority="low" rel="modulepreload" href="/assets/framework.js" nonce="n"/>' +
        '<link fetchpriority="low" href="/assets/shell.js" rel="modulepreload"/>' +
        `<title>Événements</title></head>${body}`,
    );
  });

  it("passes a document without a head through as it is", async () => {
    const out = await text(Readable.from([Buffer.from("<p>no head</p>")]).pipe(lowPriorityModulePreloads()));
    expect(out).toBe("<p>no head</p>");
  });

  it("keeps a priority already given", () => {
    const link = '<link rel="modulepreload" fetchpriority="high" href="/a.js"/>';
    expect(lowerModulePreloads(link)).toBe(link);
  });
});
