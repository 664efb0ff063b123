import { format } from "node:util";
import { afterAll, afterEach, beforeEach } from "vitest";

/**
 * A `console.error` during a test fails it: React warnings, unhandled
 * provider errors and the like are bugs even when the assertions pass. The failure is raised
 * after the test, so code that catches errors cannot swallow it.
 */
const guard = {
  /** Logged since the current test started (or since the last test ended). */
  current: [] as string[],
  /** Logged outside any test: module load, beforeAll, between tests. */
  outside: [] as string[],
  /** Set while a test has opted in; collects instead of failing. */
  allowed: null as unknown[][] | null,
};

const original = console.error.bind(console);

console.error = (...args: unknown[]) => {
  if (guard.allowed) {
    guard.allowed.push(args);
    return;
  }
  guard.current.push(format(...args));
  original(...args);
};

function report(messages: string[], where: string) {
  if (messages.length === 0) return;
  throw new Error(`console.error was called ${where}:\n${messages.map((m) => `  ${m}`).join("\n")}`);
}

beforeEach(() => {
  guard.outside.push(...guard.current.splice(0));
  guard.allowed = null;
});

afterEach(() => {
  guard.allowed = null;
  report(guard.current.splice(0), "during this test");
});

afterAll(() => {
  report([...guard.outside.splice(0), ...guard.current.splice(0)], "outside a test in this file");
});

/**
 * For a test that expects errors to be logged: until the test ends, `console.error` calls are
 * collected (not printed) into the returned list so the test can assert on them.
 */
export function allowConsoleError(): unknown[][] {
  guard.allowed ??= [];
  return guard.allowed;
}
