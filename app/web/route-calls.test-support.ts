import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { beforeAll, expect } from "vitest";
import { insertAccount, type StaffMember } from "~/features/accounts/staff.server";
import { requestContext, runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { type Env, parseEnv, setEnv } from "~/server/env.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Outbox } from "~/server/messages.server";
import type { Runtime } from "~/server/runtime.server";
import { type TestRole, testSessionUser } from "~/server/session-user.test-support";

// Calling routes' loaders and actions in tests as React Router calls them.

/** A form's fields: a list sends its field once per item, a File makes the body multipart. */
export type FormFields = Record<string, string | string[] | File>;

/** Where a request comes from, unless a test says otherwise. */
export const ROUTE_TEST_IP = "192.0.2.10";

/** A request as the browser sends it from one of the site's pages: a GET, or a POST of a form. */
type RequestShape = {
  path: string;
  params?: Record<string, string>;
  /** A POST with this form body. */
  body?: FormFields | FormData;
  /** More request headers (an Accept, a cookie). */
  headers?: HeadersInit;
};

export type RouteCall = RequestShape & {
  db: Db;
  env: Record<string, unknown>;
  who: SessionUser | null;
  /** The runtime's services beside the database and the environment: storage, an outbox, jobs, auth. */
  runtime?: Record<string, unknown>;
  ip?: string;
};

function formBody(body: FormFields | FormData) {
  if (body instanceof FormData) return body;
  const values = Object.values(body);
  if (values.every((value) => typeof value === "string")) return new URLSearchParams(body as Record<string, string>);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  return form;
}

function argsWith(context: RouterContextProvider, { path: target, params = {}, body, headers }: RequestShape) {
  const url = new URL(target, "http://localhost:3000");
  const sent = new Headers(headers);
  if (!sent.has("Origin")) sent.set("Origin", "http://localhost:3000");
  const request = new Request(url, {
    method: body ? "POST" : "GET",
    body: body ? formBody(body) : undefined,
    headers: sent,
  });
  return { request, url, params, context, unstable_pattern: url.pathname } as never;
}

function routeContext(runtime: Record<string, unknown>, who: SessionUser | null, ip = ROUTE_TEST_IP) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, runtime as unknown as Runtime);
  context.set(requestContext, { ip, nonce: "n", requestId: "r" });
  context.set(userContext, who);
  return context;
}

/** The arguments of a loader or action, as React Router gives them. */
export function routeArgs({ db, env, who, runtime = {}, ip, ...request }: RouteCall) {
  return argsWith(routeContext({ db, env, ...runtime }, who, ip), request);
}

export type Answer = {
  status: number;
  location?: string | null;
  data?: Record<string, unknown>;
  text?: string;
  /** The body of a JSON response, read. */
  json?: unknown;
  headers?: Headers;
};

/** What a loader or action answered: its status and data, a redirect, or a thrown 403/404. */
export async function answerOf(call: () => unknown): Promise<Answer> {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number; headers?: HeadersInit } };
    if (answer instanceof Response) {
      const text = await answer.text();
      const json = answer.headers.get("Content-Type")?.includes("json") ? JSON.parse(text) : undefined;
      return {
        status: answer.status,
        location: answer.headers.get("Location"),
        text,
        ...(json === undefined ? {} : { json }),
        headers: answer.headers,
      };
    }
    if (answer && typeof answer === "object" && "init" in answer && "data" in answer) {
      const { init } = answer;
      return {
        status: init?.status ?? 200,
        data: answer.data as Record<string, unknown>,
        headers: new Headers(init?.headers),
      };
    }
    return { status: 200, data: answer as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) {
      return { status: thrown.status, location: thrown.headers.get("Location"), headers: thrown.headers };
    }
    const init = (thrown as { init?: { status?: number; headers?: HeadersInit } } | null)?.init;
    if (init?.status) {
      const location = init.headers ? new Headers(init.headers).get("Location") : null;
      return { status: init.status, location };
    }
    throw thrown;
  }
}

/**
 * How a loader or action answered, in one value, thrown or returned, synchronously or not: a
 * response as its status and where it sends the browser ("302 /login?…", "403 null"), data sent
 * with a status (a 400 with field messages, a thrown 404) as that status, anything else as "ok".
 */
export async function statusOf(call: Promise<unknown> | (() => unknown)) {
  try {
    const answer = await (typeof call === "function" ? call() : call);
    if (answer instanceof Response) return `${answer.status} ${answer.headers.get("Location")}`;
    return (answer as { init?: { status?: number } } | undefined)?.init?.status ?? "ok";
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${thrown.headers.get("Location")}`;
    const status = (thrown as { init?: { status?: number } } | null)?.init?.status;
    if (status) return status;
    throw thrown;
  }
}

/** The first message of each field of a form answered with a 400. */
export function fieldErrors(answer: unknown): Record<string, string | undefined> {
  const { data, init } = answer as { data: { result: { error?: Record<string, string[]> } }; init: { status: number } };
  expect(init.status).toBe(400);
  return Object.fromEntries(Object.entries(data.result.error ?? {}).map(([field, messages]) => [field, messages[0]]));
}

/** An outbox that keeps what it is given to send, so a test can read the emails. */
export function recordingOutbox() {
  const sent: OutboundEmail[] = [];
  const outbox: Outbox = { sendEmail: async (email) => void sent.push(email), sendSms: async () => {} };
  return { outbox, sent };
}

/**
 * A route test file's site: a parsed environment with its own data folder, an account for each
 * role (made before the file's tests run), and the router context React Router would give a
 * request from each of them. `runtime` adds services (storage, an outbox) to every request's
 * context; it is asked for once the environment exists.
 */
export function routeTestSite(
  database: () => { db: Db },
  options: { name: string; roles?: TestRole[]; runtime?: (env: Env) => Record<string, unknown> },
) {
  const accounts = {} as Record<TestRole, StaffMember>;
  let env: Env | undefined;
  let services: Record<string, unknown> = {};
  beforeAll(async () => {
    env = parseEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `pitlane-${options.name}-`)),
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
    });
    setEnv(env);
    services = options.runtime?.(env) ?? {};
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
    /**
     * The context of a request from `who`: the account of a role, another signed-in member, or
     * null for a visitor; with the site's services and these.
     */
    contextFor(who: TestRole | SessionUser | null, runtime: Record<string, unknown> = {}) {
      const user = typeof who === "string" ? testSessionUser(accounts[who]) : who;
      return routeContext({ db: database().db, env: site.env, ...services, ...runtime }, user);
    },
    /** The arguments of a loader or action called by `who`: a GET, or a POST when there is a body. */
    args(who: TestRole | SessionUser | null, request: RequestShape & { runtime?: Record<string, unknown> }) {
      return argsWith(site.contextFor(who, request.runtime), request);
    },
  };
  return site;
}
