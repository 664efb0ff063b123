import path from "node:path";
import type { Page } from "@playwright/test";
import { saveStaffSession } from "./accounts-helpers";
import { allowConsoleErrors, expect, test, visit } from "./fixtures";

/** What Chromium logs for a request made with no connection. */
const OFFLINE_RESOURCE = /^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)$/;

// A gate page reloaded with no signal (docs/gate.md, "Without signal"): the service worker keeps a
// copy of the scanner (with nobody's name in it) each time the page loads online, so a phone that
// reloads at a field still scans from the list it got ready with.
test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ serviceWorkers: "allow" });

const session = path.resolve("test-results/e2e/gate-reload-organizer.json");
test.beforeAll(async ({ browser }) => saveStaffSession(browser, "organizer", session));
test.use({ storageState: session });

async function paidTicket(page: Page, eventId = "own") {
  await visit(page, `/dev/fixtures/checkin-ticket?event=${eventId}`);
  return {
    code: (await page.getByTestId("ticket-code").textContent())!.trim(),
    eventId: (await page.getByTestId("event-id").textContent())!.trim(),
  };
}

function gateCopySaved(page: Page, address: string) {
  return page.evaluate(async (url) => {
    if (!(await caches.has("gate-pages"))) return false;
    return Boolean(await (await caches.open("gate-pages")).match(url));
  }, address);
}

test("the Check-in tab reloaded with no connection still scans from the device's list", async ({ page, context }) => {
  const first = await paidTicket(page);
  const second = await paidTicket(page, first.eventId);
  const address = `/admin/events/${first.eventId}/checkin`;

  await visit(page, address);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // Loaded again under the worker's control: it keeps the page's copy.
  await visit(page, address);
  await expect.poll(() => gateCopySaved(page, address)).toBe(true);
  const copy = await page.evaluate(
    async (url) => (await (await caches.open("gate-pages")).match(url))!.text(),
    address,
  );
  expect(copy).toContain("kept on this device for use without signal");
  expect(copy).not.toContain("Ticket Holder");

  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const panel = page.getByRole("region", { name: "Without signal" });
  await panel.getByLabel("This gate's name").fill("Paddock");
  await panel.getByRole("button", { name: "Get ready for offline" }).click();
  await expect(panel.getByText("Ready for offline: 2 codes on this device.")).toBeVisible();

  allowConsoleErrors(page, OFFLINE_RESOURCE);
  await context.setOffline(true);
  await page.goto(address);
  await expect(page.getByText("This page was kept on this device for use without signal.")).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Ticket code").fill(first.code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked in:" })).toContainText(
    /Checked in: \S\.( \S\.){0,2}, Adult/,
  );
  await expect(panel).toContainText("1 scan waits to be sent.");

  // Back online: the scan is sent, and the page comes fresh from the server with the list.
  await context.setOffline(false);
  await expect(panel).not.toContainText("to be sent", { timeout: 30_000 });
  await visit(page, address);
  await expect(page.getByRole("complementary", { name: "Camera and count" })).toContainText("1 / 2 checked in");
  await expect(page.getByRole("region", { name: "Attendees" })).toContainText(second.code.replace(/ /g, "").slice(-4));
});
