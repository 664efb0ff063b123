import path from "node:path";
import { joinAsMember, latestMessage, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// Fulfilment, driven as staff would: a member's paid merch order (made through the real checkout
// and settlement by a test fixture) is found, its packing list printed, and it is marked shipped;
// the buyer gets one email with the carrier's tracking link and sees it on their receipt.
const sessionFile = path.resolve("test-results/e2e/fulfilment-organizer.json");

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

test("staff ship a paid merch order; the buyer is emailed the tracking link once", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const buyer = newMember("merch-buyer");
  await joinAsMember(page, buyer);
  await page.goto("/dev/fixtures/merch-order");
  await expect(page.getByRole("heading", { name: "Receipt" })).toBeVisible();
  const reference = (await page
    .getByText(/^PL-\d{6}$/)
    .first()
    .textContent())!.trim();
  await expect(page.getByRole("heading", { name: /Merch/ })).toBeVisible();
  await expect(page.getByText("We are packing your merch.", { exact: false })).toBeVisible();

  const staff = await browser.newContext({ storageState: sessionFile, serviceWorkers: "block" });
  const admin = await staff.newPage();
  await visit(admin, "/admin/fulfilment");
  await admin.getByLabel("Order number or name").fill(reference);
  await admin.getByRole("button", { name: "Search" }).click();
  const card = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: reference }) });
  await expect(card).toBeVisible();
  await expect(card.getByText("1 Pit Lane")).toBeVisible();

  // The packing list: one sheet, with the address and a box to tick per line.
  await card.getByRole("link", { name: `Packing list for ${reference}` }).click();
  await expect(admin.getByRole("heading", { name: reference })).toBeVisible();
  await expect(admin.getByText("NN12 8TN")).toBeVisible();
  await expect(admin.getByRole("columnheader", { name: "Packed" })).toBeVisible();
  await admin.goBack();

  // A mistake first: "Other" needs the tracking page; what was typed stays.
  const shipCard = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: reference }) });
  await shipCard.getByLabel("Carrier", { exact: true }).selectOption("other");
  await shipCard.getByLabel("Tracking number").fill("AB123456789GB");
  await shipCard.getByRole("button", { name: "Mark shipped" }).click();
  await expect(shipCard.getByText("Enter the carrier's tracking page address")).toBeVisible();
  await expect(shipCard.getByLabel("Tracking number")).toHaveValue("AB123456789GB");

  await shipCard.getByLabel("Carrier", { exact: true }).selectOption("royal_mail");
  await shipCard.getByRole("button", { name: "Mark shipped" }).click();
  await expect(admin.getByText(`${reference} is marked shipped.`, { exact: false })).toBeVisible();

  await visit(admin, `/admin/fulfilment?view=shipped&q=${reference}`);
  await expect(admin.getByRole("link", { name: `Track ${reference}` })).toHaveAttribute(
    "href",
    "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
  );
  await staff.close();

  const email = await latestMessage(page.request, buyer.email, /is on its way/);
  expect(email.text).toContain("https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB");

  await page.reload();
  await expect(page.getByRole("link", { name: "Track your parcel" })).toHaveAttribute(
    "href",
    "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
  );
});
