import path from "node:path";
import sharp from "sharp";
import { saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// An organizer writes an article with the live preview, adds an image to its body and
// publishes it; it is then on /blog for everyone.
const sessionFile = path.resolve("test-results/e2e/admin-articles-organizer.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

test.describe("as an organizer", () => {
  test.use({ storageState: sessionFile });

  test("writes an article with the live preview and publishes it", async ({ page, browser }) => {
    const word = `Zonda${unique()}`;
    const title = `Paddock notes ${word}`;
    await visit(page, "/admin/articles");
    await page.getByRole("link", { name: "New article" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New article" })).toBeVisible();

    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Summary (optional)").fill("What we saw in the paddock.");
    await page.getByLabel("Tags (optional)").fill("Event Report, Paddock Notes");
    const body = page.getByLabel("Body");
    await body.fill(`## Grid walk\n\nA ${word} was parked by the tower.\n\n<script>alert(1)</script>`);

    // The preview is the server's rendering: a heading, and the script shown as text.
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview.getByRole("heading", { name: "Grid walk" })).toBeVisible();
    await expect(preview.getByText("<script>alert(1)</script>")).toBeVisible();

    // An image goes into the body as Markdown, and shows in the preview.
    const picture = await sharp({ create: { width: 800, height: 500, channels: 3, background: "#ff7a1a" } })
      .png()
      .toBuffer();
    await page
      .getByLabel("Image", { exact: true })
      .setInputFiles({ name: "grid.png", mimeType: "image/png", buffer: picture });
    await page.getByLabel("Description", { exact: true }).fill("An orange car on the grid");
    await page.getByRole("button", { name: "Insert image" }).click();
    await expect(body).toHaveValue(/!\[An orange car on the grid\]\(\/media\/articles\/[0-9a-f]+-1536\.webp\)/);
    await expect(preview.getByRole("img", { name: "An orange car on the grid" })).toBeVisible();

    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("Published: it is on the blog now.")).toBeVisible();
    await expect(page.getByText("Published", { exact: true })).toBeVisible();

    const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
    await visit(visitor, `/blog?q=${word}`);
    await visitor.getByRole("link", { name: title }).click();
    await expect(visitor.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(visitor.locator("h2#grid-walk")).toBeVisible();
    await expect(visitor.getByRole("img", { name: "An orange car on the grid" })).toBeVisible();
    await expect(visitor.getByRole("link", { name: "Paddock notes", exact: true })).toHaveAttribute(
      "href",
      "/blog?tag=paddock-notes",
    );
    await visitor.close();
  });

  test("keeps what was typed when a field is wrong, and previews a draft", async ({ page }) => {
    await visit(page, "/admin/articles/new");
    await page.getByLabel("Title").fill(`Draft ${unique()}`);
    await page.getByLabel("Web address").fill("night-meet-at-the-old-airfield");
    await page.getByLabel("Body").fill("Kept body text.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Another article already uses this address. Choose another.")).toBeVisible();
    await expect(page.getByLabel("Body")).toHaveValue("Kept body text.");

    await page.getByLabel("Web address").fill(`draft-${unique()}`);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft saved.")).toBeVisible();
    await page.getByRole("link", { name: "Preview on the blog" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Preview: this is a draft" })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  });
});
