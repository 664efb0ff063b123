import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import {
  beforeBodyEnd,
  HELD_SCRIPT_ID,
  holdModuleScript,
  lowerModulePreloads,
  lowPriorityModulePreloads,
  scriptsAfterFirstPaint,
  takeModulePreloads,
} from "./module-preloads.server";

const head =
  '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" href="/assets/framework.js" nonce="n"/><link href="/assets/shell.js" rel="modulepreload"/>' +
  "<title>Événements</title></head>";
const body = '<body><p>rel="modulepreload"</p><link rel="modulepreload" href="/assets/late.js"/></body></html>';

const moduleScript =
  '<script nonce="n" type="module" async="">import * as route0 from "/assets/root.js";\n' +
  'window.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client.js");</script>';

/** The page cut into pieces of `size` bytes, so tags, attributes and letters fall across them. */
function pieces(page: string, size: number) {
  const bytes = Buffer.from(page);
  const out = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** The page through the transform; `nonce` null for a response without one. */
async function rewrite(page: string, size = 7, nonce: string | null = "n") {
  return text(Readable.from(pieces(page, size)).pipe(scriptsAfterFirstPaint(nonce ?? undefined)));
}

describe("scriptsAfterFirstPaint", () => {
  const page = `${head}<body><h1>Événements £</h1>${moduleScript}<script nonce="n">stream()</script></body></html>`;

  it("takes the module preloads out of the head, and only the head's", async () => {
    const out = await rewrite(`${head}${body}`);
    expect(out).toBe(
      `<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/><title>Événements</title></head>${body}`,
    );
  });

  it("holds the module script as a data block, with a starter that names the preloads", async () => {
    for (const size of [1, 3, 7, 64, 4096]) {
      const out = await rewrite(page, size);
      expect(out).not.toContain('<script type="module"');
      expect(out).not.toMatch(/<link[^>]*modulepreload/);
      expect(out).toContain("<h1>Événements £</h1>");
      expect(out).toContain(
        `<script type="text/x-held-module" id="${HELD_SCRIPT_ID}" nonce="n">import * as route0 from "/assets/root.js";`,
      );
      expect(out).toContain('["/assets/framework.js","/assets/shell.js"]');
      expect(out).toMatch(
        /<\/script><script nonce="n">\(function\(h\)\{[^<]*<\/script><script nonce="n">stream\(\)<\/script><\/body><\/html>$/,
      );
    }
  });

  it("passes the body on as it comes, before the module script has", async () => {
    const transform = scriptsAfterFirstPaint("n");
    const out: Buffer[] = [];
    transform.on("data", (chunk: Buffer) => out.push(chunk));
    transform.write(Buffer.from(`${head}<body><h1>Événements</h1><p class="lead`));
    await new Promise((resolve) => setImmediate(resolve));
    // All but the tag still open.
    expect(Buffer.concat(out).toString()).toBe(
      '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/>' +
        "<title>Événements</title></head><body><h1>Événements</h1>",
    );
    transform.end(Buffer.from(`">Hi</p>${moduleScript}</body></html>`));
    await new Promise((resolve) => transform.on("end", resolve));
    const page = Buffer.concat(out).toString();
    expect(page).toContain('<h1>Événements</h1><p class="lead">Hi</p><script type="text/x-held-module"');
    expect(page.endsWith("</script></body></html>")).toBe(true);
  });

  it("passes a page that does not hydrate through, less its preloads", async () => {
    const out = await rewrite(`${head}<body><p>offline</p></body></html>`);
    expect(out).toBe(
      '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/app.css"/>' +
        "<title>Événements</title></head><body><p>offline</p></body></html>",
    );
  });

  it("passes a document without a head through as it is", async () => {
    expect(await rewrite("<p>no head</p>")).toBe("<p>no head</p>");
  });

  it("leaves the starter without a nonce when the response has none", async () => {
    const out = await rewrite(page, 4096, null);
    expect(out).toContain("</script><script>(function(h){");
  });

  it("keeps the preloads' addresses from closing the script they are written into", () => {
    const { hrefs } = takeModulePreloads('<link rel="modulepreload" href="/a<b.js"/>');
    const held = holdModuleScript(moduleScript, hrefs, "n") ?? "";
    expect(held).toContain('"/a\\u003cb.js"');
    expect(holdModuleScript("<p>no script</p>", hrefs, "n")).toBeNull();
  });
});

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
