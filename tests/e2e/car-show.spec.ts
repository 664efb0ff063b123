import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { joinAsMember, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A car show from classes to the car's history: three cars come through the gate (the fixture);
 * the organizer sets a class, places the cars and makes two members its judges; the judges mark
 * the three cars on phones, the second with the signal gone for the last car, sent when it comes
 * back; the leaderboard flags the tie for second; the class closes and the awards are given. Ten
 * admitted visitors vote by the windscreen card's address: one votes twice (one ballot), an
 * exhibitor tries their own car (refused), a visitor never scanned in is refused. Voting closes,
 * the results are published, a voter finds their ballot counted, and the winning car's garage
 * page shows its award.
 */
test.describe.configure({ mode: "serial", timeout: 420_000 });

const organizerSession = path.resolve("test-results/e2e/car-show-organizer.json");
const origin = () => new URL(test.info().project.use.baseURL!).origin;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", organizerSession);
});

type Member = { context: BrowserContext; page: Page; email: string; name: string };

async function member(browser: Browser, prefix: string, name: string): Promise<Member> {
  const context = await browser.newContext({ baseURL: origin(), serviceWorkers: "block" });
  const page = await context.newPage();
  const made = { ...newMember(prefix), name };
  await joinAsMember(page, made);
  return { context, page, email: made.email, name };
}

async function post(page: Page, url: string) {
  const answer = await page.request.post(url, { headers: { Origin: origin() } });
  expect(answer.ok(), await answer.text()).toBe(true);
  return new URL(answer.url());
}

/** "2026-12-05T14:30" in London, `minutes` from now: what a datetime-local field takes. */
function londonLocal(minutes: number) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(Date.now() + minutes * 60_000));
  const part = (type: string) => parts.find((each) => each.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}`;
}

/** A judge marks one car: paint and stance, found by its show number. */
async function mark(page: Page, showNumber: number, paint: string, stance: string) {
  await page.getByLabel("Show number").fill(String(showNumber));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^No\\. ${showNumber}: `) })).toBeVisible();
  await page.getByLabel("Paint (counts 60)").fill(paint);
  await page.getByLabel("Stance (counts 40)").fill(stance);
  await page.getByRole("button", { name: "Save marks" }).click();
  await expect(page.getByText(/^(Marks saved|Saved on this phone)/)).toBeVisible();
}

