import type { SessionUser } from "./context.server";

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
