import path from "node:path";
import { type BrowserContext, chromium, type Page } from "@playwright/test";
import { saveStaffSession } from "./accounts-helpers";
import { expect, test } from "./fixtures";
import { writeQrVideo } from "./qr-video";

/**
 * The gate with no signal: two stewards' devices get the event's admission list ready, lose the
 * connection, and keep deciding scans on their own — 50 codes typed by a hand scanner on one (a
 * refunded ticket, a transferred one and a forged code among them), the camera on the other, both
 * admitting one ticket. Back online, both outboxes are sent and the supervisor sees the one
 * conflict. The event is the spec's own, with its tickets sold through the real checkout.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = path.resolve("test-results/e2e/offline-gate-organizer.json");
const made = { eventId: "", valid: [] as string[], refunded: "", transferred: "" };

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", session);
  const context = await browser.newContext({ baseURL: origin() });
  try {
    const response = await context.request.post("/dev/gate-fixture", { headers: { Origin: origin() } });
    expect(response.ok(), await response.text()).toBe(true);
    Object.assign(made, await response.json());
  } finally {
    await context.close();
  }
  expect(made.valid).toHaveLength(48);
});

/** A signature with one character changed: the device must refuse it with no server. */
function forged(payload: string) {
  const last = payload.at(-5)!;
  return `${payload.slice(0, -5)}${last === "A" ? "B" : "A"}${payload.slice(-4)}`;
}

async function getReady(page: Page, gate: string) {
  await page.goto(`/admin/events/${made.eventId}/checkin`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const panel = page.getByRole("region", { name: "Without signal" });
  await panel.getByLabel("This gate's name").fill(gate);
  await panel.getByRole("button", { name: "Get ready for offline" }).click();
  await expect(panel.getByText("Ready for offline: 50 codes on this device.")).toBeVisible();
}

async function scanTyped(page: Page, payload: string, expected: string | RegExp) {
  const input = page.getByLabel("Ticket code");
  await input.fill(payload);
  await input.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: expected }).first()).toBeVisible();
}

test.describe("stewards at two gates", () => {
  test.use({ storageState: session, serviceWorkers: "block" });

  test("two devices decide scans offline, send them back online, and the supervisor sees the one conflict", async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const shared = made.valid[0]!;
    // Device A: a hand scanner types each QR's text and Enter.
    await getReady(page, "A");

    // Device B: a second browser whose camera films the shared ticket's QR (Chromium's fake camera).
    const video = writeQrVideo(shared, testInfo.outputPath("shared-ticket.y4m"));
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
    let other: BrowserContext | null = null;
    try {
      other = await browser.newContext({
        baseURL,
        storageState: session,
        serviceWorkers: "block",
        permissions: ["camera"],
      });
      const deviceB = await other.newPage();
      await getReady(deviceB, "B");

      // While there is signal, a device ready for offline still asks the server.
      await scanTyped(page, made.valid[1]!, /Checked in: Gate Holder\d, Adult/);

      // No signal at either gate.
      await context.setOffline(true);
      await other.setOffline(true);
      await expect(page.getByRole("region", { name: "Without signal" })).toContainText(
        "Offline: scans are checked on this device",
      );

      // B's camera reads the shared ticket and admits it, on the device alone.
      await deviceB.getByRole("button", { name: "Scan with camera" }).click();
      await expect(deviceB.getByRole("status").filter({ hasText: "Checked in:" })).toContainText("Adult");
      await deviceB.getByRole("button", { name: "Stop camera" }).click();

      // A: 50 scans, each decided on the device in well under a second.
      const started = Date.now();
      for (const [index, payload] of made.valid.slice(0, 47).entries()) {
        // The second was let in online, before the signal went: the device knows it is in.
        await scanTyped(
          page,
          payload,
          index === 1 ? /Already checked in at \d{2}:\d{2}/ : /Checked in: G\. H\., Adult/,
        );
      }
      await scanTyped(page, made.refunded, "This ticket was refunded");
      await scanTyped(page, made.transferred, "This ticket was transferred");
      await scanTyped(page, forged(made.valid[47]!), "This code is not a valid ticket");
      expect(Date.now() - started).toBeLessThan(60_000);
      // The same ticket again on A: it knows it let it in.
      await scanTyped(page, made.valid[2]!, /Already checked in at \d{2}:\d{2}/);
      await expect(page.getByRole("region", { name: "Without signal" })).toContainText("51 scans wait to be sent.");

      // Back online: both outboxes go, and the page shows the conflict for the supervisor.
      await other.setOffline(false);
      await expect(deviceB.getByRole("region", { name: "Without signal" })).toContainText("Sent 1 scan made offline.", {
        timeout: 30_000,
      });
      await context.setOffline(false);
      const panel = page.getByRole("region", { name: "Without signal" });
      await expect(panel).toContainText(/Sent 51 scans made offline\. 1 conflict for the supervisor/, {
        timeout: 30_000,
      });
      await expect(panel).not.toContainText("to be sent");
      const conflicts = page.getByRole("region", { name: "Conflicts from offline scans" });
      await expect(conflicts.getByRole("listitem")).toHaveCount(1);
      await expect(conflicts).toContainText(/Admitted twice, at gates (A and B|B and A), \d{2}:\d{2} and \d{2}:\d{2}/);

      // The counter: the 47 codes A let in (the shared one among them, which B let in too), of
      // the 48 tickets that admit; the last one was only ever shown forged.
      await page.reload();
      await expect(page.getByText("Through the gate").locator("..")).toContainText("47 / 48 checked in");
      await page.screenshot({ path: testInfo.outputPath("gate-after-sync.png"), fullPage: true });
    } finally {
      await other?.close();
      await browser.close();
    }
  });
});
