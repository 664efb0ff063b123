import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { beforeBodyEnd, lowerModulePreloads, lowPriorityModulePreloads } from "./module-preloads.server";

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

describe("beforeBodyEnd", () => {
  it("puts what the render recorded just before </body>, asked for only when the end comes", async () => {
    let recorded = "";
    const pieces = [Buffer.from(head), Buffer.from("<body><p>£12.50 É"), Buffer.from("</p></body></html>")];
    const stream = Readable.from(
      (async function* () {
        yield pieces[0];
        yield pieces[1];
        recorded = '<script type="application/json">{"k":"£"}</script>';
        yield pieces[2];
      })(),
    );
    const out = await text(stream.pipe(beforeBodyEnd(() => recorded)));
    expect(out).toBe(`${head}<body><p>£12.50 É</p><script type="application/json">{"k":"£"}</script></body></html>`);
  });

  it("keeps letters cut between chunks whole", async () => {
    const page = Buffer.from("<body>Événements £</body>");
    const pieces = [];
    for (let at = 0; at < page.length; at += 3) pieces.push(page.subarray(at, at + 3));
    const out = await text(Readable.from(pieces).pipe(beforeBodyEnd(() => "<i>x</i>")));
    expect(out).toBe("<body>Événements £<i>x</i></body>");
  });

  it("adds it at the end of a stream whose end tag it never saw", async () => {
    const out = await text(Readable.from([Buffer.from("<p>cut short")]).pipe(beforeBodyEnd(() => "<i>x</i>")));
    expect(out).toBe("<p>cut short<i>x</i>");
  });
});
