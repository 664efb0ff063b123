import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { type MediaStore, mediaStore, storedKeys } from "~/features/media/media-stores.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, partners } from "../../../db/schema";
import { prepareLogo } from "./logo.server";
import { partnerFormAction } from "./partner-forms.server";
import { bannerPartners, listPartners } from "./partners.server";
import { partnerUrlProblem } from "./schemas";

const database = freshDatabasePerFile();
let store: MediaStore;
let actorId: string;

/** A wide logo on a transparent background, as a designer would export it. */
const transparentLogo = (width = 600, height = 200) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="20" y="20" width="${width - 40}" height="${height - 40}" rx="30" fill="#d9480f"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

beforeAll(async () => {
  store = await mediaStore();
  actorId = (
    await insertAccount(database().db, { email: "org@club.example", name: "Org", role: "organizer", passwordHash: "x" })
  ).id;
});
afterAll(() => store.stop());

function form(fields: Record<string, string>, logo?: Buffer) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  if (logo) data.set("logo", new File([new Uint8Array(logo)], "logo.png", { type: "image/png" }));
  return data;
}

const run = (fields: Record<string, string>, logo?: Buffer) =>
  partnerFormAction({ db: database().db, storage: store.storage, actor: { actorId } }, form(fields, logo));

describe("partner websites", () => {
  it("takes only full https addresses", () => {
    expect(partnerUrlProblem("https://apex.example.com/")).toBeNull();
    expect(partnerUrlProblem("http://apex.example.com/")).toBe("Use an https:// address");
    expect(partnerUrlProblem("javascript:alert(1)")).toBe("Use an https:// address");
    expect(partnerUrlProblem("apex.example.com")).toBe("Enter the full address, starting with https://");
    expect(partnerUrlProblem("https://user:pw@apex.example.com/")).toBe("Enter the partner's website address");
  });
});

describe("partner logos", () => {
  it("fit whole into a transparent 2:1 box, as WebP and AVIF at two widths", async () => {
    const logo = await prepareLogo(new Uint8Array(await transparentLogo(900, 150)));
    expect(logo.ok).toBe(true);
    if (!logo.ok) return;
    expect(logo.files.map((file) => file.key).sort()).toEqual(
      [160, 320]
        .flatMap((width) => [`partners/${logo.hash}-${width}.avif`, `partners/${logo.hash}-${width}.webp`])
        .sort(),
    );
    const webp = logo.files.find((file) => file.key.endsWith("-320.webp"))!;
    const meta = await sharp(webp.bytes).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([320, 160, true]);
    const corner = await sharp(webp.bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[3]).toBe(0);
  });

  it("refuses a file that is not a picture, with a message", async () => {
    const logo = await prepareLogo(new TextEncoder().encode("<svg onload=alert(1)></svg>"));
    expect(logo).toEqual({ ok: false, message: "Choose a JPEG, PNG, WebP or HEIC image." });
  });
});

describe("managing partners", () => {
  it("adds, reorders, hides and deletes partners, each change in the audit log", async () => {
    const { db } = database();
    const logo = await transparentLogo();
    for (const name of ["Apex Tyres", "Gridline Coffee", "Torque & Co"]) {
      expect(
        await run({ intent: "create", name, url: `https://${name.split(" ")[0]!.toLowerCase()}.example.com/` }, logo),
      ).toMatchObject({ ok: true });
    }
    const ids = Object.fromEntries((await listPartners(db)).map((row) => [row.name, row.id]));
    expect((await listPartners(db)).map((row) => row.name)).toEqual(["Apex Tyres", "Gridline Coffee", "Torque & Co"]);

    await run({ intent: "move", partnerId: ids["Torque & Co"]!, direction: "up" });
    expect((await listPartners(db)).map((row) => row.name)).toEqual(["Apex Tyres", "Torque & Co", "Gridline Coffee"]);
    // Already first: nothing moves and nothing is recorded.
    expect(await run({ intent: "move", partnerId: ids["Apex Tyres"]!, direction: "up" })).toMatchObject({
      message: "Apex Tyres is already first.",
    });
    expect((await listPartners(db)).map((row) => row.position)).toEqual([0, 1, 2]);

    await run({ intent: "active", partnerId: ids["Torque & Co"]!, active: "false" });
    expect((await bannerPartners(db)).map((row) => row.name)).toEqual(["Apex Tyres", "Gridline Coffee"]);
    expect((await bannerPartners(db))[0]?.logo.alt).toBe("Apex Tyres");

    await run({
      intent: "update",
      partnerId: ids["Apex Tyres"]!,
      name: "Apex Tyres & Wheels",
      url: "https://apex.example.com/wheels",
    });
    const [edited] = await db.select().from(partners).where(eq(partners.id, ids["Apex Tyres"]!));
    expect(edited).toMatchObject({ name: "Apex Tyres & Wheels", url: "https://apex.example.com/wheels" });
    expect(edited?.logo?.alt).toBe("Apex Tyres & Wheels");

    await run({ intent: "delete", partnerId: ids["Gridline Coffee"]! });
    expect((await listPartners(db)).map((row) => row.name)).toEqual(["Apex Tyres & Wheels", "Torque & Co"]);
    // The three share one picture: its files stay while a partner shows it.
    expect((await storedKeys(store.storage)).filter((key) => key.startsWith("partners/"))).toHaveLength(4);

    const actions = (await db.select({ action: auditLog.action, actorId: auditLog.actorId }).from(auditLog)).map(
      (row) => row.action,
    );
    expect(actions.sort()).toEqual(
      [
        "partner.create",
        "partner.create",
        "partner.create",
        "partner.move",
        "partner.deactivate",
        "partner.update",
        "partner.delete",
      ].sort(),
    );
  });

  it("answers field messages and keeps what was typed", async () => {
    const outcome = await run({ intent: "create", name: "  ", url: "http://plain.example.com" });
    expect(outcome).toEqual({
      ok: false,
      status: 400,
      form: "new",
      values: { name: "  ", url: "http://plain.example.com" },
      errors: {
        name: ["Enter the partner's name"],
        url: ["Use an https:// address"],
        logo: ["Choose the partner's logo"],
      },
      problem: undefined,
    });
    const missing = await run({ intent: "delete", partnerId: "0b5c39b9-602a-4f0e-9d00-000000000009" });
    expect(missing).toMatchObject({ ok: false, status: 404 });
  });
});
