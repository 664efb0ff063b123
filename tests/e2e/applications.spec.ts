import { mkdirSync } from "node:fs";
import path from "node:path";
import { latestMessage, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A show-car application from start to gate: a member with a car in their garage applies to
 * an event taking applications; the organizer approves it with a message, which is emailed;
 * the member pays the £15 fee through the cart and the test checkout, gets the exhibitor pass
 * on /success and in My events; at the gate the organizer types the pass code and the scanner
 * says "Exhibitor: <car>", and a second scan says when and by whom. Each step needs the one
 * before: serial.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const member = newMember("exhibitor");
const sessionFile = (who: string) => path.resolve(`test-results/e2e/applications-${who}.json`);
const journey = { slug: "", eventId: "", carLabel: "", code: "" };

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(sessionFile("x")), { recursive: true });
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const made = await context.request.post(`${origin}/dev/fixtures/member`, {
    headers: { Origin: origin },
    form: {
      email: member.email,
      name: member.name,
      password: member.password,
      handle: `exhibitor${Date.now().toString(36)}`,
      town: "Testbury",
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const event = await context.request.post(`${origin}/dev/fixtures/application-event`, {
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(event.status(), await event.text()).toBe(302);
  const location = new URL(event.headers().location!, origin);
  journey.slug = location.pathname.replace("/events/", "");
  journey.eventId = location.searchParams.get("event")!;
  await context.storageState({ path: sessionFile("member") });
  await context.close();
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
});

test.describe("the member", () => {
  test.use({ storageState: sessionFile("member") });

  test("applies with a garage car from the event page", async ({ page }) => {
    await visit(page, `/events/${journey.slug}`);
    const section = page.getByRole("region", { name: "Apply with your car" });
    await expect(section).toBeVisible();
    const car = section.getByLabel("Your car");
    journey.carLabel = (await car.locator("option").first().textContent())!.trim();
    expect(journey.carLabel).toMatch(/^1967 Lotus Elan/);
    await section.getByLabel(/A note for the organizers/).fill("Restored over ten years; original engine.");
    await section.getByRole("button", { name: "Send application" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Application sent for your ${journey.carLabel}` }),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Apply with your car" })).toContainText(
      `${journey.carLabel} — Waiting for review`,
    );
  });
});

test.describe("the organizer", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("approves it with a message, emailed to the member", async ({ page }) => {
    await visit(page, `/admin/events/${journey.eventId}/applications`);
    const item = page.getByRole("listitem", { name: journey.carLabel });
    await expect(item).toContainText("Restored over ten years; original engine.");
    await item.getByLabel(/Message to the member/).fill("Park by the clubhouse, please.");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status").filter({ hasText: `${journey.carLabel} approved` })).toBeVisible();
    await expect(page.getByText("1 of 5 spots taken")).toBeVisible();
    const email = await latestMessage(page.request, member.email, /^Approved: your 1967 Lotus Elan/);
    expect(email.text).toContain("Message from the organizers: Park by the clubhouse, please.");
    expect(email.text).toContain("£15.00");
  });
});

test.describe("the member, approved", () => {
  test.use({ storageState: sessionFile("member") });

  test("pays the fee through the cart and gets the exhibitor pass", async ({ page }) => {
    await visit(page, "/members/events");
    const application = page.getByRole("article", { name: new RegExp(`^${journey.carLabel} at`) });
    await expect(application).toContainText("Park by the clubhouse, please.");
    await application.getByRole("button", { name: "Pay the fee" }).click();
    await expect(page).toHaveURL("/cart");
    await expect(page.getByRole("region", { name: "Show-car applications" })).toContainText(journey.carLabel);
    await page.getByRole("button", { name: /^Pay £15\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: /^Pay £15\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    const pass = page.getByRole("article", { name: `Exhibitor pass for ${journey.carLabel}` });
    await expect(pass.getByRole("img", { name: /^QR code for exhibitor pass/ })).toBeVisible();
    journey.code = (await pass.locator("p.font-mono").textContent())!.replace("Pass code", "").trim();
    expect(journey.code.replace(/ /g, "")).toHaveLength(26);

    await visit(page, "/members/events");
    const mine = page.getByRole("article", { name: new RegExp(`^${journey.carLabel} at`) });
    await expect(mine).toContainText("Confirmed");
    await expect(mine.getByRole("img", { name: `QR code for exhibitor pass ${journey.code}` })).toBeVisible();
    const email = await latestMessage(page.request, member.email, /^Your exhibitor pass/);
    expect(email.text).toContain(journey.code);
  });
});

test.describe("the organizer at the gate", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("checks the exhibitor in by the pass code, once", async ({ page }) => {
    await visit(page, `/admin/events/${journey.eventId}/checkin`);
    await page.getByLabel("Ticket code").fill(journey.code.toLowerCase());
    await page.getByRole("button", { name: "Check in" }).click();
    const admitted = page.getByRole("status").filter({ hasText: `Exhibitor: ${journey.carLabel}` });
    await expect(admitted).toBeVisible();
    // The car's cover photo, to match the car at the gate.
    const photo = admitted.getByRole("img", { name: journey.carLabel });
    await expect(photo).toBeVisible();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.getByLabel("Ticket code").fill(journey.code);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Already checked in at .* by / })).toBeVisible();
  });
});
