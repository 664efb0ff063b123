import path from "node:path";
import { chromium, type Page, type Route } from "@playwright/test";
import { type DemoStaff, latestMessage, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";
import { writeQrVideo } from "./qr-video";

// The gate and refunds, driven by the demo organizer and admin. Sign-ins per address are rate
// limited, so each signs in once per worker and the tests reuse the saved sessions. The paid
// ticket comes from the test fixture, which buys it through the real cart, checkout and settlement
// for a buyer of its own. The refund test compares its event's sold count before and after, so its
// ticket is for an event of its own: copies of this spec may run at once (--repeat-each).
test.describe.configure({ mode: "serial" });

const sessionFile = (who: DemoStaff) => path.resolve(`test-results/e2e/checkin-${who}.json`);

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
  await saveStaffSession(browser, "admin", sessionFile("admin"));
});

/** A freshly paid order of one adult ticket, for the demo Japanese Performance Day or an event of its own. */
async function paidTicket(page: Page, { ownEvent = false } = {}) {
  await visit(page, `/dev/fixtures/checkin-ticket${ownEvent ? "?event=own" : ""}`);
  return {
    code: (await page.getByTestId("ticket-code").textContent())!.trim(),
    qrPayload: (await page.getByTestId("ticket-qr").textContent())!.trim(),
    eventId: (await page.getByTestId("event-id").textContent())!.trim(),
    orderNumber: (await page.getByTestId("order-number").textContent())!.trim(),
    buyerEmail: (await page.getByTestId("buyer-email").textContent())!.trim(),
  };
}

async function soldOnEvent(page: Page, eventId: string) {
  await visit(page, `/admin/events/${eventId}`);
  const meter = page.getByText(/\/ [\d,]+ sold/).locator("..");
  const text = (await meter.textContent()) ?? "";
  return Number(text.replace(/,/g, "").match(/^\s*(\d+)/)![1]);
}

