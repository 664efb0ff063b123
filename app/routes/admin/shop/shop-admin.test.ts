import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { createTestProduct } from "~/features/shop/products.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { auditLog, products, productVariants, shopSettings, users } from "../../../../db/schema";
import { action as imagesAction, loader as imagesLoader } from "./images";
import { loader as listLoader } from "./list";
import { action as newAction, loader as newLoader } from "./new";
import { action as productAction, loader as productLoader } from "./product";
import { action as settingsAction, loader as settingsLoader } from "./settings";

// The shop editor's routes, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { CURRENCY: "GBP", SITE_URL: "http://localhost:3000", SITE_NAME: "Pitlane", STAFF_TWO_FACTOR: "optional" };
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-admin-shop-")));
type Who = ReturnType<typeof testSessionUser> | null;
const people: Record<"visitor" | "member" | "organizer" | "admin", Who> = {
  visitor: null,
  member: null,
  organizer: null,
  admin: null,
};

beforeAll(async () => {
  for (const role of ["member", "organizer", "admin"] as const) {
    const [account] = await createBuyers(database().db, 1);
    await database().db.update(users).set({ role }).where(eq(users.id, account!.id));
    people[role] = testSessionUser({ id: account!.id, email: account!.email, role });
  }
});

function argsFor(who: Who, pathname: string, params: Record<string, string>, body?: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: ENV, storage } as unknown as Runtime);
  context.set(requestContext, { ip: "10.8.0.1", nonce: "n", requestId: "r" });
  context.set(userContext, who);
  const url = new URL(`http://localhost:3000${pathname}`);
  const request = new Request(url, {
    method: body ? "POST" : "GET",
    body: body ? new URLSearchParams(body) : undefined,
  });
  return { request, url, params, context, unstable_pattern: pathname } as never;
}

async function answerOf(call: () => unknown) {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number } } | null;
    if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location") };
    return { status: answer?.init?.status ?? 200, data: (answer?.data ?? answer) as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const init = (thrown as { init?: { status?: number } } | null)?.init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
}

/** Visitors go to sign in, members get 403, and nothing is changed for either. */
async function expectStaffOnly(call: (who: Who) => unknown, pathname: string) {
  const visitor = await answerOf(() => call(null));
  expect(visitor).toMatchObject({ status: 302, location: `/login?redirectTo=${encodeURIComponent(pathname)}` });
  expect((await answerOf(() => call(people.member))).status).toBe(403);
}

