import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server";

describe("renderMarkdown", () => {
  it("renders GitHub-flavoured Markdown and escapes raw HTML and unsafe links", () => {
    const html = renderMarkdown(
      "# Paddock\n\n| Gate | Opens |\n| --- | --- |\n| A | 08:00 |\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))",
    );
    expect(html).toContain("<h1>Paddock</h1>");
    expect(html).toContain("<table>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain('href="javascript:');
  });

  it("answers the same HTML for the same source, however often and among many others", () => {
    const first = renderMarkdown("**Bring your car** to the *Wing*.");
    for (let index = 0; index < 500; index++) renderMarkdown(`Line ${index}`);
    expect(renderMarkdown("**Bring your car** to the *Wing*.")).toBe(first);
    expect(first).toBe("<p><strong>Bring your car</strong> to the <em>Wing</em>.</p>");
    const long = `${"word ".repeat(20_000)}**end**`;
    expect(renderMarkdown(long)).toBe(renderMarkdown(long));
    expect(renderMarkdown(long)).toContain("<strong>end</strong>");
  });
});

/** Every start tag in a piece of HTML: its name and its attributes, parsed as a browser would (values quoted). */
function startTags(html: string) {
  return [...html.matchAll(/<([a-z][a-z0-9]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((match) => ({
    name: match[1]!.toLowerCase(),
    attributes: [...match[2]!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)].map((pair) => ({
      name: pair[1]!.toLowerCase(),
      value: (pair[2] ?? "").replace(/&#x?[0-9a-f]+;|&[a-z]+;/gi, "").trim(),
    })),
  }));
}

const ALLOWED_ELEMENTS = new Set(
  "p a em strong del code pre blockquote ul ol li h1 h2 h3 h4 h5 h6 table thead tbody tr th td img hr br input".split(
    " ",
  ),
);
const ALLOWED_ATTRIBUTES = new Set(
  "href src alt title id class rel loading decoding align type checked disabled aria-label".split(" "),
);

/** Nothing in the HTML can run: only harmless elements and attributes, no script addresses, no stray tags. */
function expectHarmless(html: string) {
  const tags = startTags(html);
  expect(html.match(/</g)?.length ?? 0, html).toBe(tags.length + (html.match(/<\//g)?.length ?? 0));
  for (const tag of tags) {
    expect(ALLOWED_ELEMENTS, `<${tag.name}> in ${html}`).toContain(tag.name);
    for (const attribute of tag.attributes) {
      expect(ALLOWED_ATTRIBUTES, `${attribute.name} in ${html}`).toContain(attribute.name);
      if (attribute.name === "href" || attribute.name === "src")
        expect(attribute.value).toMatch(/^(https?:\/\/|mailto:|\/|#|[^:]*$)/i);
    }
  }
}

describe("hostile Markdown", () => {
  const hostile = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe src=//evil.example></iframe>",
    "<svg onload=alert(1)>",
    "<style>body{display:none}</style>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript&colon;alert(1))",
    "[x](  javascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)",
    '![x](javascript:alert(1) "title")',
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    "<javascript:alert(1)>",
    '[x](https://example.com "a\\" onmouseover=\\"alert(1)")',
    "&lt;script&gt;alert(1)&lt;/script&gt; &#60;script&#62;",
    "`<script>` and ```\n<script>alert(1)</script>\n```",
    "## <img src=x onerror=alert(1)>",
    "| a |\n| - |\n| <script>alert(1)</script> |",
    "<!-- comment --><![CDATA[x]]>",
    "[x](file:///etc/passwd)",
  ];

  for (const source of hostile) {
    it(`renders ${JSON.stringify(source).slice(0, 60)} harmless`, () => {
      expectHarmless(renderMarkdown(source));
      expectHarmless(renderMarkdown(source, { article: true, siteOrigin: "https://club.example" }));
    });
  }

  it("shows raw HTML as text rather than dropping it", () => {
    const html = renderMarkdown("Try <b>bold</b>");
    expect(html).toBe("<p>Try &lt;b&gt;bold&lt;/b&gt;</p>");
  });

  it("turns a refused link into its text and a refused image into its description", () => {
    expect(renderMarkdown("[click me](javascript:alert(1))")).toBe("<p>click me</p>");
    expect(renderMarkdown('![a photo](data:image/png;base64,AAAA "t")')).toBe("<p>a photo</p>");
  });

  it("keeps safe links and images", () => {
    const html = renderMarkdown(
      "[site](https://example.com) [mail](mailto:a@example.com) [here](/events) ![car](/media/x.webp)",
    );
    expect(html).toContain('<a href="https://example.com">site</a>');
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
    expect(html).toContain('<a href="/events">here</a>');
    expect(html).toContain('<img src="/media/x.webp" alt="car" />');
  });

  const pathological: [string, string][] = [
    ["nested quotes", `${">".repeat(50_000)} x`],
    ["nested lists", Array.from({ length: 300 }, (_, i) => `${" ".repeat(i * 2)}- a`).join("\n")],
    ["quotes and lists", `${"> - ".repeat(20_000)}x`],
    ["unmatched emphasis", "**_".repeat(33_000)],
    ["unclosed links", "[a](".repeat(25_000)],
    ["brackets", "[".repeat(100_000)],
    ["underscores and stars", "_*~".repeat(33_000)],
  ];
  /** How deep quotes and lists nest in a piece of HTML. */
  const containerDepth = (html: string) => {
    let depth = 0;
    let deepest = 0;
    for (const [tag] of html.matchAll(/<\/?(ul|ol|blockquote)\b/g)) {
      depth += tag.startsWith("</") ? -1 : 1;
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  };

  /** Milliseconds to render a source as an article (never from the cache: each source is new). */
  const timed = (source: string) => {
    const started = performance.now();
    const html = renderMarkdown(source, { article: true });
    return { html, ms: performance.now() - started };
  };

  for (const [name, source] of pathological) {
    it(`renders ${name} about as fast as ordinary text of its length`, () => {
      const words = "The paddock opened at eight and the **first cars** rolled in. ";
      const ordinary = timed(`${name}\n\n${words.repeat(Math.ceil(source.length / words.length))}`);
      const hostile = timed(source);
      expectHarmless(hostile.html);
      expect(containerDepth(hostile.html)).toBeLessThanOrEqual(9);
      // Linear: these took from 14 s to several minutes before they were defused.
      expect(hostile.ms).toBeLessThan(Math.max(6 * ordinary.ms, 300));
    });
  }

  it("leaves ordinary emphasis alone however long the article", () => {
    const paragraph = "Some **bold** and _italic_ words with a [link](/events).\n\n";
    const html = renderMarkdown(paragraph.repeat(500));
    expect(html.match(/<strong>bold<\/strong>/g)).toHaveLength(500);
    expect(html).not.toContain("\\");
  });
});

describe("articles", () => {
  const render = (source: string) => renderMarkdown(source, { article: true, siteOrigin: "https://club.example" });

  it("starts the outline at h2 and gives each heading a unique id and a link to itself", () => {
    const html = render("# Intro\n\n## Engine & gearbox\n\n## Engine & gearbox\n\n### Main");
    expect(html).toContain(
      '<h2 id="intro">Intro<a class="heading-anchor" href="#intro" aria-label="Link to this section">#</a></h2>',
    );
    expect(html).toContain(
      '<h3 id="engine-gearbox">Engine &amp; gearbox<a class="heading-anchor" href="#engine-gearbox"',
    );
    expect(html).toContain('<h3 id="engine-gearbox-2">');
    // "main" is the page's own landmark.
    expect(html).toContain('<h4 id="main-2">');
    expect(html).not.toContain("<h1");
    // Sections written with ## are h2 too: no gap under the page's h1.
    expect(render("## Weather\n\n#### Wind")).toMatch(/^<h2 id="weather">[\s\S]*<h4 id="wind">/);
  });

  it("marks links to other sites and lazy-loads images", () => {
    const html = render(
      "[them](https://other.example/x?a=1&b=2) [us](https://club.example/events) [rel](//other.example) ![c](/media/c.webp)",
    );
    expect(html).toContain('<a href="https://other.example/x?a=1&amp;b=2" rel="noopener nofollow ugc">them</a>');
    expect(html).toContain('<a href="https://club.example/events">us</a>');
    expect(html).toContain('<a href="//other.example" rel="noopener nofollow ugc">rel</a>');
    expect(html).toContain('<img loading="lazy" decoding="async" src="/media/c.webp" alt="c" />');
  });

  it("gives a heading of symbols a usable id", () => {
    expect(render("## !!!")).toContain('id="section"');
    expect(render("## Café déjà vu")).toContain('id="cafe-deja-vu"');
  });
});
