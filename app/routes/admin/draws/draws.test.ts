import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { goodDrawFields } from "~/features/draws/organizer/draw-form.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { storageFor } from "~/server/storage/storage.server";
import { type FormFields, fieldErrors, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, drawEntries, draws } from "../../../../db/schema";
import * as detailsRoute from "./details";
import * as drawRoute from "./draw";
import * as entriesRoute from "./entries";
import * as csvRoute from "./entries-csv";
import * as imagesRoute from "./images";
import * as listRoute from "./list";
import * as newRoute from "./new";

// The organizer's draw pages called as React Router calls them, for each role, with hostile
// input: every bad submission answers 400 with field messages and changes nothing.
const database = freshDatabasePerFile();
const site = routeTestSite(database, {
  name: "admin-draws",
  runtime: (env) => ({ storage: storageFor(env), jobs: { enqueue: async () => null } }),
});
const { accounts } = site;

const post = (
  path: string,
  body: FormFields,
  params: Record<string, string> = {},
  who: TestRole | null = "organizer",
) => site.args(who, { path, body, params });
const get = (path: string, params: Record<string, string> = {}, who: TestRole | null = "organizer") =>
  site.args(who, { path, params });

/** A draft that opens now and closes in a month, in the site's zone. */
function futureDraw(overrides: FormFields = {}): FormFields {
  const local = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 16);
  return { ...goodDrawFields, opensAt: local(-1), closesAt: local(30), ...overrides };
}

async function createOne(fields: FormFields = {}, who: TestRole = "organizer") {
  const answer = (await newRoute.action(post("/admin/draws/new", futureDraw(fields), {}, who))) as Response;
  expect(answer.status).toBe(302);
  return answer.headers.get("Location")!.split("/").at(-1)!;
}

async function drawCount() {
  const [row] = await database().db.select({ count: count() }).from(draws);
  return row?.count ?? 0;
}

async function row(drawId: string) {
  const [found] = await database().db.select().from(draws).where(eq(draws.id, drawId));
  return found!;
}

describe("who may use the draw pages", () => {
  it("sends visitors to sign in, gives members the 403 page, and lets organizers and admins in", async () => {
    const drawId = await createOne({ title: "Guarded Draw" });
    const params = { drawId };
    const pages = [
      { module: listRoute, path: "/admin/draws", params: {} },
      { module: newRoute, path: "/admin/draws/new", params: {} },
      { module: drawRoute, path: `/admin/draws/${drawId}`, params },
      { module: detailsRoute, path: `/admin/draws/${drawId}`, params },
      { module: imagesRoute, path: `/admin/draws/${drawId}/images`, params },
      { module: entriesRoute, path: `/admin/draws/${drawId}/entries`, params },
      { module: csvRoute, path: `/admin/draws/${drawId}/entries.csv`, params },
    ];
    for (const { module, path: pathname, params: routeParams } of pages) {
      expect(await statusOf(() => module.loader(get(pathname, routeParams, null))), pathname).toMatch(
        /^302 \/login\?redirectTo=/,
      );
      expect(await statusOf(() => module.loader(get(pathname, routeParams, "member"))), pathname).toBe(403);
      for (const who of ["organizer", "admin"] as const) {
        const answer = await statusOf(() => module.loader(get(pathname, routeParams, who)));
        expect(answer, `${pathname} as ${who}`).toMatch(/^(ok|200 null)$/);
      }
    }
    const actions: {
      module: typeof newRoute | typeof detailsRoute | typeof imagesRoute | typeof entriesRoute;
      path: string;
      fields: FormFields;
    }[] = [
      { module: newRoute, path: "/admin/draws/new", fields: futureDraw({ title: "Sneaky" }) },
      { module: detailsRoute, path: `/admin/draws/${drawId}`, fields: { intent: "publish" } },
      {
        module: imagesRoute,
        path: `/admin/draws/${drawId}/images`,
        fields: { intent: "remove", hash: "0".repeat(32) },
      },
      { module: entriesRoute, path: `/admin/draws/${drawId}/entries`, fields: { intent: "postal" } },
    ];
    const before = await drawCount();
    for (const { module, path: pathname, fields } of actions) {
      expect(await statusOf(() => module.action(post(pathname, fields, params, null))), pathname).toMatch(
        /^302 \/login/,
      );
      expect(await statusOf(() => module.action(post(pathname, fields, params, "member"))), pathname).toBe(403);
    }
    expect(await drawCount()).toBe(before);
    expect((await row(drawId)).status).toBe("draft");
  });

  it("answers 404 for an address that is not a draw id, or a draw that does not exist", async () => {
    for (const drawId of ["not-a-uuid", "1' or '1'='1", "00000000-0000-4000-8000-000000000000"]) {
      const params = { drawId };
      for (const module of [drawRoute, detailsRoute, imagesRoute, entriesRoute, csvRoute]) {
        expect(await statusOf(() => module.loader(get(`/admin/draws/${drawId}`, params)))).toBe(404);
      }
      expect(
        await statusOf(() => detailsRoute.action(post(`/admin/draws/${drawId}`, { intent: "publish" }, params))),
      ).toBe(404);
    }
  });
});