describe("/admin/shop routes", () => {
  it("lists products for organizers and admins only", async () => {
    const tee = await createTestProduct(database().db, { title: "Admin tee" });
    await expectStaffOnly((who) => listLoader(argsFor(who, "/admin/shop", {})), "/admin/shop");
    for (const who of [people.organizer, people.admin]) {
      const answer = await answerOf(() => listLoader(argsFor(who, "/admin/shop", {})));
      expect(answer.status).toBe(200);
      expect((answer.data!.products as { id: string }[]).map((row) => row.id)).toContain(tee.id);
    }
  });

  it("creates a product for staff, with messages for a bad form, and nothing for others", async () => {
    const form = { title: "Route hoodie", slug: "", category: "apparel", status: "draft", optionNames: "Size" };
    await expectStaffOnly((who) => newLoader(argsFor(who, "/admin/shop/new", {})), "/admin/shop/new");
    await expectStaffOnly((who) => newAction(argsFor(who, "/admin/shop/new", {}, form)), "/admin/shop/new");
    expect(await database().db.select().from(products).where(eq(products.title, "Route hoodie"))).toEqual([]);

    for (const [index, who] of [people.organizer, people.admin].entries()) {
      expect((await answerOf(() => newLoader(argsFor(who, "/admin/shop/new", {})))).status).toBe(200);
      const bad = await answerOf(() =>
        newAction(argsFor(who, "/admin/shop/new", {}, { ...form, title: "", slug: "Not A Slug", category: "boats" })),
      );
      expect(bad).toMatchObject({
        status: 400,
        data: {
          intent: "create",
          result: {
            error: {
              title: ["Enter a title"],
              slug: ["Use lowercase letters, numbers and single hyphens, like club-tee"],
              category: ["Choose a category"],
            },
            initialValue: { slug: "Not A Slug" },
          },
        },
      });
      const made = await answerOf(() => newAction(argsFor(who, "/admin/shop/new", {}, form)));
      expect(made.status).toBe(302);
      const [row] = await database()
        .db.select({ id: products.id, slug: products.slug })
        .from(products)
        .where(eq(products.slug, index === 0 ? "route-hoodie" : "route-hoodie-2"));
      expect(made.location).toBe(`/admin/shop/${row!.id}`);
    }
  });

  it("edits a product and its stock for staff only; others change nothing", async () => {
    const { db } = database();
    const mug = await createTestProduct(db, { title: "Route mug", variants: [{ stock: 5 }] });
    const pathname = `/admin/shop/${mug.id}`;
    const params = { productId: mug.id };
    const adjust = { intent: "stock", variantId: mug.variantIds[0]!, mode: "add", amount: "3", reason: "Delivery" };
    await expectStaffOnly((who) => productLoader(argsFor(who, pathname, params)), pathname);
    await expectStaffOnly((who) => productAction(argsFor(who, pathname, params, adjust)), pathname);

    for (const who of [people.organizer, people.admin]) {
      const page = await answerOf(() => productLoader(argsFor(who, pathname, params)));
      expect(page.status).toBe(200);
      expect((page.data!.variants as { stock: number }[])[0]!.stock).toBeGreaterThanOrEqual(5);
      expect(await answerOf(() => productAction(argsFor(who, pathname, params, adjust)))).toMatchObject({
        status: 302,
        location: pathname,
      });
    }
    const [row] = await db
      .select({ stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.id, mug.variantIds[0]!));
    expect(row!.stock).toBe(11);

    const bad = await answerOf(() =>
      productAction(argsFor(people.organizer, pathname, params, { ...adjust, amount: "lots", reason: "" })),
    );
    expect(bad).toMatchObject({
      status: 400,
      data: {
        intent: "stock",
        target: mug.variantIds[0],
        result: {
          error: { amount: ["Enter the amount as a whole number"], reason: ["Enter a reason"] },
          initialValue: { amount: "lots" },
        },
      },
    });
    const unknown = await answerOf(() => productAction(argsFor(people.organizer, pathname, params, { intent: "fly" })));
    expect(unknown.status).toBe(400);
    expect(
      (await answerOf(() => productLoader(argsFor(people.organizer, "/admin/shop/nope", { productId: "nope" }))))
        .status,
    ).toBe(404);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      (await answerOf(() => productLoader(argsFor(people.admin, `/admin/shop/${missing}`, { productId: missing }))))
        .status,
    ).toBe(404);
  });

  it("adds a variant from the product page, with each message beside its field and the form kept", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Route tee",
      optionNames: ["Size"],
      variants: [{ options: ["S"] }],
    });
    const pathname = `/admin/shop/${tee.id}`;
    const params = { productId: tee.id };
    const variant = { intent: "add-variant", "options[0]": "M", sku: `ROUTE-${tee.id.slice(0, 8)}`, price: "20" };

    const bad = await answerOf(() =>
      productAction(argsFor(people.organizer, pathname, params, { ...variant, "options[0]": "", price: "12.3.4" })),
    );
    expect(bad).toMatchObject({
      status: 400,
      data: {
        intent: "add-variant",
        target: null,
        result: {
          error: { "options[0]": ["Enter the size"], price: ["Enter an amount like 12.50 in £ (0 for free)"] },
          initialValue: { sku: variant.sku, price: "12.3.4" },
        },
      },
    });
    expect(await answerOf(() => productAction(argsFor(people.organizer, pathname, params, variant)))).toMatchObject({
      status: 302,
      location: pathname,
    });
    const rows = await db
      .select({ options: productVariants.options, price: productVariants.price, stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.sku, variant.sku));
    expect(rows).toEqual([{ options: ["M"], price: 2000, stock: 0 }]);
    // What members pay: no more than the price, said on its field; saved in pence.
    const dearer = { ...variant, "options[0]": "L", sku: `${variant.sku}-L`, memberPrice: "25" };
    expect(await answerOf(() => productAction(argsFor(people.organizer, pathname, params, dearer)))).toMatchObject({
      status: 400,
      data: { result: { error: { memberPrice: ["Make the member price no more than the price"] } } },
    });
    expect(
      await answerOf(() =>
        productAction(argsFor(people.organizer, pathname, params, { ...dearer, memberPrice: "15" })),
      ),
    ).toMatchObject({ status: 302 });
    const [large] = await db
      .select({ price: productVariants.price, memberPrice: productVariants.memberPrice })
      .from(productVariants)
      .where(eq(productVariants.sku, dearer.sku));
    expect(large).toEqual({ price: 2000, memberPrice: 1500 });
    // The same options again are refused on the options, named by the variant's form.
    const twice = await answerOf(() =>
      productAction(argsFor(people.organizer, pathname, params, { ...variant, sku: `${variant.sku}-2` })),
    );
    expect(twice).toMatchObject({
      status: 400,
      data: { result: { error: { options: ["This product already has a variant with these options"] } } },
    });

    // A form about no variant, or no form at all, is answered above the variants.
    for (const [form, message] of [
      [{ intent: "update-variant", variantId: "nope" }, "That variant could not be found"],
      [{ intent: "fly" }, "Reload the page and try again"],
    ] as const) {
      expect(await answerOf(() => productAction(argsFor(people.organizer, pathname, params, form)))).toMatchObject({
        status: 400,
        data: { intent: "", target: null, result: { error: { "": [message] } } },
      });
    }
  });

  it("opens the photos page for staff, and refuses a missing file with a message", async () => {
    const cap = await createTestProduct(database().db, { title: "Route cap" });
    const pathname = `/admin/shop/${cap.id}/images`;
    const params = { productId: cap.id };
    await expectStaffOnly((who) => imagesLoader(argsFor(who, pathname, params)), pathname);
    await expectStaffOnly(
      (who) => imagesAction(argsFor(who, pathname, params, { intent: "remove", hash: "0".repeat(32) })),
      pathname,
    );
    for (const who of [people.organizer, people.admin]) {
      expect((await answerOf(() => imagesLoader(argsFor(who, pathname, params)))).status).toBe(200);
      expect(
        await answerOf(() => imagesAction(argsFor(who, pathname, params, { intent: "add", alt: "A cap" }))),
      ).toMatchObject({
        status: 400,
        data: { intent: "add", result: { error: { image: ["Choose a photo to upload"] } } },
      });
      expect(
        await answerOf(() => imagesAction(argsFor(who, pathname, params, { intent: "remove", hash: "0".repeat(32) }))),
      ).toMatchObject({
        status: 400,
        data: {
          intent: "remove",
          target: "0".repeat(32),
          result: { error: { "": ["That photo is no longer on this product"] } },
        },
      });
    }
  });

  it("saves the delivery settings for staff only, audited", async () => {
    const form = { flatFee: "3.95", freeOver: "40", collectionEnabled: "on", countries: "GB" };
    await expectStaffOnly((who) => settingsLoader(argsFor(who, "/admin/shop/settings", {})), "/admin/shop/settings");
    await expectStaffOnly(
      (who) => settingsAction(argsFor(who, "/admin/shop/settings", {}, form)),
      "/admin/shop/settings",
    );
    const [before] = await database().db.select().from(shopSettings);
    expect(before!.flatFee).toBe(495);
    const wrong = await answerOf(() =>
      settingsAction(
        argsFor(people.organizer, "/admin/shop/settings", {}, { ...form, flatFee: "abc", countries: "GB, Ireland" }),
      ),
    );
    expect(wrong).toMatchObject({
      status: 400,
      data: {
        result: {
          error: {
            flatFee: ["Enter an amount like 12.50 in £ (0 for free)"],
            countries: ["Use two-letter country codes such as GB, IE (not IRELAND)"],
          },
          initialValue: { countries: "GB, Ireland" },
        },
      },
    });
    for (const who of [people.organizer, people.admin]) {
      expect((await answerOf(() => settingsLoader(argsFor(who, "/admin/shop/settings", {})))).status).toBe(200);
      expect(await answerOf(() => settingsAction(argsFor(who, "/admin/shop/settings", {}, form)))).toMatchObject({
        status: 302,
        location: "/admin/shop/settings",
      });
    }
    const [after] = await database().db.select().from(shopSettings);
    expect(after).toMatchObject({ flatFee: 395, freeOver: 4000, collectionEnabled: true, countries: ["GB"] });
    const entries = await database().db.select().from(auditLog).where(eq(auditLog.action, "shop.settings.update"));
    expect(entries.map((entry) => entry.actorId).sort()).toEqual([people.organizer!.id, people.admin!.id].sort());
  });
});
