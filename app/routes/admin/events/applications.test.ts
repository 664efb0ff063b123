import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApplicationEvent } from "~/features/applications/applications.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { storageFor } from "~/server/storage/storage.server";
import { recordingOutbox, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, cars, cartItems, events, showCarApplications } from "../../../../db/schema";
import * as cartRoute from "../../cart/cart";
import * as eventPage from "../../events/detail";
import * as memberEvents from "../../members/events";
import * as pendingRoute from "../applications";
import * as reviewRoute from "./applications";
import * as checkinRoute from "./checkin";

// Show-car applications through their routes, as React Router calls them, for each role.
const database = freshDatabasePerFile();
const { outbox, sent } = recordingOutbox();
const site = routeTestSite(database, {
  name: "applications",
  runtime: (env) => ({ storage: storageFor(env), jobs: { enqueue: async () => null }, outbox }),
});
const { accounts } = site;
const carOf: Record<TestRole, string> = {} as never;
let eventId: string;
let slug: string;

beforeAll(async () => {
  const { db } = database();
  for (const role of ["organizer", "admin", "member"] as const) {
    const [car] = await db
      .insert(cars)
      .values({ ownerId: accounts[role].id, make: "Porsche", model: `911 ${role}`, year: 1989 })
      .returning({ id: cars.id });
    carOf[role] = car!.id;
  }
  const event = await createApplicationEvent(db, { spots: 2, fee: 2000 });
  eventId = event.eventId;
  const [row] = await db.select({ slug: events.slug }).from(events).where(eq(events.id, eventId));
  slug = row!.slug;
});

const post = (path: string, body: Record<string, string>, params: Record<string, string>, who: TestRole | null) =>
  site.args(who, { path, body, params });
const get = (path: string, params: Record<string, string>, who: TestRole | null) => site.args(who, { path, params });

async function applicationOf(who: TestRole) {
  const [row] = await database()
    .db.select()
    .from(showCarApplications)
    .where(eq(showCarApplications.userId, accounts[who].id));
  return row;
}

describe("the event page's Apply with your car", () => {
  it("asks visitors to sign in, and sends a visitor's post to sign in", async () => {
    const page = (await eventPage.loader(get(`/events/${slug}`, { id: slug }, null))) as { apply: unknown };
    expect(page.apply).toEqual({ signedIn: false });
    const answer = await statusOf(() =>
      eventPage.action(post(`/events/${slug}`, { intent: "apply", carId: carOf.member }, { id: slug }, null)),
    );
    expect(answer).toBe(`302 /login?redirectTo=${encodeURIComponent(`/events/${slug}`)}`);
  });

  it("lets each signed-in role apply with their own car, once, with field messages", async () => {
    for (const who of ["member", "organizer", "admin"] as const) {
      const page = (await eventPage.loader(get(`/events/${slug}`, { id: slug }, who))) as {
        apply: { cars: { id: string }[] };
      };
      expect(page.apply.cars.map((car) => car.id)).toEqual([carOf[who]]);
      const fields = { intent: "apply", carId: carOf[who], note: "Concours winner" };
      expect(await statusOf(() => eventPage.action(post(`/events/${slug}`, fields, { id: slug }, who)))).toBe(
        `302 /events/${slug}#apply`,
      );
      const again = (await eventPage.action(post(`/events/${slug}`, fields, { id: slug }, who))) as {
        data: { apply: Record<string, string[]> };
        init: { status: number };
      };
      expect(again.init.status).toBe(400);
      expect(again.data.apply.carId).toEqual(["You have already applied with this car"]);
    }
    // Someone else's car, no car, and a long note: 400 with the message by the field.
    const other = (await eventPage.action(
      post(`/events/${slug}`, { intent: "apply", carId: carOf.admin }, { id: slug }, "member"),
    )) as { data: { apply: Record<string, string[]> } };
    expect(other.data.apply.carId).toEqual(["Choose one of the cars in your garage"]);
    const none = (await eventPage.action(post(`/events/${slug}`, { intent: "apply" }, { id: slug }, "member"))) as {
      data: { apply: Record<string, string[]> };
    };
    expect(none.data.apply.carId).toEqual(["Choose one of the cars in your garage"]);
    const long = (await eventPage.action(
      post(`/events/${slug}`, { intent: "apply", carId: carOf.member, note: "x".repeat(2001) }, { id: slug }, "member"),
    )) as { data: { apply: Record<string, string[]> } };
    expect(long.data.apply.note).toEqual(["Keep the note under 2000 characters"]);
    expect((await applicationOf("member"))?.note).toBe("Concours winner");
  });
});