describe("creating and running a draw, as an organizer and as an admin", () => {
  it("creates a draft and answers bad input with field messages, storing nothing", async () => {
    const drawId = await createOne({ title: "Admin's Draw" }, "admin");
    expect(await row(drawId)).toMatchObject({ title: "Admin's Draw", createdBy: accounts.admin.id, status: "draft" });
    const before = await drawCount();
    const cases: [FormFields, Record<string, string>][] = [
      [{ price: "£2.505" }, { price: "Enter an amount like 12.50 in £ (0 for free)" }],
      [{ instantWins: "9999 fuel" }, { instantWins: "Instant wins must be entry numbers from 1 to 5000" }],
      [{ totalEntries: "lots" }, { totalEntries: "Enter the number of entries as a whole number" }],
      [{ title: "x".repeat(3 * 1024 * 1024) }, { title: "Use at most 120 characters" }],
      [{ "options[7]": "Eighth" }, { options: "Offer at most 5 answers" }],
    ];
    for (const [fields, expected] of cases) {
      const answer = await newRoute.action(post("/admin/draws/new", futureDraw(fields)));
      expect(fieldErrors(answer), JSON.stringify(fields).slice(0, 60)).toMatchObject(expected);
    }
    expect(await drawCount()).toBe(before);
  });

  it("publishes, refuses a change of terms once live, takes words, records a postal entry and exports it", async () => {
    const drawId = await createOne({ title: "Live Draw" });
    const params = { drawId };
    const here = `/admin/draws/${drawId}`;
    expect(await statusOf(() => detailsRoute.action(post(here, { intent: "publish" }, params, "admin")))).toBe(
      `302 ${here}`,
    );
    expect((await row(drawId)).commitment).toMatch(/^[0-9a-f]{64}$/);

    // A form sent as if the draw were still a draft is refused under the lock.
    const terms = await detailsRoute.action(post(here, { intent: "save", ...futureDraw({ price: "0.10" }) }, params));
    expect((terms as { data: { result: { error: Record<string, string[]> } } }).data.result.error[""]?.[0]).toContain(
      "This draw is live",
    );
    expect((await row(drawId)).price).toBe(250);
    const words = { intent: "save", scope: "wording", summary: "Fresh words", rules: "Be nice", price: "0.10" };
    expect(await statusOf(() => detailsRoute.action(post(here, words, params)))).toBe(`302 ${here}`);
    expect(await row(drawId)).toMatchObject({ summary: "Fresh words", rules: "Be nice", price: 250 });

    const entries = `${here}/entries`;
    const received = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    const postal = {
      intent: "postal",
      name: "Pat Postal",
      address: "2 Low Road, York",
      receivedAt: received,
      answer: "0",
    };
    expect(fieldErrors(await entriesRoute.action(post(entries, { ...postal, name: "" }, params)))).toEqual({
      name: "Enter the entrant's name, as on the envelope",
    });
    expect(
      fieldErrors(await entriesRoute.action(post(entries, { ...postal, email: "ghost@club.example" }, params))),
    ).toEqual({
      email: "No member has this email address. Leave it empty for someone without an account.",
    });
    expect(fieldErrors(await entriesRoute.action(post(entries, { ...postal, answer: "4" }, params)))).toEqual({
      answer: "Choose an answer to the question.",
    });
    expect(await statusOf(() => entriesRoute.action(post(entries, postal, params, "admin")))).toBe(`302 ${entries}`);
    const stored = await database().db.select().from(drawEntries).where(eq(drawEntries.drawId, drawId));
    expect(stored).toMatchObject([{ source: "postal", postalName: "Pat Postal", eligible: true }]);

    const csv = (await csvRoute.loader(get(`${here}/entries.csv`, params))) as Response;
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain("Pat Postal");

    const cancel = await detailsRoute.action(post(here, { intent: "cancel", reason: "" }, params));
    expect(fieldErrors(cancel)).toEqual({ reason: "Say why the draw is cancelled: entrants will read it" });
    const close = await detailsRoute.action(post(here, { intent: "close" }, params));
    expect(fieldErrors(close)).toEqual({ confirm: "Tick the box to confirm" });
    const early = await detailsRoute.action(post(here, { intent: "close", confirm: "on" }, params));
    expect((early as { init: { status: number } }).init.status).toBe(400);
    expect(
      await statusOf(() => detailsRoute.action(post(here, { intent: "cancel", reason: "Prize withdrawn" }, params))),
    ).toBe(`302 ${here}`);
    expect(await row(drawId)).toMatchObject({ status: "cancelled", cancelReason: "Prize withdrawn" });
    expect(await statusOf(() => detailsRoute.action(post(here, { intent: "fly" }, params)))).toBe(400);
  });

  it("takes prize photos only with a description, and refuses a file that is not a photo", async () => {
    const drawId = await createOne({ title: "Photo Draw" });
    const params = { drawId };
    const here = `/admin/draws/${drawId}/images`;
    const photo = await sharp({ create: { width: 800, height: 450, channels: 3, background: "#d04010" } })
      .jpeg()
      .toBuffer();
    const file = new File([new Uint8Array(photo)], "car.jpg", { type: "image/jpeg" });
    expect(fieldErrors(await imagesRoute.action(post(here, { intent: "add", image: file, alt: "" }, params)))).toEqual({
      alt: "Describe the photo for people who cannot see it",
    });
    const text = new File(["not a photo"], "car.jpg", { type: "image/jpeg" });
    expect(
      fieldErrors(await imagesRoute.action(post(here, { intent: "add", image: text, alt: "A car" }, params))),
    ).toEqual({
      image: "Choose a JPEG, PNG, WebP or HEIC image.",
    });
    expect(
      await statusOf(() =>
        imagesRoute.action(post(here, { intent: "add", image: file, alt: "An orange car" }, params, "admin")),
      ),
    ).toBe(`302 ${here}`);
    expect((await row(drawId)).images).toMatchObject([{ alt: "An orange car" }]);
    expect(await statusOf(() => imagesRoute.action(post(here, { intent: "up", hash: "nope" }, params)))).toBe(400);
  });
});

