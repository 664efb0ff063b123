import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test } from "./fixtures";

// Every page's server-rendered HTML goes through the W3C's Nu Html Checker (vnu.jar, on Java):
// no errors. Warnings are not failures.

const vnuJar = path.join(
  path.dirname(createRequire(import.meta.url).resolve("vnu-jar/package.json")),
  "build/dist/vnu.jar",
);

/**
 * iOS picks its launch image by `device-width`/`device-height` media queries on
 * `<link rel="apple-touch-startup-image">`, which the Media Queries spec deprecates: those are the
 * only errors allowed.
 */
function isIosLaunchImageQuery(message: { message: string; extract?: string }) {
  return (
    /Deprecated media feature “device-(width|height)”/.test(message.message) &&
    /element “link”/.test(message.message) &&
    (message.extract ?? "").includes("apple-touch-startup-image")
  );
}

type VnuMessage = { type: string; url: string; lastLine?: number; message: string; extract?: string };

/** Checks the pages in one Java run (it takes a few seconds to start) and answers the errors. */
function validate(pages: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "pitlane-html-"));
  const files = Object.entries(pages).map(([url, html], index) => {
    const file = path.join(dir, `${index}.html`);
    writeFileSync(file, html);
    return { url, file };
  });
  const run = spawnSync(
    "java",
    ["-jar", vnuJar, "--format", "json", "--stdout", "--errors-only", ...files.map((f) => f.file)],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (run.error) throw new Error(`The Nu Html Checker needs Java: ${run.error.message}`);
  const { messages } = JSON.parse(run.stdout) as { messages: VnuMessage[] };
  return messages
    .filter((message) => message.type === "error" && !isIosLaunchImageQuery(message))
    .map((message) => {
      const page = files.find((file) => message.url.endsWith(`/${path.basename(file.file)}`))?.url ?? message.url;
      return `${page}:${message.lastLine ?? "?"} ${message.message} ${message.extract ? `[${message.extract.trim()}]` : ""}`;
    });
}

async function htmlOf(
  request: { get(url: string): Promise<{ status(): number; text(): Promise<string> }> },
  url: string,
  status = 200,
) {
  const response = await request.get(url);
  expect(response.status(), url).toBe(status);
  return response.text();
}

test("every public page is valid HTML", async ({ request }) => {
  test.setTimeout(90_000);
  const events = await htmlOf(request, "/events");
  const eventPage = /href="(\/events\/[a-z0-9-]+)"/.exec(events)?.[1];
  expect(eventPage, "an event on /events").toBeTruthy();
  const community = await htmlOf(request, "/community");
  const carPage = /href="(\/community\/cars\/[0-9a-f-]+)"/.exec(community)?.[1];
  expect(carPage, "a car on /community").toBeTruthy();
  const pages: Record<string, string> = { "/events": events, "/community": community };
  for (const url of [
    "/",
    eventPage!,
    "/login",
    "/signUp",
    "/createAnAccount",
    "/forgotPassword",
    "/privacy",
    "/terms",
    "/responsible-play",
    "/giveaways",
    "/giveaways/win-a-mk2-golf-gti",
    "/giveaways/forged-wheel-set",
    "/giveaways/forged-wheel-set/verify",
    "/giveaways/forged-wheel-set/entries",
    "/shop",
    "/shop/club-tee",
    "/blog",
    "/blog/night-meet-at-the-old-airfield",
    carPage!,
    "/offline",
    "/cart",
  ]) {
    pages[url] = await htmlOf(request, url);
  }
  pages["/no-such-page"] = await htmlOf(request, "/no-such-page", 404);
  expect(validate(pages)).toEqual([]);
});

test("the members' pages are valid HTML", async ({ page }) => {
  test.setTimeout(90_000);
  await joinAsMember(page, newMember("valid-html"));
  const pages: Record<string, string> = {};
  for (const url of [
    "/members",
    "/members/events",
    "/transactions",
    "/settings",
    "/settings/twoFactor",
    "/settings/responsiblePlay",
    "/verifyPhone",
  ]) {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(200);
    pages[url] = await response.text();
  }
  expect(validate(pages)).toEqual([]);
});