test.describe("organizer at the gate", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("a typed code checks in once; the second time says when and by whom", async ({ page }) => {
    const ticket = await paidTicket(page);
    // The list shows the next events; a search finds this one however many come before it.
    await visit(page, "/admin/check-in");
    await page.getByLabel("Find an event by title, venue or town").fill("Japanese Performance");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=Japanese\+Performance$/);
    await page.getByRole("link", { name: /Japanese Performance Day/ }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/events/${ticket.eventId}/checkin$`));
    await expect(page.getByRole("heading", { name: "Check-in", level: 2 })).toBeVisible();

    await page.getByLabel("Ticket code").fill(ticket.code.toLowerCase());
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Checked in:" })).toContainText("Adult");

    await page.getByLabel("Ticket code").fill(ticket.code);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Already checked in" })).toContainText(
      /Already checked in at \d{2}:\d{2} by \S+/,
    );

    await page.getByLabel("Ticket code").fill("not a ticket");
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "This code is not a valid ticket" })).toBeVisible();

    // The attendee list finds the ticket by the end of its code, checked in.
    await page
      .getByLabel(/Search by name, email, order number or code ending/)
      .fill(ticket.code.replace(/ /g, "").slice(-4));
    await page.getByRole("button", { name: "Search" }).click();
    // The code cell reads "…ABCD"; an order number that happens to end alike reads "PL-00ABCD".
    await expect(
      page.getByRole("row").filter({ hasText: `…${ticket.code.replace(/ /g, "").slice(-4)}` }),
    ).toContainText("Checked in");

    const csv = await page.request.get(`/admin/events/${ticket.eventId}/attendees.csv`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect(await csv.text()).toMatch(/^Name,Email,Ticket type,Code ends,Status,Checked in,Checked in by\r\n/);
  });

  test("the answer stays while the page catches up with the other stewards' scans", async ({ page, context }) => {
    // The page's own clock, so the test moves it to the next catch-up instead of waiting for it.
    // Installed first: it goes into every page of the context, and the accessibility scan of each
    // visit opens and closes a blank page of its own, which an install made mid-scan can race.
    await page.clock.install();
    const mine = await paidTicket(page);
    const theirs = await paidTicket(page);
    await visit(page, `/admin/events/${mine.eventId}/checkin`);
    const counted = async () =>
      Number((await page.getByText(/^\d+ \/ [\d,]+ checked in$/).textContent())!.match(/^(\d+)/)![1]);
    const opened = await counted();
    await page.getByLabel("Ticket code").fill(mine.code);
    await page.getByRole("button", { name: "Check in" }).click();
    const answer = page.getByRole("status").filter({ hasText: "Checked in:" });
    await expect(answer).toContainText("Adult");
    // The count moves with the page's own scan once the scan is done.
    await expect.poll(counted).toBeGreaterThan(opened);
    const before = await counted();

    // Another steward admits someone at another gate.
    const other = await context.newPage();
    await visit(other, `/admin/events/${theirs.eventId}/checkin`);
    await other.getByLabel("Ticket code").fill(theirs.code);
    await other.getByRole("button", { name: "Check in" }).click();
    await expect(other.getByRole("status").filter({ hasText: "Checked in:" })).toContainText("Adult");
    await other.close();

    // The steward has started typing the next code when the count catches up.
    await page.getByLabel("Ticket code").fill("7Q2M");
    await page.clock.fastForward(10_000);
    await expect.poll(counted).toBeGreaterThan(before);
    await expect(answer).toContainText("Adult");
    await expect(page.getByLabel("Ticket code")).toHaveValue("7Q2M");
  });

  test("two codes sent in quick succession: the answer is the second's", async ({ page }) => {
    const ticket = await paidTicket(page);
    await visit(page, `/admin/events/${ticket.eventId}/checkin`);
    // The first code is held on its way to the server, as on a slow connection.
    let held: (route: Route) => void = () => {};
    const first = new Promise<Route>((resolve) => {
      held = resolve;
    });
    let holding = true;
    await page.route(/\/checkin\.data/, async (route) => {
      if (holding && route.request().method() === "POST") {
        holding = false;
        held(route);
      } else {
        await route.fallback();
      }
    });
    const code = page.getByLabel("Ticket code");
    await code.fill("not a ticket");
    await code.press("Enter");
    const slow = await first;
    await expect(page.getByRole("button", { name: "Checking…" })).toBeVisible();

    const givenUp = page.waitForEvent("requestfailed", (request) => request === slow.request());
    await code.fill(ticket.code);
    await code.press("Enter");
    await givenUp;
    await expect(page.getByRole("status").filter({ hasText: "Checked in:" })).toContainText("Adult");
    await expect(page.getByRole("button", { name: "Check in" })).toBeVisible();
  });

  test("the camera reads a ticket's QR code and checks it in", async ({ page, baseURL }, testInfo) => {
    const ticket = await paidTicket(page);
    // A second browser whose camera films the ticket's QR code (Chromium's fake capture device).
    const video = writeQrVideo(ticket.qrPayload, testInfo.outputPath("ticket-qr.y4m"));
    const options = testInfo.project.use.launchOptions ?? {};
    const browser = await chromium.launch({
      ...options,
      args: [
        ...(options.args ?? []),
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    try {
      const context = await browser.newContext({
        baseURL,
        storageState: sessionFile("organizer"),
        serviceWorkers: "block",
        permissions: ["camera"],
      });
      const gate = await context.newPage();
      await gate.goto(`/admin/events/${ticket.eventId}/checkin`);
      await gate.getByRole("button", { name: "Scan with camera" }).click();
      await expect(gate.getByRole("button", { name: "Stop camera" })).toBeVisible();
      await expect(gate.getByRole("status").filter({ hasText: "Checked in:" })).toContainText("Adult");
      // The ticket stays in front of the camera: it is not sent again and again, and when it is
      // read again later the gate says it is already in.
      await expect(gate.getByRole("status").filter({ hasText: "Already checked in" })).toContainText(
        /Already checked in at \d{2}:\d{2} by \S+/,
        { timeout: 15_000 },
      );
      await gate.getByRole("button", { name: "Stop camera" }).click();
      await expect(gate.getByRole("button", { name: "Scan with camera" })).toBeVisible();
      // A code typed after the camera's reads answers in place of theirs.
      await gate.getByLabel("Ticket code").fill("not a ticket");
      await gate.getByRole("button", { name: "Check in" }).click();
      await expect(gate.getByRole("status").filter({ hasText: "This code is not a valid ticket" })).toBeVisible();
    } finally {
      await browser.close();
    }
  });

  test("organizers see orders but cannot refund", async ({ page }) => {
    const ticket = await paidTicket(page);
    await visit(page, `/admin/orders?q=${ticket.orderNumber}`);
    await page.getByRole("link", { name: new RegExp(ticket.orderNumber) }).click();
    await expect(page.getByRole("heading", { name: ticket.orderNumber })).toBeVisible();
    await expect(page.getByText("Only admins can refund orders.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Review refund/ })).toHaveCount(0);
  });
});

test.describe("admin refunds", () => {
  test.use({ storageState: sessionFile("admin") });

  test("refunding one ticket marks it refunded and frees its place", async ({ page }) => {
    const ticket = await paidTicket(page, { ownEvent: true });
    const soldBefore = await soldOnEvent(page, ticket.eventId);

    await visit(page, "/admin/orders");
    await page.getByLabel("Order number, email or name").fill(ticket.orderNumber.replace("PL-", ""));
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: new RegExp(ticket.orderNumber) }).click();
    await expect(page.getByRole("heading", { name: ticket.orderNumber })).toBeVisible();

    const line = page.getByRole("region", { name: "Refund", exact: true }).locator("form").filter({ hasText: "Adult" });
    await line.getByLabel("Tickets to refund").fill("1");
    await line.getByLabel("Reason").fill("Cannot make it after all");
    await line.getByRole("button", { name: "Review refund" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /Refund £/ })).toContainText("1 ticket of");
    await page.getByRole("button", { name: "Confirm refund" }).click();

    await expect(page.getByText(/Refunded 1 ticket/)).toBeVisible();
    await expect(page.getByRole("region", { name: "Tickets" })).toContainText("Refunded");
    await expect(page.getByText("Refund · pending").or(page.getByText("Refund · succeeded"))).toBeVisible();
    expect(await soldOnEvent(page, ticket.eventId)).toBe(soldBefore - 1);
    const email = await latestMessage(
      page.request,
      ticket.buyerEmail,
      new RegExp(`Refund for order ${ticket.orderNumber}`),
    );
    expect(email.text).toContain("Cannot make it after all");
  });
});
