import { joinAsMember, latestMessage, messagesTo, newMember } from "./accounts-helpers";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

/**
 * What a buyer sees after paying: the e-tickets on /success, the email with its QR codes and
 * receipt, the order and its receipt under /transactions, and the tickets under My tickets. The
 * paid order comes from the "paid-order" test fixture (two day tickets and a weekend pass for the
 * demo festival, through the real checkout and settlement).
 */
test("a paid order shows its e-tickets, is emailed once and is listed with a receipt", async ({ page }) => {
  const member = newMember("buyer");
  await joinAsMember(page, member);

  await visit(page, "/dev/fixtures/paid-order");
  await expect(page).toHaveURL(/\/success\?order=[0-9a-f-]{36}$/);
  const orderId = new URL(page.url()).searchParams.get("order")!;
  await expect(page.getByRole("heading", { level: 1, name: "You're in." })).toBeVisible();
  const number = (await page
    .getByText(/PL-\d{6}/)
    .first()
    .textContent())!.match(/PL-\d{6}/)![0];

  const tickets = page.getByRole("region", { name: /Your e-tickets/ }).getByRole("article");
  await expect(tickets).toHaveCount(3);
  await expect(page.getByRole("img", { name: /^QR code for ticket [0-9A-Z ]+$/ })).toHaveCount(3);
  await expect(tickets.filter({ hasText: "Weekend pass" })).toContainText(member.name);
  await expect(tickets.filter({ hasText: "Saturday day ticket" })).toContainText("Silverstone Festival of Speed");
  await expect(page.getByRole("table", { name: `Items in order ${number}` })).toContainText("£87.00");

  // One email, with the three QR codes inline and the receipt.
  const email = await latestMessage(page.request, member.email, /^Your tickets for Silverstone Festival of Speed/);
  expect(email.subject).toBe(`Your tickets for Silverstone Festival of Speed — order ${number}`);
  expect(email.text).toContain("Total  £87.00");
  expect(email.text).toContain("Weekend pass  1 × £39.00 = £39.00");
  const orderEmails = (await messagesTo(page.request, member.email)).filter((message) =>
    message.subject?.includes(number),
  );
  expect(orderEmails).toHaveLength(1);
  // The mailbox keeps the email with its QR codes inline, so /dev/mailbox shows them.
  const stored = orderEmails[0] as unknown as { html: string };
  expect(stored.html.match(/<img src="data:image\/png;base64,[^"]+"[^>]*alt="QR code for ticket /g)).toHaveLength(3);

  // An order that is not theirs is not found.
  allowConsoleErrors(page, FAILED_RESOURCE);
  await visit(page, `/success?order=${crypto.randomUUID()}`);
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();

  await visit(page, "/transactions");
  const row = page.getByRole("listitem").filter({ hasText: number });
  await expect(row).toContainText("Paid");
  await expect(row).toContainText("£87.00");
  await row.getByRole("link", { name: `Receipt for ${number}` }).click();
  await expect(page).toHaveURL(`/transactions/${orderId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
  await expect(page.getByText(number, { exact: true })).toBeVisible();
  await expect(page.getByRole("table", { name: `Items in order ${number}` })).toContainText("Sunday day ticket");
  await expect(page.getByRole("region", { name: "Payments and refunds" })).toContainText("£87.00");

  await page.getByRole("navigation", { name: "Members" }).getByRole("link", { name: "My tickets" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My tickets" })).toBeVisible();
  const upcoming = page.getByRole("region", { name: "Upcoming" });
  await expect(upcoming.getByRole("heading", { name: "Silverstone Festival of Speed" })).toBeVisible();
  await expect(upcoming.getByRole("img", { name: /QR code for ticket/ })).toHaveCount(3);
  await expect(upcoming.getByText("Valid")).toHaveCount(3);
});

test("a member without tickets is pointed to the events", async ({ page }) => {
  await joinAsMember(page, newMember("no-tickets"));
  await visit(page, "/members/events");
  await expect(page.getByText("No tickets yet — find an event")).toBeVisible();
  await page.getByRole("link", { name: "find an event" }).click();
  await expect(page).toHaveURL(/\/events$/);
});
