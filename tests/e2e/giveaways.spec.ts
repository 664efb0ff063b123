import { newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// The demo draws the e2e server seeds: one live competition, one closing soon, a free giveaway,
// and one sold out and drawn through the same functions as a real draw.

test("a visitor sees live draws ending soonest first, then the drawn one with its winner", async ({ page }) => {
  await visit(page, "/giveaways");
  await expect(page.getByRole("heading", { level: 1, name: "Competitions and giveaways" })).toBeVisible();
  const open = page.getByRole("region", { name: "Open now" });
  const demo = [
    "Track day for two at Brands Hatch",
    "Win a 1989 Mk2 Golf GTI 16v",
    "Free giveaway: a pro detailing kit",
  ];
  // Other specs publish draws of their own meanwhile: the demo ones keep their order among them.
  const titles = await open.getByRole("heading", { level: 3 }).allTextContents();
  expect(titles.filter((title) => demo.includes(title))).toEqual(demo);
  await expect(open.getByRole("progressbar", { name: /Track day for two.*entries sold/ })).toHaveAttribute(
    "aria-valuenow",
    "87",
  );
  // Other specs draw their own meanwhile: look at the demo's drawn one.
  const drawn = page
    .getByRole("region", { name: "Closed and drawn" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3, name: "Forged wheel set, fitted" }) });
  await expect(drawn.getByText(/Won by \w+ \w\.( \w+)? \(entry \d+\)/)).toBeVisible();
});

test("a draw's page shows the prize, odds, bundles and the free postal route to a visitor", async ({ page }) => {
  await visit(page, "/giveaways/win-a-mk2-golf-gti");
  await expect(page.getByRole("heading", { level: 1, name: "Win a 1989 Mk2 Golf GTI 16v" })).toBeVisible();
  await expect(page.getByText("1 in 6,000")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enter free by post" })).toBeVisible();
  // The answer is never on the page before the draw closes.
  await expect(page.getByText("The answer was")).toHaveCount(0);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({ "@type": "Product", offers: { price: "2.49", priceCurrency: "GBP" } });
});

test("a visitor sees every live competition's prices and question before being asked to sign in", async ({ page }) => {
  await visit(page, "/giveaways");
  const open = page.getByRole("region", { name: "Open now" });
  const links = await open
    .getByRole("link")
    .evaluateAll((anchors) =>
      anchors.map((anchor) => anchor.getAttribute("href") ?? "").filter((href) => href.startsWith("/giveaways/")),
    );
  const draws = [...new Set(links)];
  expect(draws).toEqual(expect.arrayContaining(["/giveaways/track-day-for-two", "/giveaways/win-a-mk2-golf-gti"]));
  for (const href of draws) {
    await visit(page, href);
    if ((await page.getByText("Free giveaway", { exact: true }).count()) > 0) continue;
    const entry = page.getByRole("region", { name: "Enter", exact: true });
    const bundles = entry.getByRole("group", { name: "How many entries?" });
    await expect(bundles.getByRole("radio", { name: /^1 entry/ })).toBeVisible();
    await expect(bundles.getByText(/^£\d+\.\d\d$|^£\d+$/).first()).toBeVisible();
    // The question with all its options, none marked as the right one.
    const question = entry.getByRole("group").first();
    expect(await question.getByRole("radio").count()).toBeGreaterThanOrEqual(2);
    await expect(question.getByRole("radio", { checked: true })).toHaveCount(0);
    await expect(entry.getByRole("button", { name: "Add to cart" })).toBeVisible();
  }
  // A minimum of one entry is no minimum: the rules say nothing about one.
  await visit(page, "/giveaways/track-day-for-two");
  await expect(page.getByText(/If fewer than/)).toHaveCount(0);
  await visit(page, "/giveaways/win-a-mk2-golf-gti");
  await expect(page.getByText("If fewer than 3,000 entries are sold by the closing time")).toBeVisible();
});

test("a visitor's bundle and answer are kept through sign-in, back on the draw", async ({ page, browser }) => {
  // An adult member with a verified phone, made without signing this page in.
  const member = newMember("kept-choice");
  const setup = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const made = await setup.request.post(`${origin}/dev/fixtures/member`, {
    headers: { Origin: origin },
    form: {
      email: member.email,
      name: member.name,
      password: member.password,
      handle: `kept${Date.now().toString(36)}`,
      town: "Testbury",
      dateOfBirth: "1988-05-14",
      phone: `+4477009${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`,
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  await setup.close();

  await visit(page, "/giveaways/win-a-mk2-golf-gti");
  const entry = page.getByRole("region", { name: "Enter", exact: true });
  await entry.getByRole("radio", { name: "Volkswagen" }).check();
  await entry.getByRole("radio", { name: /^5 entries/ }).check();
  await entry.getByRole("checkbox", { name: /I am 18 or over/ }).check();
  await entry.getByRole("button", { name: "Add to cart" }).click();

  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await expect(page.getByText("Sign in or create an account to add your entries to the cart.")).toBeVisible();
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(/\/giveaways\/win-a-mk2-golf-gti\?/);
  await expect(entry.getByRole("radio", { name: "Volkswagen" })).toBeChecked();
  await expect(entry.getByRole("radio", { name: /^5 entries/ })).toBeChecked();
  await entry.getByRole("button", { name: "Add to cart" }).click();
  await expect(page).toHaveURL("/cart");
  await expect(page.getByText("5 entries for Win a 1989 Mk2 Golf GTI 16v added to your cart.")).toBeVisible();
});

test("the verify page of a drawn draw recomputes the same winner in the browser", async ({ page }) => {
  await visit(page, "/giveaways/forged-wheel-set");
  const result = page.getByRole("region", { name: "Result" });
  const winning = (await result.getByText(/Winning entry/).textContent()) ?? "";
  const winner = /Winning entry (\d+)/.exec(winning)?.[1];
  expect(winner).toBeTruthy();
  await result.getByRole("link", { name: "Check the draw yourself" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Check the draw/ })).toBeVisible();
  await expect(page.getByTestId("recomputed")).toHaveText(`Your browser drew entry ${winner}. The draw checks out.`);
});
