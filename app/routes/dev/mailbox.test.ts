import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { auditLog } from "../../../db/schema";
import { loader as jsonLoader } from "./mailbox-json";

// Every read of the mailbox (everyone's sign-in links and codes) is in the audit log.
const database = freshDatabasePerFile();

function argsFor(ip: string, user: ReturnType<typeof testSessionUser> | null, host = "localhost:3000") {
  const context = new RouterContextProvider();
  context.set(runtimeContext, {
    db: database().db,
    env: { SITE_URL: "http://localhost:3000", TRUST_PROXY: false },
    mail: { name: "mailbox" },
    sms: { name: "mailbox" },
  } as unknown as Runtime);
  context.set(requestContext, { ip, nonce: "n", requestId: "r" });
  context.set(userContext, user);
  const url = new URL("http://localhost:3000/dev/mailbox.json?to=Someone@Example.com");
  const request = new Request(url, { headers: { host } });
  return { request, url, params: {}, context, unstable_pattern: "/dev/mailbox.json" } as never;
}

describe("/dev/mailbox.json", () => {
  it("records who read it, for whom, and from where; a refused read records nothing", async () => {
    const member = testSessionUser({ id: "reader-1", email: "reader@example.com" });
    const response = (await jsonLoader(argsFor("127.0.0.1", null))) as Response;
    expect(response.status).toBe(200);
    await expect(jsonLoader(argsFor("10.0.0.9", member))).rejects.toMatchObject({ init: { status: 403 } });
    const entries = await database()
      .db.select({ action: auditLog.action, subjectId: auditLog.subjectId, ip: auditLog.ip, actorId: auditLog.actorId })
      .from(auditLog);
    expect(entries).toEqual([
      { action: "mailbox.read", subjectId: "someone@example.com", ip: "127.0.0.1", actorId: null },
    ]);
  });
});
