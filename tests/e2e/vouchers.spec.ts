import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Codes as people meet them: a crew member follows their crew link, the hidden crew ticket is
 * offered in the cart, and the code makes it free; a code that is not one we issued is refused by
 * the field, and a code for something else is shown as such until it is taken out.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const crew = newMember("crew");

test("a crew link unlocks the hidden crew ticket, which the code makes free", async ({ page }) => {
  await page.goto("/cart?voucher=CREW2027");
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("status").filter({ hasText: "Code CREW2027 added to your cart." })).toBeVisible();
  const unlocks = page.getByRole("heading", { name: "Your code unlocks" }).locator("..");
  await expect(unlocks).toContainText("Crew");
  await expect(unlocks).toContainText("Silverstone Festival of Speed");
  // The crew ticket is nowhere on the public event page.
  await visit(page, "/events/silverstone-festival-of-speed");
  await expect(page.getByRole("main")).not.toContainText("Bring your crew code");

  await joinAsMember(page, crew);
  await visit(page, "/cart");
  await page.getByRole("button", { name: "Add to cart: Crew, Silverstone Festival of Speed" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your cart." })).toBeVisible();
  await expect(
    page.getByRole("main").getByRole("listitem", { name: /Silverstone Festival of Speed, Crew/ }),
  ).toBeVisible();
  const summary = page.getByRole("region", { name: "Order summary" });
  await expect(summary).toContainText("Code CREW2027−£25.00");
  await summary.getByRole("button", { name: "Pay £0.00" }).click();
  await expect(page).toHaveURL(/\/success\?order=/);
  await expect(page.getByRole("main")).toContainText("Crew");

  // The receipt names the code and what it took off.
  await visit(page, "/transactions");
  await page
    .getByRole("link", { name: /^Receipt for PL-/ })
    .first()
    .click();
  await expect(page.getByRole("table")).toContainText("Code CREW2027−£25.00");
});

test("a code we never issued is refused by its field; one for something else is shown and taken out", async ({
  page,
}) => {
  await joinAsMember(page, newMember("codes"));
  await visit(page, "/shop/sticker-pack");
  await page.getByLabel("Quantity").fill("1");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 1 × Sticker pack to your cart." })).toBeVisible();
  await visit(page, "/cart");
  const field = page.getByLabel("Voucher or discount code");
  await field.fill("nosuchcode");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("There is no code NOSUCHCODE: check it and try again")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill("welcome10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Code WELCOME10 added to your cart." })).toBeVisible();
  const code = page.getByRole("region", { name: "Discount code" });
  await expect(code).toContainText("The code WELCOME10 does not apply to anything in your cart");
  // Pay waits until the code is taken out, so nobody pays a price they did not expect.
  await expect(
    page.getByRole("region", { name: "Order summary" }).getByRole("button", { name: /^Pay £/ }),
  ).toBeDisabled();
  await code.getByRole("button", { name: "Remove code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The code was removed from your cart." })).toBeVisible();
  await expect(page.getByLabel("Voucher or discount code")).toBeVisible();
});
