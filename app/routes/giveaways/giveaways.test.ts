import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { closeDraw, drawWinner, recordBeacon } from "~/features/draws/closing.server";
import { createEntrants, createTestDraw, DRAW_NOW, postalEntry } from "~/features/draws/draws.test-support";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { cartItems, carts, draws, users } from "../../../db/schema";
import { action as detailAction, loader as detailLoader } from "./detail";
import { loader as entriesLoader } from "./entries";
import { loader as listLoader } from "./list";
import { loader as verifyLoader } from "./verify";
import { loader as verifyJsonLoader } from "./verify-json";

// The public draw routes, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = {
  TIME_ZONE: "Europe/London",
  CURRENCY: "GBP",
  SITE_URL: "http://localhost:3000",
  SITE_NAME: "Pitlane",
};
const HOUR = 60 * 60 * 1000;

/** A member who may enter draws (an adult with a confirmed phone), with this role. */
async function signedIn(role: TestRole) {
  const [account] = await createEntrants(database().db, 1, { role });
  return testSessionUser({ ...account!, role });
}

const argsFor = (
  who: SessionUser | null,
  path: string,
  params: Record<string, string>,
  body?: Record<string, string>,
) => routeArgs({ db: database().db, env: ENV, who, path, params, body });

/** A live draw opened an hour ago, closing in a day, and a draft nobody outside staff sees. */
async function liveAndDraft() {
  const { db } = database();
  const now = Date.now();
  const live = await createTestDraw(db, {
    opensAt: new Date(now - HOUR),
    closesAt: new Date(now + 24 * HOUR),
  });
  const draft = await createTestDraw(db, {
    status: "draft",
    opensAt: new Date(now - HOUR),
    closesAt: new Date(now + 24 * HOUR),
  });
  return { live, draft };
}

/** A draw closed and drawn a while ago, with two postal entries. */
async function drawnDraw() {
  const { db } = database();
  const [staff] = await createEntrants(db, 1);
  const draw = await createTestDraw(db);
  for (const name of ["Pat Postal", "Sam Stamp"]) {
    await postalEntry(db, { drawId: draw.id, name, actorId: staff!.id });
  }
  const later = new Date(DRAW_NOW.getTime() + 8 * 24 * HOUR);
  await closeDraw(db, { drawId: draw.id, actorId: null, now: later });
  await recordBeacon(db, { drawId: draw.id, value: "round 1", actorId: null, now: later });
  await drawWinner(db, { drawId: draw.id, actorId: null, now: later });
  return draw;
}

const visitorAndRoles = async () => [null, ...(await Promise.all(TEST_ROLES.map(signedIn)))];

describe("/giveaways", () => {
  it("lists live draws for everyone and never a draft", async () => {
    const { live, draft } = await liveAndDraft();
    for (const who of await visitorAndRoles()) {
      const answer = await answerOf(() => listLoader(argsFor(who, "/giveaways", {})));
      expect(answer.status).toBe(200);
      const slugs = (answer.data!.live as { slug: string }[]).map((tile) => tile.slug);
      expect(slugs).toContain(live.slug);
      expect(slugs).not.toContain(draft.slug);
    }
  });
});

