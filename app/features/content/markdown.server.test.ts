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
