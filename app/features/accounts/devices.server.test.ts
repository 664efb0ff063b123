import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sessions } from "../../../db/schema";
import { signedInDevices, signOutDevice, signOutOtherDevices } from "./devices.server";
import { testAccounts } from "./members.test-support";

const database = freshDatabasePerFile();

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** A member signed in on three devices; answers their session ids, this browser's first. */
async function memberOnThreeDevices(email: string) {
  const { auth, createMember } = testAccounts(database().db);
  const member = await createMember({ name: "Three Devices", email });
  for (const userAgent of [PHONE, "curl/8"]) {
    await auth.api.signInEmail({
      body: { email, password: member.password },
      headers: new Headers({ "user-agent": userAgent }),
    });
  }
  const rows = await database().db.select().from(sessions).where(eq(sessions.userId, member.id));
  const current = (await auth.api.getSession({ headers: member.headers }))!.session.id;
  return { member, current, others: rows.map((row) => row.id).filter((id) => id !== current) };
}

describe("where a member is signed in", () => {
  it("lists this device first, then the others with what they are", async () => {
    const { member, current } = await memberOnThreeDevices("devices-list@example.com");
    const devices = await signedInDevices(database().db, member.id, current);
    expect(devices).toHaveLength(3);
    expect(devices[0]).toMatchObject({ id: current, current: true });
    expect(
      devices
        .slice(1)
        .map((device) => device.device)
        .sort(),
    ).toEqual(["Safari on iPhone", "Unknown device"]);
  });

  it("signs out one other device, never this one nor someone else's", async () => {
    const { db } = database();
    const { member, current, others } = await memberOnThreeDevices("devices-one@example.com");
    const stranger = await memberOnThreeDevices("devices-stranger@example.com");

    expect(await signOutDevice(db, member.id, current, current)).toBe(false);
    expect(await signOutDevice(db, member.id, stranger.others[0]!, current)).toBe(false);
    expect(await signOutDevice(db, member.id, others[0]!, current)).toBe(true);
    expect((await signedInDevices(db, member.id, current)).map((device) => device.id).sort()).toEqual(
      [current, others[1]!].sort(),
    );
    expect(await signedInDevices(db, stranger.member.id, stranger.current)).toHaveLength(3);
  });

  it("signs out every other device at once", async () => {
    const { db } = database();
    const { member, current } = await memberOnThreeDevices("devices-all@example.com");
    expect(await signOutOtherDevices(db, member.id, current)).toBe(2);
    expect((await signedInDevices(db, member.id, current)).map((device) => device.id)).toEqual([current]);
  });
});
