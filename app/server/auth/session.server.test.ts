import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type SessionUser, userContext } from "../context.server";
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
};

function contextWith(user: SessionUser | null) {
  const context = new RouterContextProvider();
  context.set(userContext, user);
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
});

describe("safeRedirect", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeRedirect("/events?month=6")).toBe("/events?month=6");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect("/\\evil.example")).toBe("/");
    expect(safeRedirect("https://evil.example")).toBe("/");
    expect(safeRedirect(null, "/members")).toBe("/members");
  });
});
