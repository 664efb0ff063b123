import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * What a buyer sees after paying (e-tickets on /success, the order email, the order and its
 * receipt under Orders, the tickets under My tickets) is followed step by step, from a real
 * purchase, in purchase-journey.spec.ts.
 */
test("a member without tickets is pointed to the events", async ({ page }) => {
  await joinAsMember(page, newMember("no-tickets"));
  await visit(page, "/members/events");
  await expect(page.getByText("No tickets yet — find an event")).toBeVisible();
  await page.getByRole("link", { name: "find an event" }).click();
  await expect(page).toHaveURL(/\/events$/);
});