describe("staff review", () => {
  const at = () => `/admin/events/${eventId}/applications`;

  it("is for organizers and admins only", async () => {
    expect(await statusOf(() => reviewRoute.loader(get(at(), { eventId }, null)))).toMatch(/^302 \/login/);
    expect(await statusOf(() => reviewRoute.loader(get(at(), { eventId }, "member")))).toBe(403);
    const application = await applicationOf("member");
    const fields = { intent: "approve", applicationId: application!.id, note: "" };
    expect(await statusOf(() => reviewRoute.action(post(at(), fields, { eventId }, "member")))).toBe(403);
    expect(await statusOf(() => reviewRoute.action(post(at(), fields, { eventId }, null)))).toMatch(/^302 \/login/);
    for (const who of ["organizer", "admin"] as const) {
      const page = (await reviewRoute.loader(get(at(), { eventId }, who))) as {
        applications: { carLabel: string }[];
        counts: Record<string, number>;
      };
      expect(page.counts.submitted).toBe(3);
      expect(page.applications).toHaveLength(3);
    }
    expect(
      await statusOf(() => reviewRoute.loader(get("/admin/events/x/applications", { eventId: "x" }, "admin"))),
    ).toBe(404);
  });

  it("lists what waits for a decision across events, for organizers and admins only", async () => {
    expect(await statusOf(() => pendingRoute.loader(get("/admin/applications", {}, null)))).toMatch(/^302 \/login/);
    expect(await statusOf(() => pendingRoute.loader(get("/admin/applications", {}, "member")))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const page = (await pendingRoute.loader(get("/admin/applications", {}, who))) as {
        applications: { carLabel: string; event: { id: string } }[];
      };
      expect(page.applications).toHaveLength(3);
      expect(page.applications.every((row) => row.event.id === eventId)).toBe(true);
    }
  });

  it("approves, wait-lists past the spots and rejects, emailing each member, audited", async () => {
    const member = (await applicationOf("member"))!;
    const organizer = (await applicationOf("organizer"))!;
    const admin = (await applicationOf("admin"))!;
    const decide = (applicationId: string, intent: string, who: TestRole = "organizer", note = "") =>
      reviewRoute.action(post(at(), { intent, applicationId, note }, { eventId }, who));
    expect(await statusOf(() => decide(member.id, "approve", "organizer", "Welcome"))).toMatch(/^302 /);
    expect(await statusOf(() => decide(organizer.id, "approve", "admin"))).toMatch(/^302 /);
    const full = (await decide(admin.id, "approve")) as {
      data: { error: { message: string } };
      init: { status: number };
    };
    expect(full.init.status).toBe(400);
    expect(full.data.error.message).toMatch(/All 2 spots are taken/);
    expect(await statusOf(() => decide(admin.id, "waitlist"))).toMatch(/^302 /);
    const bad = (await decide(admin.id, "promote")) as {
      init: { status: number };
      data: { error: { message: string } };
    };
    expect(bad.init.status).toBe(400);
    expect(bad.data.error.message).toBe("Choose a decision");
    expect(sent.map((email) => email.to)).toEqual([
      "member@club.example",
      "organizer@club.example",
      "admin@club.example",
    ]);
    expect(sent[0]!.text).toContain("Message from the organizers: Welcome");
    const audits = await database().db.select().from(auditLog).where(eq(auditLog.subjectType, "show_car_application"));
    expect(audits).toHaveLength(3);
  });

  it("lets the member pay the fee into their cart from My events, and only their own", async () => {
    const member = (await applicationOf("member"))!;
    expect(await statusOf(() => memberEvents.loader(get("/members/events", {}, null)))).toMatch(/^302 \/login/);
    const page = (await memberEvents.loader(get("/members/events", {}, "member"))) as {
      applications: { id: string; canPay: boolean }[];
    };
    expect(page.applications).toEqual([expect.objectContaining({ id: member.id, canPay: true })]);
    const theirs = (await memberEvents.action(
      post("/members/events", { intent: "pay-application", applicationId: member.id }, {}, "admin"),
    )) as { init: { status: number }; data: { error: { message: string } } };
    expect(theirs.init.status).toBe(400);
    expect(theirs.data.error.message).toBe("This application could not be found");
    expect(
      await statusOf(() =>
        memberEvents.action(
          post("/members/events", { intent: "pay-application", applicationId: member.id }, {}, "member"),
        ),
      ),
    ).toBe("302 /cart");
    const lines = await database().db.select().from(cartItems).where(eq(cartItems.applicationId, member.id));
    expect(lines).toHaveLength(1);
    const cart = (await cartRoute.loader(get("/cart", {}, "member"))) as {
      data: {
        sections: {
          id: string;
          lines: { target: Record<string, string>; unitPrice: number; problem: string | null }[];
        }[];
        payable: boolean;
      };
    };
    expect(cart.data.sections).toEqual([
      expect.objectContaining({
        id: "cart-applications",
        lines: [expect.objectContaining({ target: { applicationId: member.id }, unitPrice: 2000, problem: null })],
      }),
    ]);
    expect(cart.data.payable).toBe(true);
    // Another member's removal finds nothing of theirs to remove; the owner's removes the line.
    await cartRoute.action(post("/cart", { intent: "remove-application", applicationId: member.id }, {}, "admin"));
    expect(await database().db.select().from(cartItems).where(eq(cartItems.applicationId, member.id))).toHaveLength(1);
    expect(
      await statusOf(() =>
        cartRoute.action(post("/cart", { intent: "remove-application", applicationId: member.id }, {}, "member")),
      ),
    ).toBe("302 /cart");
    expect(await database().db.select().from(cartItems).where(eq(cartItems.applicationId, member.id))).toHaveLength(0);
    const junk = (await memberEvents.action(
      post("/members/events", { intent: "pay-application", applicationId: "nope" }, {}, "member"),
    )) as { init: { status: number } };
    expect(junk.init.status).toBe(400);
  });

  it("lets a member withdraw an unpaid application, freeing the spot for the waiting list", async () => {
    const organizer = (await applicationOf("organizer"))!;
    const admin = (await applicationOf("admin"))!;
    expect(
      await statusOf(() =>
        eventPage.action(
          post(
            `/events/${slug}`,
            { intent: "withdraw-application", applicationId: organizer.id },
            { id: slug },
            "member",
          ),
        ),
      ),
    ).toBe(400);
    expect(
      await statusOf(() =>
        memberEvents.action(
          post("/members/events", { intent: "withdraw-application", applicationId: organizer.id }, {}, "organizer"),
        ),
      ),
    ).toMatch(/^302 /);
    expect(
      await statusOf(() =>
        reviewRoute.action(post(at(), { intent: "approve", applicationId: admin.id, note: "" }, { eventId }, "admin")),
      ),
    ).toMatch(/^302 /);
  });

  it("refuses an exhibitor code for nobody at the gate, for staff only", async () => {
    const gate = `/admin/events/${eventId}/checkin`;
    expect(await statusOf(() => checkinRoute.action(post(gate, { code: "0".repeat(26) }, { eventId }, "member")))).toBe(
      403,
    );
    const answer = (await checkinRoute.action(post(gate, { code: "0".repeat(26) }, { eventId }, "organizer"))) as {
      result: { tone: string };
    };
    expect(answer.result.tone).toBe("refused");
  });
});
