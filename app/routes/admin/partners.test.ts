import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, partners } from "../../../db/schema";
import { action, loader } from "./partners";

// The role checks and forms of /admin/partners, called as React Router calls them.
const database = freshDatabasePerFile();
const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-partners-")), "media"));
const site = routeTestSite(database, { name: "partners", runtime: () => ({ storage }) });
const { accounts } = site;

/** The form that adds a partner, with a PNG logo, sent by `who`. */
async function createRequest(who: TestRole | null, name: string) {
  const png = await sharp({
    create: { width: 300, height: 100, channels: 4, background: { r: 200, g: 40, b: 0, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const logo = new File([new Uint8Array(png)], "logo.png", { type: "image/png" });
  return site.args(who, {
    path: "/admin/partners",
    body: { intent: "create", name, url: "https://partner.example.com/", logo },
  });
}

describe("/admin/partners", () => {
  it("is for organizers and admins: members get 403, visitors go to sign in, and nothing is added", async () => {
    expect(await statusOf(action(await createRequest("member", "Sneaky")))).toBe(403);
    expect(await statusOf(loader(await createRequest("member", "Sneaky")))).toBe(403);
    expect(await statusOf(action(await createRequest(null, "Sneaky")))).toBe(
      "302 /login?redirectTo=%2Fadmin%2Fpartners",
    );
    expect(await database().db.select().from(partners)).toEqual([]);
  });

  it("lets organizers and admins add a partner, shown in the list and audited", async () => {
    for (const who of ["organizer", "admin"] as const) {
      expect(await statusOf(action(await createRequest(who, `Partner of the ${who}`)))).toBe("302 /admin/partners");
    }
    const page = (await loader(await createRequest("organizer", ""))) as Awaited<ReturnType<typeof loader>>;
    expect(page.partners.map((partner) => [partner.name, partner.active, Boolean(partner.logoHash)])).toEqual([
      ["Partner of the organizer", true, true],
      ["Partner of the admin", true, true],
    ]);
    const audit = await database().db.select({ action: auditLog.action, actorId: auditLog.actorId }).from(auditLog);
    expect(audit).toEqual([
      { action: "partner.create", actorId: accounts.organizer.id },
      { action: "partner.create", actorId: accounts.admin.id },
    ]);
  });

  it("answers 400 for a bad form, never a 500", async () => {
    const args = await createRequest("organizer", "");
    expect(await statusOf(action(args))).toBe(400);
    const garbage = new Request("http://localhost:3000/admin/partners", {
      method: "POST",
      body: "%%%",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(await statusOf(action({ ...(args as object), request: garbage } as never))).toBe(400);
  });
});
