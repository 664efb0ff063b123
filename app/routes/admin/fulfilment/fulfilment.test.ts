import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createMerchOrder, createMerchVariant } from "~/features/fulfilment/fulfilment.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { recordingOutbox, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { orders } from "../../../../db/schema";
import { action, loader } from "./list";
import { loader as packingLoader } from "./packing-list";

// The role checks and forms of /admin/fulfilment and its packing list, called as React Router calls them.
const database = freshDatabasePerFile();
const { outbox, sent } = recordingOutbox();
const site = routeTestSite(database, { name: "fulfilment", runtime: () => ({ outbox }) });
let variantId: string;

beforeAll(async () => {
  variantId = (await createMerchVariant(database().db)).variantId;
});

const post = (who: TestRole | null, body: Record<string, string>) =>
  action(site.args(who, { path: "/admin/fulfilment?view=to-ship", body }));
const get = (who: TestRole | null, path: string, which: (args: never) => Promise<unknown> = loader) =>
  which(site.args(who, { path }));

describe("/admin/fulfilment", () => {
  it("is for organizers and admins: members get 403, visitors go to sign in, and nothing changes", async () => {
    const order = await createMerchOrder(database().db, { variantId });
    const ship = { intent: "ship", orderId: order.id, carrier: "royal_mail", trackingNumber: "AB123456789GB" };
    expect(await statusOf(get("member", "/admin/fulfilment"))).toBe(403);
    expect(await statusOf(post("member", ship))).toBe(403);
    expect(await statusOf(get(null, "/admin/fulfilment"))).toBe("302 /login?redirectTo=%2Fadmin%2Ffulfilment");
    expect(await statusOf(post(null, ship))).toMatch(/^302 \/login/);
    expect(await statusOf(get("member", `/admin/fulfilment/packing-list?orders=${order.id}`, packingLoader))).toBe(403);
    const [row] = await database()
      .db.select({ status: orders.fulfilmentStatus })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(row?.status).toBe("unfulfilled");
    expect(sent).toEqual([]);
  });

  it("lists the paid merch to ship for an organizer and an admin", async () => {
    const order = await createMerchOrder(database().db, { variantId, quantity: 3 });
    for (const who of ["organizer", "admin"] as const) {
      const page = (await get(who, "/admin/fulfilment")) as Awaited<ReturnType<typeof loader>>;
      const shown = page.orders.find((row) => row.id === order.id);
      expect(shown?.lines).toEqual([
        expect.objectContaining({ product: "Club tee", options: ["M", "Black"], quantity: 3 }),
      ]);
      expect(shown?.shippingAddress?.postcode).toBe("TE5 7AA");
    }
  });

  it("marks an order shipped, emails the buyer once, and refuses a second press", async () => {
    const order = await createMerchOrder(database().db, { variantId, email: "buyer@club.example" });
    const ship = { intent: "ship", orderId: order.id, carrier: "dpd", trackingNumber: "1550 1234 5678" };
    expect(await statusOf(post("organizer", ship))).toBe("302 /admin/fulfilment?view=to-ship");
    expect(await statusOf(post("admin", ship))).toBe(409);
    const emails = sent.filter((email) => email.to === "buyer@club.example");
    expect(emails).toHaveLength(1);
    expect(emails[0]?.text).toContain("https://track.dpd.co.uk/parcels/155012345678");
  });

  it("answers 400 with the field's message and what was typed, never a 500", async () => {
    const order = await createMerchOrder(database().db, { variantId });
    const answer = (await post("organizer", {
      intent: "ship",
      orderId: order.id,
      carrier: "other",
      trackingNumber: "ABC12345",
    })) as {
      data: { orderId: string; errors: Record<string, string[]>; values: Record<string, string> };
      init: { status: number };
    };
    expect(answer.init.status).toBe(400);
    expect(answer.data.orderId).toBe(order.id);
    expect(answer.data.errors.trackingUrl).toEqual(["Enter the carrier's tracking page address"]);
    expect(answer.data.values.trackingNumber).toBe("ABC12345");
    expect(
      await statusOf(
        post("organizer", { intent: "ship", orderId: "not-an-id", carrier: "dpd", trackingNumber: "12345678" }),
      ),
    ).toBe(400);
    expect(await statusOf(post("organizer", { intent: "explode" }))).toBe(400);
  });
});

describe("/admin/fulfilment/packing-list", () => {
  it("gives staff the chosen orders with their lines and address", async () => {
    const order = await createMerchOrder(database().db, { variantId, quantity: 2 });
    for (const who of ["organizer", "admin"] as const) {
      const page = (await get(who, `/admin/fulfilment/packing-list?orders=${order.id},junk`, packingLoader)) as Awaited<
        ReturnType<typeof packingLoader>
      >;
      expect(page.orders).toEqual([
        expect.objectContaining({
          id: order.id,
          address: ["Jo Driver", "1 Pit Lane", "Testbury", "TE5 7AA", "GB"],
          lines: [{ id: expect.any(String), label: "Club tee (M / Black)", quantity: 2 }],
        }),
      ]);
    }
  });

  it("takes the orders ticked on the fulfilment list (one `orders` field each)", async () => {
    const first = await createMerchOrder(database().db, { variantId });
    const second = await createMerchOrder(database().db, { variantId });
    const page = (await get(
      "organizer",
      `/admin/fulfilment/packing-list?orders=${second.id}&orders=${first.id}`,
      packingLoader,
    )) as Awaited<ReturnType<typeof packingLoader>>;
    expect(page.orders.map((order) => order.id)).toEqual([first.id, second.id]);
  });
});
