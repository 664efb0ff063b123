import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { runtimeContext, type SessionUser, userContext } from "../context.server";
import type { Runtime } from "../runtime.server";
import { hasRole, requireRole, requireUser, safeRedirect } from "./session.server";

const member: SessionUser = {
  id: "u1",
  email: "m@example.com",
  name: "M",
  role: "member",
  emailVerified: true,
  handle: "m",
  image: null,
  onboarded: true,
  phoneNumber: null,
  phoneVerified: false,
  twoFactorEnabled: false,
  sessionId: "s1",
  signedInAt: new Date(),
};

function contextWith(user: SessionUser | null, staffTwoFactor: "required" | "optional" = "optional") {
  const context = new RouterContextProvider();
  context.set(userContext, user);
  context.set(runtimeContext, { env: { STAFF_TWO_FACTOR: staffTwoFactor } } as Runtime);
  return context;
}

async function thrown(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error as Response & { data?: unknown; init?: { status: number } };
  }
  throw new Error("expected a throw");
}

describe("guards", () => {
  const url = new URL("http://localhost/members/garage?tab=cars");

  it("sends a signed-out visitor to /login and back", async () => {
    const response = await thrown(() => requireUser({ context: contextWith(null), url }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fmembers%2Fgarage%3Ftab%3Dcars");
  });

  it("gives a member a 403 on an organizer page", async () => {
    const error = await thrown(() => requireRole({ context: contextWith(member), url }, "organizer"));
    expect(error.init?.status).toBe(403);
    expect(error.data).toBe("You do not have access to this page");
  });

  it("lets higher roles through", () => {
    expect(requireRole({ context: contextWith({ ...member, role: "admin" }), url }, "organizer").id).toBe("u1");
    expect(hasRole({ role: "organizer" }, "admin")).toBe(false);
  });

  it("sends staff without two-factor sign-in to set it up where the site requires it, and back", async () => {
    const organizer = { ...member, role: "organizer" as const };
    const response = await thrown(() => requireRole({ context: contextWith(organizer, "required"), url }, "organizer"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      "/settings/twoFactor?required=1&redirectTo=%2Fmembers%2Fgarage%3Ftab%3Dcars",
    );
    const withCode = { ...organizer, twoFactorEnabled: true };
    expect(requireRole({ context: contextWith(withCode, "required"), url }, "organizer").id).toBe("u1");
    expect(requireRole({ context: contextWith(organizer, "optional"), url }, "organizer").id).toBe("u1");
  });
});

describe("safeRedirect", () => {
  const site = "https://club.example";

  it("keeps same-site paths", () => {
    expect(safeRedirect("/events?month=6", site)).toBe("/events?month=6");
    expect(safeRedirect("/members/garage?tab=cars#car-2", site)).toBe("/members/garage?tab=cars#car-2");
    expect(safeRedirect("/admin", "http://localhost:3000")).toBe("/admin");
    expect(safeRedirect(null, site, "/members")).toBe("/members");
  });

  it("refuses other hosts and protocol-relative targets", () => {
    for (const target of ["//evil.example", "https://evil.example", "evil.example", "/..//evil.example"]) {
      expect(safeRedirect(target, site), target).toBe("/");
    }
  });

  it("refuses the characters browsers drop or read as a slash", () => {
    const targets = [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/\u0000/evil.example",
      "/\u007f/evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\/evil.example",
      "/events?next=\\evil.example",
    ];
    for (const target of targets) expect(safeRedirect(target, site), JSON.stringify(target)).toBe("/");
  });

  it("refuses the same tricks encoded", () => {
    for (const target of [
      "/%09/evil.example",
      "/%0a/evil.example",
      "/%2F/evil.example",
      "/%5C/evil.example",
      "/%2f%2fevil.example",
      "/%E0%A4%A",
    ]) {
      expect(safeRedirect(target, site, "/members"), target).toBe("/members");
    }
  });

  it("answers a path, never an absolute address", () => {
    expect(safeRedirect("/a b?c=d e", site)).toBe("/a%20b?c=d%20e");
    expect(safeRedirect("/x/../events", site)).toBe("/events");
  });
});