describe("/giveaways/:slug", () => {
  it("shows a live draw to everyone, never its answer, and keeps a member's page out of shared caches", async () => {
    const { live, draft } = await liveAndDraft();
    for (const who of await visitorAndRoles()) {
      const answer = await answerOf(() => detailLoader(argsFor(who, `/giveaways/${live.slug}`, { slug: live.slug })));
      expect(answer.status).toBe(200);
      const page = answer.data!.page as { correctAnswer: string | null; seed: string | null };
      expect(page.correctAnswer).toBeNull();
      expect(page.seed).toBeNull();
      expect(answer.data!.viewer).toBe(who ? "member" : "visitor");
      const hidden = await answerOf(() => detailLoader(argsFor(who, `/giveaways/${draft.slug}`, { slug: draft.slug })));
      expect(hidden.status).toBe(404);
    }
  });

  it("offers a club member a bundle's member price, and shows everyone else what members pay", async () => {
    const { db } = database();
    const now = Date.now();
    const draw = await createTestDraw(db, {
      opensAt: new Date(now - HOUR),
      closesAt: new Date(now + 24 * HOUR),
      bundles: [{ entries: 5, price: 800, memberPrice: 600 }],
    });
    const member = await signedIn("member");
    await issueMembership(db, {
      userId: member.id,
      tier: await createTestTier(db),
      people: [],
      orderId: null,
      paidPence: 3000,
      paidAt: new Date(now - HOUR),
    });
    const bundlesFor = async (who: SessionUser | null) => {
      const answer = await answerOf(() => detailLoader(argsFor(who, `/giveaways/${draw.slug}`, { slug: draw.slug })));
      return (answer.data!.page as { bundles: unknown[] }).bundles[1];
    };
    expect(await bundlesFor(member)).toEqual({ entries: 5, price: 600, note: "Member price · Save £4.00" });
    expect(await bundlesFor(null)).toEqual({ entries: 5, price: 800, note: "Save £2.00 · Members pay £6.00" });
    expect(await bundlesFor(await signedIn("member"))).toEqual({
      entries: 5,
      price: 800,
      note: "Save £2.00 · Members pay £6.00",
    });
  });

  it("sends a visitor to sign in with their choice kept, puts a member's bundle in the cart, and refuses staff", async () => {
    const { live } = await liveAndDraft();
    const body = { intent: "add", answer: "1", bundle: "5", adult: "yes" };
    const path = `/giveaways/${live.slug}`;
    const back = `${path}?answer=1&bundle=5&adult=yes`;
    expect(await answerOf(() => detailAction(argsFor(null, path, { slug: live.slug }, body)))).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(back)}`,
    });
    // Back from signing in, the draw's form opens with the same choice.
    const member = await signedIn("member");
    const returned = await answerOf(() => detailLoader(argsFor(member, back, { slug: live.slug })));
    expect(returned.data!.choice).toEqual({ answer: 1, bundle: 5, picks: "", adult: true });

    const added = await answerOf(() => detailAction(argsFor(member, path, { slug: live.slug }, body)));
    expect(added).toMatchObject({ status: 302, location: "/cart" });
    const lines = await database()
      .db.select({ entriesPerUnit: cartItems.entriesPerUnit, answer: cartItems.answer })
      .from(cartItems)
      .innerJoin(carts, eq(carts.id, cartItems.cartId))
      .where(eq(carts.userId, member.id));
    expect(lines).toEqual([{ entriesPerUnit: 5, answer: 1 }]);

    for (const role of ["organizer", "admin"] as const) {
      const staff = await signedIn(role);
      const refused = await answerOf(() => detailAction(argsFor(staff, path, { slug: live.slug }, body)));
      expect(refused).toMatchObject({
        status: 400,
        data: { message: "Staff run the club's prize draws, so they cannot enter them" },
      });
    }
  });

  it("refuses a form without an answer, an under-18 member, and a post to a draft", async () => {
    const { live, draft } = await liveAndDraft();
    const path = `/giveaways/${live.slug}`;
    const member = await signedIn("member");
    expect(
      await answerOf(() => detailAction(argsFor(member, path, { slug: live.slug }, { intent: "add", adult: "yes" }))),
    ).toMatchObject({ status: 400, data: { message: "Choose an answer to the question" } });

    const young = await signedIn("member");
    const seventeen = new Date();
    seventeen.setUTCFullYear(seventeen.getUTCFullYear() - 17);
    await database()
      .db.update(users)
      .set({ dateOfBirth: seventeen.toISOString().slice(0, 10) })
      .where(eq(users.id, young.id));
    const body = { intent: "add", answer: "1", bundle: "1", adult: "yes" };
    expect(await answerOf(() => detailAction(argsFor(young, path, { slug: live.slug }, body)))).toMatchObject({
      status: 400,
      data: { message: "You must be 18 or over to enter prize draws" },
    });

    for (const who of await visitorAndRoles()) {
      const answer = await answerOf(() =>
        detailAction(argsFor(who, `/giveaways/${draft.slug}`, { slug: draft.slug }, body)),
      );
      expect(answer.status).toBe(404);
    }
  });

  it("lets nobody but the winner claim a prize", async () => {
    const draw = await drawnDraw(); // won by a postal entrant
    for (const who of (await visitorAndRoles()).slice(1)) {
      const answer = await answerOf(() =>
        detailAction(argsFor(who, `/giveaways/${draw.slug}`, { slug: draw.slug }, { intent: "claim", choice: "cash" })),
      );
      expect(answer).toMatchObject({
        status: 400,
        data: { message: "Only the winner of a drawn draw can claim its prize." },
      });
    }
    const [row] = await database().db.select({ choice: draws.prizeChoice }).from(draws).where(eq(draws.id, draw.id));
    expect(row!.choice).toBeNull();
  });
});

describe("/giveaways/:slug/verify, verify.json and entries", () => {
  it("show every input of a drawn draw, its record and its entry list to everyone", async () => {
    const draw = await drawnDraw();
    for (const who of await visitorAndRoles()) {
      const params = { slug: draw.slug };
      const verify = await answerOf(() => verifyLoader(argsFor(who, `/giveaways/${draw.slug}/verify`, params)));
      expect(verify.status).toBe(200);
      expect((verify.data!.page as { seed: string | null }).seed).toMatch(/^[0-9a-f]{64}$/);
      const record = await answerOf(() =>
        verifyJsonLoader(argsFor(who, `/giveaways/${draw.slug}/verify.json`, params)),
      );
      expect(record.status).toBe(200);
      expect((record.json as { entries: number[] }).entries).toHaveLength(2);
      const entries = await answerOf(() => entriesLoader(argsFor(who, `/giveaways/${draw.slug}/entries`, params)));
      expect(entries.status).toBe(200);
      const list = entries.data!.list as { entries: { name: string; source: string }[] };
      expect(list.entries.map((entry) => entry.name).sort()).toEqual(["Pat P.", "Sam S."]);
    }
  });

  it("publish no record and no entry list before close", async () => {
    const { live, draft } = await liveAndDraft();
    for (const who of await visitorAndRoles()) {
      for (const slug of [live.slug, draft.slug]) {
        const params = { slug };
        expect(
          (await answerOf(() => verifyJsonLoader(argsFor(who, `/giveaways/${slug}/verify.json`, params)))).status,
        ).toBe(404);
        expect((await answerOf(() => entriesLoader(argsFor(who, `/giveaways/${slug}/entries`, params)))).status).toBe(
          404,
        );
      }
      expect(
        (await answerOf(() => verifyLoader(argsFor(who, `/giveaways/${draft.slug}/verify`, { slug: draft.slug }))))
          .status,
      ).toBe(404);
    }
  });
});
