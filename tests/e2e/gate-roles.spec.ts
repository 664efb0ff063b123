import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { joinAsMember, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Roles at the gate: the organizer puts one member on an event's gate as a steward and another as
 * a supervisor. The steward opens the gate from their account, scans and reads only initials; the
 * holder goes out and comes back in (the organizer turned re-entry on); the
 * supervisor finds a ticket by its code ending and lets its holder in by hand with a reason; taken
 * off the gate, the steward gets the 403 page. The tickets are bought by the check-in fixture
 * through the real checkout, for an event of the spec's own, so the counts are the spec's alone.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

const organizerSession = path.resolve("test-results/e2e/gate-roles-organizer.json");

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", organizerSession);
});

/** A paid adult ticket for an event of the spec's own: a new one, or `eventId`'s. */
async function paidTicket(page: Page, eventId = "own") {
  await visit(page, `/dev/fixtures/checkin-ticket?event=${eventId}`);
  return {
    code: (await page.getByTestId("ticket-code").textContent())!.trim(),
    eventId: (await page.getByTestId("event-id").textContent())!.trim(),
  };
}

async function memberPage(browser: Browser, prefix: string) {
  const baseURL = test.info().project.use.baseURL!;
  const context = await browser.newContext({ baseURL, serviceWorkers: "block" });
  const page = await context.newPage();
  const member = { ...newMember(prefix), name: prefix === "steward" ? "Stella Steward" : "Simon Super" };
  await joinAsMember(page, member);
  return { page, member, close: () => context.close() };
}

test("a steward scans with initials only, a supervisor lets in by hand with a reason, and a steward taken off loses the gate", async ({
  browser,
}) => {
  const organizerContext = await browser.newContext({
    baseURL: test.info().project.use.baseURL!,
    storageState: organizerSession,
    serviceWorkers: "block",
  });
  const organizer = await organizerContext.newPage();
  const first = await paidTicket(organizer);
  const second = await paidTicket(organizer, first.eventId);
  expect(second.eventId).toBe(first.eventId);

  const steward = await memberPage(browser, "steward");
  const supervisor = await memberPage(browser, "supervisor");
  try {
    // The organizer puts them on the gate, from the event's check-in tab.
    await visit(organizer, `/admin/events/${first.eventId}/checkin`);
    const staff = organizer.getByRole("region", { name: "Gate staff" });
    await staff.getByLabel("Their email address").fill("nobody-here@club.example");
    await staff.getByRole("button", { name: "Add to the gate" }).click();
    await expect(staff.getByText("No account has this email: ask them to sign up first")).toBeVisible();
    await staff.getByLabel("Their email address").fill(steward.member.email);
    await staff.getByRole("button", { name: "Add to the gate" }).click();
    await expect(
      organizer.getByRole("status").filter({ hasText: "Stella Steward is a steward at this gate." }),
    ).toBeVisible();
    await staff.getByLabel("Their email address").fill(supervisor.member.email);
    await staff.getByLabel("Role").selectOption("supervisor");
    await staff.getByRole("button", { name: "Add to the gate" }).click();
    await expect(
      organizer.getByRole("status").filter({ hasText: "Simon Super is a supervisor at this gate." }),
    ).toBeVisible();
    await expect(staff.getByRole("listitem")).toHaveCount(2);
    // Holders may go out and come back in today.
    const reentry = organizer.getByRole("region", { name: "Re-entry" });
    await reentry.getByLabel(/Let ticket holders out and back in/).check();
    await reentry.getByRole("button", { name: "Save re-entry" }).click();
    await expect(organizer.getByRole("status").filter({ hasText: "Re-entry is on" })).toBeVisible();

    // The steward finds the gate on their account and scans: initials and ticket type, no names.
    await visit(steward.page, "/members");
    await steward.page.getByRole("region", { name: "Gate duty" }).getByRole("link").first().click();
    await expect(steward.page).toHaveURL(new RegExp(`/members/gate/${first.eventId}$`));
    await expect(steward.page.getByText("Gate steward")).toBeVisible();
    await steward.page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await steward.page.getByLabel("Ticket code").fill(first.code);
    await steward.page.getByRole("button", { name: "Check in" }).click();
    await expect(steward.page.getByRole("status").filter({ hasText: "Checked in:" })).toContainText(
      /Checked in: \S\.( \S\.){0,2}, Adult/,
    );
    // Out to the car park and back: the switch says which way.
    await steward.page.getByText("Exit", { exact: true }).click();
    await steward.page.getByLabel("Ticket code").fill(first.code);
    await steward.page.getByRole("button", { name: "Scan out" }).click();
    await expect(steward.page.getByRole("status").filter({ hasText: "Out:" })).toContainText(
      "They can come back in with this ticket.",
    );
    await expect(steward.page.getByText(/0 inside now, 1 out/)).toBeVisible();
    await steward.page.getByText("Entry", { exact: true }).click();
    await steward.page.getByLabel("Ticket code").fill(first.code);
    await steward.page.getByRole("button", { name: "Check in" }).click();
    await expect(steward.page.getByRole("status").filter({ hasText: "Back in:" })).toContainText(/Back in: \S\./);
    await expect(steward.page.getByText(/1 inside now, 0 out/)).toBeVisible();
    await expect(steward.page.getByRole("region", { name: "Attendees" })).toHaveCount(0);
    await expect(steward.page.getByText("Let in by hand")).toHaveCount(0);

    // The supervisor finds the second ticket by its code ending and lets its holder in by hand.
    await visit(supervisor.page, `/members/gate/${first.eventId}`);
    await expect(supervisor.page.getByText("Gate supervisor")).toBeVisible();
    const ending = second.code.replace(/ /g, "").slice(-4);
    await supervisor.page.getByLabel(/Search by name, email, order number or code ending/).fill(ending);
    await supervisor.page.getByRole("button", { name: "Search" }).click();
    // The code cell reads "…ABCD"; an order number that happens to end alike reads "PL-00ABCD".
    const row = supervisor.page.getByRole("row").filter({ hasText: `…${ending}` });
    await row.getByText("Let in by hand").click();
    await row.getByRole("button", { name: "Let in" }).click();
    // The browser asks for the reason before anything is sent.
    await expect(row.getByLabel("Why?")).toBeFocused();
    await row.getByLabel("Why?").fill("Phone battery died");
    await row.getByRole("button", { name: "Let in" }).click();
    await expect(supervisor.page.getByRole("status").filter({ hasText: "Checked in by hand" })).toContainText(
      "Phone battery died",
    );
    await expect(supervisor.page.getByRole("row").filter({ hasText: `…${ending}` })).toContainText("Checked in");
    await expect(supervisor.page.getByText("By hand", { exact: true })).toBeVisible();

    // Taken off the gate, the steward's page is refused at once.
    await visit(organizer, `/admin/events/${first.eventId}/checkin`);
    await organizer.getByRole("button", { name: "Remove Stella Steward" }).click();
    await expect(organizer.getByRole("status").filter({ hasText: "Removed from the gate." })).toBeVisible();
    const refused = await steward.page.goto(`/members/gate/${first.eventId}`);
    expect(refused?.status()).toBe(403);
  } finally {
    await steward.close();
    await supervisor.close();
    await organizerContext.close();
  }
});
