import type { Page } from "@playwright/test";
import sharp from "sharp";
import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * On a slow connection the plain upload form is on screen well before the uploader's script
 * arrives, and people use it. The photos they chose in it stay chosen when the uploader comes in,
 * and are added once each, whether the form was sent before or after.
 */

const photo = async (name: string, background: string) => ({
  name,
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .jpeg()
    .toBuffer(),
});

const UPLOADER_SCRIPT = /\/assets\/image-uploader-[^/]+\.js$/;

/** Scripts matching `pattern` are answered only once `release` is called, as on a stalled connection. */
async function holdScripts(page: Page, pattern: RegExp) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = () => {};
  const requested = new Promise<void>((resolve) => {
    asked = resolve;
  });
  await page.route(pattern, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { requested, release };
}

/** A new member's new car; its page's address, without the #photos that would keep a reload from happening. */
async function newCar(page: Page, model: string) {
  await joinAsMember(page, newMember("early-photos"));
  await visit(page, "/members/newGarage");
  await page.getByLabel("Make").fill("Honda");
  await page.getByLabel("Model").fill(model);
  await page.getByLabel("Year").fill("1992");
  await page.getByRole("radio", { name: /^Private/ }).check();
  await page.getByRole("button", { name: "Save and add photos" }).click();
  await page.waitForURL(/\/members\/garage\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname;
}

const photosOf = (page: Page, carName: string) =>
  page.getByRole("list", { name: `Photos of ${carName}, in order` }).getByRole("listitem");

test.describe("on a throttled connection, photos chosen in the plain form", () => {
  test.describe.configure({ timeout: 90_000 });

  test("before the page's scripts arrive are all added", async ({ page }) => {
    const carPage = await newCar(page, "Civic");
    const files = await Promise.all([
      photo("front.jpg", "#aa2222"),
      photo("side.jpg", "#22aa22"),
      photo("rear.jpg", "#2222aa"),
    ]);
    const scripts = await holdScripts(page, /\/assets\/[^/]+\.js$/);

    // The document arrives; its scripts do not yet.
    await page.goto(carPage, { waitUntil: "commit" });
    await page.getByLabel("Add photos").setInputFiles(files);
    scripts.release();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    await page.getByRole("button", { name: "Upload photos" }).click();
    await expect(photosOf(page, "1992 Honda Civic")).toHaveCount(3, { timeout: 30_000 });
  });

  test("while the uploader's script is on its way are all added, through the uploader", async ({ page }) => {
    const carPage = await newCar(page, "CRX");
    const files = await Promise.all([
      photo("left.jpg", "#aaaa22"),
      photo("right.jpg", "#22aaaa"),
      photo("engine.jpg", "#aa22aa"),
    ]);
    const uploader = await holdScripts(page, UPLOADER_SCRIPT);

    await visit(page, carPage);
    await uploader.requested;
    await page.getByLabel("Add photos").setInputFiles(files);
    const uploaderLoaded = page.waitForEvent("requestfinished", (request) => UPLOADER_SCRIPT.test(request.url()));
    uploader.release();
    await uploaderLoaded;

    await page.getByRole("button", { name: "Upload photos" }).click();
    const uploads = page.getByRole("list", { name: "Uploads" });
    for (const file of files) {
      await expect(uploads.getByRole("listitem").filter({ hasText: file.name })).toContainText("Added", {
        timeout: 30_000,
      });
    }
    await expect(photosOf(page, "1992 Honda CRX")).toHaveCount(3);
  });

  test("and sent before the page's scripts arrive are added once", async ({ page }) => {
    const carPage = await newCar(page, "Prelude");
    const files = await Promise.all([
      photo("bonnet.jpg", "#886622"),
      photo("boot.jpg", "#228866"),
      photo("wheel.jpg", "#662288"),
    ]);
    const scripts = await holdScripts(page, /\/assets\/[^/]+\.js$/);
    const uploaderLoaded = page.waitForEvent("requestfinished", (request) => UPLOADER_SCRIPT.test(request.url()));
    const uploadsFromScript: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() !== "document" && request.url().endsWith("/photos"))
        uploadsFromScript.push(request.url());
    });
    // The form's answer comes only after the scripts, the uploader's too, have arrived.
    await page.route(/\/photos$/, async (route) => {
      if (route.request().resourceType() === "document") {
        scripts.release();
        await uploaderLoaded;
      }
      await route.continue();
    });

    await page.goto(carPage, { waitUntil: "commit" });
    await page.getByLabel("Add photos").setInputFiles(files);
    await page.getByRole("button", { name: "Upload photos" }).click();

    await expect(page.getByText("3 photos added.")).toBeVisible({ timeout: 30_000 });
    await expect(photosOf(page, "1992 Honda Prelude")).toHaveCount(3);
    expect(uploadsFromScript, "photos sent again by the uploader").toEqual([]);
  });
});
