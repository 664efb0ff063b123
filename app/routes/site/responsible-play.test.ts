import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { runtimeContext, userContext } from "~/server/context.server";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { headers, loader } from "./responsible-play";

// /responsible-play is public: the same page for a visitor and every role.
const ENV = { SITE_NAME: "Pitlane", MAIL_FROM: "Pitlane <hello@club.example>" };

function argsFor(role: "member" | "organizer" | "admin" | null, env: object = ENV) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { env } as unknown as Runtime);
  context.set(userContext, role ? testSessionUser({ id: `u-${role}`, email: `${role}@example.com`, role }) : null);
  const url = new URL("http://localhost:3000/responsible-play");
  return { request: new Request(url), url, params: {}, context, unstable_pattern: "/responsible-play" } as never;
}

describe("/responsible-play", () => {
  it("shows everyone the measures with the complaints address, cached like other public pages", () => {
    for (const role of [null, "member", "organizer", "admin"] as const) {
      expect(loader(argsFor(role))).toEqual({
        siteName: "Pitlane",
        complaintsEmail: "hello@club.example",
        creditCardCap: "£250.00",
      });
    }
    expect(headers({} as never)).toMatchObject({ "Cache-Control": expect.stringContaining("max-age") });
  });

  it("names COMPLAINTS_EMAIL when it is set", () => {
    const env = { ...ENV, COMPLAINTS_EMAIL: "complaints@club.example" };
    expect(loader(argsFor(null, env)).complaintsEmail).toBe("complaints@club.example");
  });
});