test("a show judged on phones, voted on by its visitors, with results anyone can check", async ({ browser }) => {
  const organizerContext = await browser.newContext({
    baseURL: origin(),
    storageState: organizerSession,
    serviceWorkers: "block",
  });
  const organizer = await organizerContext.newPage();
  const opened: Member[] = [];
  const join = async (prefix: string, name: string) => {
    const made = await member(browser, prefix, name);
    opened.push(made);
    return made;
  };
  try {
    // Three cars shown today, each already through the gate.
    const exhibitors: (Member & { carId: string })[] = [];
    let eventId = "own";
    let slug = "";
    for (const name of ["Ava Exhibitor", "Ben Exhibitor", "Cat Exhibitor"]) {
      const exhibitor = await join("exhibitor", name);
      const to = await post(exhibitor.page, `/dev/fixtures/show-exhibitor?event=${eventId}`);
      eventId = to.searchParams.get("event")!;
      slug = to.searchParams.get("slug")!;
      exhibitors.push({ ...exhibitor, carId: to.pathname.split("/").pop()! });
    }
    const [judgeOne, judgeTwo] = [await join("judge", "Jo Judge"), await join("judge", "Jules Judge")];

    // The organizer sets a class and its judges, and places the cars.
    await visit(organizer, `/admin/events/${eventId}/show`);
    const classes = organizer.getByRole("region", { name: "Classes and judges" });
    const newClass = classes.getByRole("region", { name: "Add a class" });
    await newClass.getByLabel("Class name").fill("Modified JDM");
    await newClass.getByLabel("Criterion 1", { exact: true }).fill("Paint");
    await newClass.getByLabel("Weight of criterion 1").fill("60");
    await newClass.getByLabel("Criterion 2", { exact: true }).fill("Stance");
    await newClass.getByLabel("Weight of criterion 2").fill("50");
    await newClass.getByRole("button", { name: "Add class" }).click();
    await expect(organizer.getByText("The weights add up to 110: make them add up to 100")).toBeVisible();
    await organizer.getByRole("region", { name: "Add a class" }).getByLabel("Weight of criterion 2").fill("40");
    await organizer.getByRole("region", { name: "Add a class" }).getByRole("button", { name: "Add class" }).click();
    const jdm = organizer.getByRole("region", { name: "Modified JDM" }).first();
    await expect(jdm).toBeVisible();
    for (const judge of [judgeOne, judgeTwo]) {
      await jdm.getByLabel("Judge’s email address").fill(judge.email);
      await jdm.getByRole("button", { name: "Add judge" }).click();
      await expect(jdm.getByRole("button", { name: `Remove ${judge.name}` })).toBeVisible();
    }
    const entries = organizer.getByRole("region", { name: "Cars in the show" });
    for (let index = 0; index < 3; index++) {
      const row = entries.getByRole("listitem").nth(index);
      await row.getByLabel("Class").selectOption({ label: "Modified JDM" });
      // The choice shows in the select at once: wait for the server to have placed the car.
      const label = (await row.getByRole("paragraph").first().textContent())!.split(" · ")[0]!.trim();
      await row.getByRole("button", { name: /^Save/ }).click();
      await expect(organizer.getByText(`${label} is placed.`)).toBeVisible();
    }
    await entries.getByRole("button", { name: "Number the cars" }).click();
    await expect(entries.getByText(/^#3 · /)).toBeVisible();
    // Which car got which number, from the list.
    const numberOf = async (exhibitor: Member) => {
      const row = entries.getByRole("listitem").filter({ hasText: exhibitor.name });
      return Number((await row.getByRole("paragraph").first().textContent())!.match(/#(\d+)/)![1]);
    };
    const numbers = [await numberOf(exhibitors[0]!), await numberOf(exhibitors[1]!), await numberOf(exhibitors[2]!)];

    // Voting opens now for two hours, with the one People's Choice category.
    const voting = organizer.getByRole("region", { name: "People’s Choice" });
    await voting.getByLabel("Voting opens").fill(londonLocal(-5));
    await voting.getByLabel("Voting closes").fill(londonLocal(120));
    await voting.getByRole("button", { name: "Save voting" }).click();
    await expect(organizer.getByText("Voting times are saved.")).toBeVisible();
    await organizer
      .getByRole("region", { name: "People’s Choice" })
      .getByRole("button", { name: /Add “People’s Choice”/ })
      .click();
    await expect(
      organizer
        .getByRole("region", { name: "People’s Choice" })
        .getByRole("listitem")
        .filter({ hasText: "People's Choice" }),
    ).toBeVisible();

    // The windscreen cards carry each car's vote address.
    await visit(organizer, `/admin/events/${eventId}/show/cards`);
    const voteUrlOf: Record<number, string> = {};
    for (const number of numbers) {
      const card = organizer.getByRole("region", { name: `Show number ${number}`, exact: true });
      voteUrlOf[number] = new URL((await card.getByText(/\/vote\//).textContent())!.trim()).pathname;
    }
    expect(Object.keys(voteUrlOf)).toHaveLength(3);

    // Judge one: 100, 80, 80. Judge two: 90, 70, then 70 with no signal, sent when it returns.
    await visit(judgeOne.page, "/members");
    await judgeOne.page.getByRole("region", { name: "Judging" }).getByRole("link").first().click();
    await expect(judgeOne.page).toHaveURL(new RegExp(`/members/judging/${eventId}`));
    await judgeOne.page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    for (const [index, marks] of [
      ["10", "10"],
      ["8", "8"],
      ["8", "8"],
    ].entries()) {
      await mark(judgeOne.page, numbers[index]!, marks[0]!, marks[1]!);
      await expect(judgeOne.page.getByText("Marks saved")).toBeVisible();
    }
    await visit(judgeTwo.page, `/members/judging/${eventId}`);
    await judgeTwo.page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await mark(judgeTwo.page, numbers[0]!, "9", "9");
    await expect(judgeTwo.page.getByText("Marks saved")).toBeVisible();
    await mark(judgeTwo.page, numbers[1]!, "7", "7");
    await expect(judgeTwo.page.getByText("Marks saved")).toBeVisible();
    await judgeTwo.page.getByLabel("Show number").fill(String(numbers[2]));
    await judgeTwo.page.getByRole("button", { name: "Find" }).click();
    await expect(
      judgeTwo.page.getByRole("heading", { level: 2, name: new RegExp(`^No\\. ${numbers[2]}: `) }),
    ).toBeVisible();
    await judgeTwo.context.setOffline(true);
    await judgeTwo.page.getByLabel("Paint (counts 60)").fill("7");
    await judgeTwo.page.getByLabel("Stance (counts 40)").fill("7");
    await judgeTwo.page.getByRole("button", { name: "Save marks" }).click();
    await expect(judgeTwo.page.getByText("Saved on this phone, will send when online")).toBeVisible();

    // Until the phone is back, the third car waits on judge two.
    await visit(organizer, `/admin/events/${eventId}/show`);
    const board = organizer.getByRole("region", { name: "Leaderboards and awards" });
    await expect(board.getByRole("row").filter({ hasText: "Incomplete" })).toHaveCount(1);
    // Back online, the phone sends what it kept and says so.
    await judgeTwo.context.setOffline(false);
    await judgeTwo.page.bringToFront();
    await expect(judgeTwo.page.getByText("Sent 1 save kept on this phone.")).toBeVisible({ timeout: 45_000 });
    await expect(async () => {
      await visit(organizer, `/admin/events/${eventId}/show`);
      await expect(board.getByRole("row").filter({ hasText: "Incomplete" })).toHaveCount(0, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    // 95 for car one; 75 and 75 share second place, flagged.
    await expect(board.getByRole("row").filter({ hasText: "95.00" })).toContainText("1");
    await expect(board.getByRole("row").filter({ hasText: "Tied" })).toHaveCount(2);

    // The class closes; awards come from the leaderboard.
    await organizer
      .getByRole("region", { name: "Modified JDM" })
      .first()
      .getByRole("button", { name: "Close Modified JDM" })
      .click();
    await expect(organizer.getByRole("region", { name: "Modified JDM" }).first().getByText("Closed")).toBeVisible();
    await board.getByRole("button", { name: /Best in Class to/ }).click();
    await expect(board.getByText("Best in Class").first()).toBeVisible();
    await board.getByLabel("Best in Show").selectOption({ index: 0 });
    await board.getByRole("button", { name: "Give Best in Show" }).click();
    await expect(board.getByRole("listitem").filter({ hasText: "Best in Show" })).toBeVisible();

    // Ten admitted visitors vote by the cards' addresses: seven for the winner, three for car two.
    const ballots: string[] = [];
    for (let index = 0; index < 10; index++) {
      const visitor = await member(browser, "visitor", `Vic Visitor ${index + 1}`);
      await post(visitor.page, `/dev/fixtures/show-visitor?event=${eventId}`);
      const car = index < 7 ? numbers[0]! : numbers[1]!;
      await visit(visitor.page, voteUrlOf[car]!);
      await visitor.page.getByRole("button", { name: `People's Choice: vote for car ${car}` }).click();
      await expect(visitor.page.getByText(/Vote cast: car \d+ in People's Choice/)).toBeVisible();
      if (index === 0) {
        // Voting twice changes nothing: still one ballot, with the same id.
        await visitor.page.getByRole("button", { name: `People's Choice: vote for car ${car}` }).click();
        await expect(visitor.page.getByText(/Vote changed: car \d+ in People's Choice/)).toBeVisible();
        await expect(visitor.page.getByText("Your vote: this car.")).toBeVisible();
      }
      ballots.push((await visitor.page.getByRole("region", { name: "Your ballots" }).locator("code").textContent())!);
      await visitor.context.close();
    }
    // An exhibitor, through the gate with a ticket of their own, cannot vote for their own car.
    const ben = exhibitors[1]!;
    await post(ben.page, `/dev/fixtures/show-visitor?event=${eventId}`);
    await visit(ben.page, voteUrlOf[numbers[1]!]!);
    await ben.page.getByRole("button", { name: `People's Choice: vote for car ${numbers[1]}` }).click();
    await expect(ben.page.getByText("You cannot vote for your own car").first()).toBeVisible();
    // A visitor whose ticket was never scanned in is refused.
    const outside = await join("outside", "Olly Outside");
    await post(outside.page, `/dev/fixtures/show-visitor?event=${eventId}&in=no`);
    await visit(outside.page, voteUrlOf[numbers[0]!]!);
    await outside.page.getByRole("button", { name: `People's Choice: vote for car ${numbers[0]}` }).click();
    await expect(
      outside.page.getByText("Only tickets checked in at the show can vote: scan in at the gate first").first(),
    ).toBeVisible();

    // Voting closes and the results are published.
    await visit(organizer, `/admin/events/${eventId}/show`);
    await organizer.getByRole("button", { name: "Close voting now" }).click();
    await expect(organizer.getByText("Voting is closed.")).toBeVisible();
    await organizer.getByRole("button", { name: "Publish results" }).click();
    await expect(organizer.getByText("The results are published.")).toBeVisible();

    // Anyone reads them, and a voter finds their ballot counted.
    const voterContext = await browser.newContext({ baseURL: origin(), serviceWorkers: "block" });
    const reader = await voterContext.newPage();
    await visit(reader, `/events/${slug}/results`);
    await expect(reader.getByRole("heading", { level: 1, name: "Show results" })).toBeVisible();
    const choice = reader.getByRole("region", { name: /People.s Choice/ }).first();
    await expect(choice).toContainText("7");
    await reader.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await reader.getByLabel("Your ballot id").fill(ballots[0]!);
    await reader.getByRole("button", { name: "Check", exact: true }).click();
    await expect(reader.getByText(`Your ballot is counted: People's Choice, car ${numbers[0]}.`)).toBeVisible();
    await expect(reader.getByText("The ballot list is the one committed to when voting closed: yes")).toBeVisible();
    await expect(reader.getByText("The totals on this page are the list's own count: yes")).toBeVisible();
    await voterContext.close();

    // The winner's garage shows the show, its place and its awards.
    const ava = exhibitors[0]!;
    await visit(ava.page, `/members/garage/${ava.carId}`);
    const history = ava.page.getByRole("region", { name: "Show history" });
    await expect(history).toContainText("Best in Class");
    await expect(history).toContainText("Best in Show");
    await expect(history).toContainText("1st of 3");
    await expect(history).toContainText("People's Choice: 7 votes, 1st");
  } finally {
    for (const each of opened) await each.context.close();
    await organizerContext.close();
  }
});
