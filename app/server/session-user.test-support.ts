import { randomUUID } from "node:crypto";
import { users } from "../../db/schema";
import type { SessionUser } from "./context.server";
import type { Db } from "./db/client.server";

/**
 * What the `auth` step puts in the router context for a confirmed, onboarded member, for tests
 * that call loaders and actions as React Router does.
 */
export function testSessionUser(
  account: Pick<SessionUser, "id" | "email"> & Partial<Omit<SessionUser, "id" | "email">>,
): SessionUser {
  return {
    name: "A Member",
    role: "member",
    emailVerified: true,
    handle: null,
    image: null,
    onboarded: true,
    phoneNumber: null,
    phoneVerified: false,
    twoFactorEnabled: false,
    sessionId: "test-session",
    signedInAt: new Date(),
    ...account,
  };
}

/** The roles a signed-in person may have, for tests that call a page as each of them. */
export type TestRole = "member" | "organizer" | "admin";

/** Every role, least trusted first. */
export const TEST_ROLES = ["member", "organizer", "admin"] as const satisfies readonly TestRole[];

let serial = 0;

/** An account with this role, and the session user the `auth` step would put in the context. */
export async function testAccount(db: Db, role: TestRole, name = `The ${role}`): Promise<SessionUser> {
  serial += 1;
  const id = randomUUID();
  const email = `${role}-${serial}-${id.slice(0, 8)}@club.example`;
  await db.insert(users).values({ id, email, name, role, emailVerified: true });
  return testSessionUser({ id, email, role, name });
}
