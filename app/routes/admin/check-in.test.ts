import { beforeAll, describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { GATE_LIST_SIZE } from "~/features/gate/gate.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type TestRole, testAccount } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { loader } from "./check-in";

// The check-in index (/admin/check-in), called as React Router calls it, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { TIME_ZONE: "Europe/London", STAFF_TWO_FACTOR: "off" };
const people: Record<"visitor" | TestRole, SessionUser | null> = { visitor: null } as never;

const load = (who: SessionUser | null, path = "/admin/check-in") =>
  answerOf(() => loader(routeArgs({ db: database().db, env: ENV, who, path })));

type Listed = { events: { title: string }[]; q: string; more: boolean };

beforeAll(async () => {
  const { db } = database();
  for (const role of ["member", "organizer", "admin"] as const) people[role] = await testAccount(db, role);
  const soon = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000);
  // More events than the page lists at once, all before the one a steward looks for.
  for (let index = 0; index < GATE_LIST_SIZE; index++) {
    await createTestEvent(db, {
      title: `Sunday cruise ${index + 1}`,
      startsAt: soon(1),
      endsAt: soon(2),
      types: [{ name: "Adult" }],
    });
  }
  await createTestEvent(db, {
    title: "Japanese Performance Day",
    startsAt: soon(30),
    endsAt: soon(31),
    types: [{ name: "Adult" }],
  });
  await createTestEvent(db, {
    title: "Draft meet",
    status: "draft",
    startsAt: soon(3),
    endsAt: soon(4),
    types: [{ name: "Adult" }],
  });
});

describe("/admin/check-in", () => {
  it("sends a visitor to sign in and refuses a member", async () => {
    expect(await load(people.visitor)).toMatchObject({ status: 302, location: expect.stringMatching(/^\/login/) });
    expect(await load(people.member)).toMatchObject({ status: 403 });
  });

  it.each(["organizer", "admin"] as const)(
    "lists the next published events for an %s, saying there are more",
    async (role) => {
      const answer = await load(people[role]);
      const data = answer.data as Listed;
      expect(data.events).toHaveLength(GATE_LIST_SIZE);
      expect(data.events.map((event) => event.title)).not.toContain("Japanese Performance Day");
      expect(data.events.map((event) => event.title)).not.toContain("Draft meet");
      expect(data.more).toBe(true);
    },
  );

  it("finds an event further ahead by its title, venue or town", async () => {
    const found = (await load(people.organizer, "/admin/check-in?q=japanese")).data as Listed;
    expect(found).toMatchObject({ q: "japanese", more: false, events: [{ title: "Japanese Performance Day" }] });
    const byTown = (await load(people.organizer, "/admin/check-in?q=Testbury")).data as Listed;
    expect(byTown).toMatchObject({ more: true, events: expect.any(Array) });
    expect(byTown.events).toHaveLength(GATE_LIST_SIZE);
    // Exactly a page's worth: nothing more to find.
    const cruises = (await load(people.organizer, "/admin/check-in?q=Sunday+cruise")).data as Listed;
    expect(cruises.events).toHaveLength(GATE_LIST_SIZE);
    expect(cruises.more).toBe(false);
    // LIKE's wildcards are only characters here; an over-long search is ignored, never an error.
    const wild = (await load(people.organizer, "/admin/check-in?q=%25_%25")).data as Listed;
    expect(wild.events).toEqual([]);
    const long = await load(people.organizer, `/admin/check-in?q=${"x".repeat(500)}`);
    expect(long).toMatchObject({ status: 200, data: { q: "", more: true } });
  });
});
