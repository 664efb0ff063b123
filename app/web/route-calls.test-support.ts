import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { beforeAll } from "vitest";
import { insertAccount, type StaffMember } from "~/features/accounts/staff.server";
import { requestContext, runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { type Env, parseEnv, setEnv } from "~/server/env.server";
import type { Runtime } from "~/server/runtime.server";
import { type TestRole, testSessionUser } from "~/server/session-user.test-support";

// Calling routes' loaders and actions in tests as React Router calls them.

export type RouteCall = {
  db: Db;
  env: Record<string, unknown>;
  who: SessionUser | null;
  path: string;
  params?: Record<string, string>;
  /** A POST with this form body (a FormData for files). */
  body?: Record<string, string> | FormData;
  storage?: unknown;
};

/** The arguments of a loader or action, as React Router gives them. */
export function routeArgs({ db, env, who, path, params = {}, body, storage }: RouteCall) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db, env, storage } as unknown as Runtime);
  context.set(requestContext, { ip: "192.0.2.10", nonce: "n", requestId: "r" });
  context.set(userContext, who);
  const url = new URL(`http://localhost:3000${path}`);
  const request = new Request(url, {
    method: body ? "POST" : "GET",
    body: body ? (body instanceof FormData ? body : new URLSearchParams(body)) : undefined,
    headers: { Origin: "http://localhost:3000" },
  });
  return { request, url, params, context, unstable_pattern: path } as never;
}

export type Answer = {
  status: number;
  location?: string | null;
  data?: Record<string, unknown>;
  text?: string;
  headers?: Headers;
};

/** What a loader or action answered: its status and data, a redirect, or a thrown 403/404. */
export async function answerOf(call: () => unknown): Promise<Answer> {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number; headers?: HeadersInit } };
    if (answer instanceof Response) {
      return {
        status: answer.status,
        location: answer.headers.get("Location"),
        text: await answer.text(),
        headers: answer.headers,
      };
    }
    if (answer && typeof answer === "object" && "init" in answer && "data" in answer)
      return { status: answer.init?.status ?? 200, data: answer.data as Record<string, unknown> };
    return { status: 200, data: answer as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const init = (thrown as { init?: { status?: number; headers?: HeadersInit } } | null)?.init;
    if (init?.status) {
      const location = init.headers ? new Headers(init.headers).get("Location") : null;
      return { status: init.status, location };
    }
    throw thrown;
  }
}

/**
 * A route test file's site: a parsed environment with its own data folder, an account for each
 * role (made before the file's tests run), and the router context React Router would give a
 * request from each of them. `runtime` adds services (storage, an outbox) to the context.
 */
export function routeTestSite(database: () => { db: Db }, options: { name: string; roles?: TestRole[] }) {
  const accounts = {} as Record<TestRole, StaffMember>;
  let env: Env | undefined;
  beforeAll(async () => {
    env = parseEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `pitlane-${options.name}-`)),
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
    });
    setEnv(env);
    for (const role of options.roles ?? (["admin", "organizer", "member"] as const)) {
      accounts[role] = await insertAccount(database().db, {
        email: `${role}@club.example`,
        name: `The ${role}`,
        role,
        passwordHash: "x",
      });
    }
  });
  const site = {
    accounts,
    get env(): Env {
      if (!env) throw new Error("The route test site is made before the tests run");
      return env;
    },
    /** The context of a request from `who` (null: a visitor). */
    contextFor(who: TestRole | null, runtime: Record<string, unknown> = {}) {
      const context = new RouterContextProvider();
      context.set(runtimeContext, { db: database().db, env: site.env, ...runtime } as unknown as Runtime);
      context.set(requestContext, { ip: "192.0.2.10", nonce: "n", requestId: "r" });
      const account = who ? accounts[who] : null;
      context.set(userContext, account ? testSessionUser(account) : null);
      return context;
    },
  };
  return site;
}