describe("revealing a live draw's instant wins", () => {
  it("is for admins only, with an explicit action that writes an audit entry", async () => {
    const drawId = await createOne({ title: "Secret Wins Draw" });
    const params = { drawId };
    const here = `/admin/draws/${drawId}`;
    expect(await statusOf(() => detailsRoute.action(post(here, { intent: "publish" }, params)))).toBe(`302 ${here}`);
    const reveal = (who: TestRole | null) =>
      statusOf(() => detailsRoute.action(post(here, { intent: "reveal-instant-wins" }, params, who)));
    expect(await reveal(null)).toMatch(/^302 \/login/);
    expect(await reveal("member")).toBe(403);
    expect(await reveal("organizer")).toBe(403);
    expect(await audits(drawId)).toEqual([]);

    const answer = (await detailsRoute.action(post(here, { intent: "reveal-instant-wins" }, params, "admin"))) as {
      data: { revealed: { number: number; prize: string }[] };
    };
    expect(answer.data.revealed).toEqual([
      { number: 17, prize: "£50 fuel card" },
      { number: 250, prize: "A set of floor mats" },
    ]);
    expect(await audits(drawId)).toEqual([{ action: "draw.reveal-instant-wins", actorId: accounts.admin.id }]);
  });
});

async function audits(drawId: string) {
  return database()
    .db.select({ action: auditLog.action, actorId: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.subjectId, drawId), eq(auditLog.action, "draw.reveal-instant-wins")));
}
