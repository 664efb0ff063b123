import path from "node:path";
import { saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";
import { londonTime } from "./london-time";

// The organizer's draw tools, driven as an organizer would. Axe checks every page the test opens.
const sessionFile = path.resolve("test-results/e2e/admin-draws-organizer.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

test.describe("as an organizer", () => {
  test.use({ storageState: sessionFile });

  test("creates a competition with bundles and an instant win, publishes it, and records a postal entry", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const title = `Win a Caterham Seven ${unique()}`;

    await visit(page, "/admin");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Draws" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Draws" })).toBeVisible();
    await page.getByRole("link", { name: "New draw" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New draw" })).toBeVisible();

    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Summary (optional)").fill("A track-ready Seven, delivered to your door.");
    await page.getByLabel("Prize", { exact: true }).fill("A Caterham Seven 360R");
    await page.getByLabel("Prize value").fill("£38,000");
    await page.getByLabel("Cash alternative (optional)").fill("30000");
    await page.getByLabel("Price per entry").fill("1.50");
    await page.getByLabel("Bundles (optional)").fill("5 6.00\n20 for £20");
    await page.getByLabel("Total entries").fill("500");
    await page.getByLabel("Limit per person").fill("50");
    await page.getByLabel("Entries open").fill(londonTime(new Date(Date.now() - 3_600_000)));
    await page.getByLabel("Entries close").fill(londonTime(new Date(Date.now() + 21 * 86_400_000)));
    await page.getByRole("textbox", { name: "Question" }).fill("How many wheels does a Caterham Seven have?");
    await page.getByLabel("Answer 1", { exact: true }).fill("Three");
    await page.getByLabel("Answer 2", { exact: true }).fill("Four");
    await page.getByLabel("Answer 3", { exact: true }).fill("Six");
    await page.getByRole("radio", { name: "Answer 2 is the right answer" }).check();
    await page.getByLabel("Beacon", { exact: true }).fill("drand quicknet round 20000000");
    await page.getByLabel("Instant wins (optional)").fill("77 £50 fuel card");
    await page.getByLabel("Free postal entry (optional)").fill("Send your name, address and answer to PO Box 7.");
    await page.getByRole("button", { name: "Save draft" }).click();

    await expect(page.getByText("Draft saved. Add photos of the prize, then publish it.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/draws\/[0-9a-f-]{36}$/);
    await expect(page.getByLabel("Bundles (optional)")).toHaveValue("5 6.00\n20 20.00");
    await expect(page.getByLabel("Instant wins (optional)")).toHaveValue("77 £50 fuel card");

    const status = page.getByRole("complementary", { name: "Status" });
    await status.getByRole("button", { name: "Publish draw" }).click();
    await expect(page.getByText("Published. The draw is on /giveaways with its commitment.")).toBeVisible();
    await expect(status.getByRole("region", { name: "Live: taking entries" })).toBeVisible();
    // Its terms are locked now; its words are not.
    await expect(page.getByLabel("Price per entry")).toBeDisabled();
    await expect(page.getByLabel("Summary (optional)")).toBeEnabled();

    // A postal entry from an envelope.
    await page
      .getByRole("navigation", { name: "Draw pages" })
      .getByRole("link", { name: /Entries/ })
      .click();
    await expect(page.getByRole("heading", { name: "Record a postal entry" })).toBeVisible();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Entrant's name").fill("Robin Envelope");
    await page.getByLabel("Entrant's address").fill("12 Mill Lane\nHebden Bridge");
    await page.getByLabel("Their answer").selectOption({ label: "Four" });
    await page.getByRole("button", { name: "Record postal entry" }).click();
    await expect(page.getByText("Postal entry recorded for Robin Envelope", { exact: false })).toBeVisible();
    const table = page.getByRole("table", { name: "Latest entries" });
    await expect(table.getByRole("row").filter({ hasText: "Robin Envelope" })).toContainText("Postal");

    // The list shows it live, with its entry.
    await page.getByRole("link", { name: "Draws", exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Draws" })).toBeVisible();
    const row = page.getByRole("listitem").filter({ hasText: title });
    await expect(row.getByText("Live")).toBeVisible();
    await expect(row).toContainText("1 / 500 entries allocated");
  });
});
