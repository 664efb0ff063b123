import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { goodDrawFields } from "./draw-form.test-support";
import { drawFormSchema, parseBundles, parseInstantWins, postalEntrySchema } from "./schemas";

function formOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

const schema = drawFormSchema({ currency: "GBP", timeZone: "Europe/London" });
const parse = (overrides: Record<string, string> = {}) =>
  parseWithZod(formOf({ ...goodDrawFields, ...overrides }), { schema });

function errorsOf(overrides: Record<string, string>) {
  const submission = parse(overrides);
  expect(submission.status).toBe("error");
  return Object.fromEntries(
    Object.entries(submission.status === "error" ? (submission.error ?? {}) : {}).map(([key, value]) => [
      key,
      value?.[0],
    ]),
  );
}

describe("the draw form", () => {
  it("reads money in minor units, times in the site's zone, bundles, options and instant wins", () => {
    const submission = parse();
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      prizeValue: 8_500_000,
      cashAlternative: 7_000_000,
      price: 250,
      bundles: [
        { entries: 5, price: 1000 },
        { entries: 10, price: 1800 },
      ],
      // 09:00 in London in June is 08:00 UTC.
      opensAt: new Date("2027-06-01T08:00:00Z"),
      options: ["Porsche", "Ferrari", "Lotus"],
      answer: 0,
      instantWins: [
        { number: 17, prize: "£50 fuel card" },
        { number: 250, prize: "A set of floor mats" },
      ],
    });
  });

  it("keeps the right answer when a gap is left among the options", () => {
    const submission = parse({ answer: "3" });
    expect(submission.status === "success" && submission.value.answer).toBe(2);
  });

  it("answers every mistake with a message on its field", () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ closesAt: "2027-05-01T09:00" }, { closesAt: "Entries must close after they open" }],
      [{ opensAt: "2027-02-31T09:00" }, { opensAt: "Enter a real date and time like 2027-06-12 09:30" }],
      [{ opensAt: "soon" }, { opensAt: "Enter a date and time like 2027-06-12 09:30" }],
      [{ price: "2.505" }, { price: "Enter an amount like 12.50 in £ (0 for free)" }],
      [{ price: "0" }, { price: "Enter the price of one entry" }],
      [{ totalEntries: "0" }, { totalEntries: "Enter at least 1" }],
      [{ totalEntries: "2.5" }, { totalEntries: "Enter the number of entries as a whole number" }],
      [{ maxPerMember: "6000" }, { maxPerMember: "The limit per person cannot be more than the entries" }],
      [{ "options[1]": "", "options[3]": "" }, { options: "Offer between 2 and 5 answers" }],
      [{ "options[1]": "porsche" }, { options: "Make every answer different" }],
      [{ answer: "2" }, { answer: "The right answer must be one of the answers filled in" }],
      [{ answer: "" }, { answer: "Choose the right answer" }],
      [{ bundles: "five for a tenner" }, { bundles: "Line 1: write the entries then the price, like “5 8.00”" }],
      [{ bundles: "5 10\n5 9" }, { bundles: "Line 2: there is already a bundle of 5 entries" }],
      [{ bundles: "1 2.00" }, { bundles: "Line 1: a bundle has 2 entries or more" }],
      [{ bundles: "6000 100" }, { bundles: "A bundle cannot hold more entries than the draw has" }],
      [{ instantWins: "17 fuel\n17 mats" }, { instantWins: "Line 2: entry 17 already has an instant win" }],
      [{ instantWins: "0 fuel" }, { instantWins: "Line 1: entry numbers start at 1" }],
      [{ instantWins: "5001 fuel" }, { instantWins: "Instant wins must be entry numbers from 1 to 5000" }],
      [{ instantWins: "12 fuel\tcard" }, { instantWins: "Line 1: write the prize as ordinary text, without tabs" }],
      [{ instantWins: "12" }, { instantWins: "Line 1: say what entry 12 wins" }],
      [
        { undersoldPolicy: "cash", cashAlternative: "" },
        { cashAlternative: "Drawing for the cash alternative needs one: enter it" },
      ],
      [{ cashAlternative: "90000" }, { cashAlternative: "The cash alternative cannot be more than the prize's value" }],
      [{ kind: "giveaway" }, { price: "A giveaway is free: leave the price at 0" }],
      [{ kind: "raffle" }, { kind: "Choose a competition or a giveaway" }],
      [{ undersoldPolicy: "shrug" }, { undersoldPolicy: "Choose what happens if too few enter" }],
      [{ title: "<b>Win</b>" }, { title: "Leave out < and >" }],
      [{ title: "x".repeat(1_000_000) }, { title: "Use at most 120 characters" }],
      [{ slug: "verify" }, { slug: "This word is used by the site's own pages: choose another" }],
      [{ beaconSource: "" }, { beaconSource: "Name the public value that will decide the draw" }],
    ];
    for (const [overrides, expected] of cases) {
      expect(errorsOf(overrides), JSON.stringify(overrides).slice(0, 80)).toMatchObject(expected);
    }
  });

  it("takes a free giveaway with no price and no bundles", () => {
    const submission = parse({
      kind: "giveaway",
      price: "0",
      bundles: "",
      undersoldPolicy: "cash",
      cashAlternative: "",
    });
    expect(submission.status).toBe("success");
  });
});

describe("instant wins and chosen numbers", () => {
  it("lets members choose their numbers only in a draw without instant wins", () => {
    const withPicks = parse({ allowPicks: "on", instantWins: "" });
    expect(withPicks.status === "success" && withPicks.value.allowPicks).toBe(true);
    const both = errorsOf({ allowPicks: "on" });
    expect(both.allowPicks).toBe(
      "A draw with instant wins gives every number at random: remove the instant wins or this choice",
    );
  });
});

describe("bundle and instant-win lines", () => {
  it("reads the forms organizers type, and sorts them", () => {
    expect(parseBundles("10 x 15\n 5 for £8 \n\n2 3.5")).toEqual({
      ok: true,
      value: [
        { entries: 2, price: 350 },
        { entries: 5, price: 800 },
        { entries: 10, price: 1500 },
      ],
    });
    expect(parseInstantWins("#250 → Mats\r\n17 - Fuel card")).toEqual({
      ok: true,
      value: [
        { number: 17, prize: "Fuel card" },
        { number: 250, prize: "Mats" },
      ],
    });
  });
});

describe("the postal entry form", () => {
  const postal = postalEntrySchema({ timeZone: "Europe/London", optionCount: 3 });
  it("reads the received time in the site's zone and the member's email in lower case", () => {
    const submission = parseWithZod(
      formOf({
        name: "Sam Hughes",
        address: "1 High St\r\nLeeds",
        receivedAt: "2027-01-10T12:00",
        answer: "1",
        email: "Sam@Club.Example",
      }),
      { schema: postal },
    );
    expect(submission.status === "success" && submission.value).toMatchObject({
      address: "1 High St\nLeeds",
      receivedAt: new Date("2027-01-10T12:00:00Z"),
      answer: 1,
      email: "sam@club.example",
    });
  });

  it("asks for the answer, a real time and a real email", () => {
    const submission = parseWithZod(
      formOf({ name: "Sam", address: "Leeds", receivedAt: "yesterday", email: "not-an-email" }),
      { schema: postal },
    );
    expect(submission.status).toBe("error");
    expect(Object.keys(submission.status === "error" ? (submission.error ?? {}) : {}).sort()).toEqual([
      "email",
      "receivedAt",
    ]);
  });
});
