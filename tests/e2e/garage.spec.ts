import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { type NewMember, newMember } from "./accounts-helpers";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

/**
 * The members' garage as people use it: a member adds a car, uploads three photos (each with its
 * progress bar), reorders them, picks a cover, blurs the plate and publishes the car; the
 * community page shows it without the plate, and no served image carries GPS. A private car is
 * not found for anyone else. Without JavaScript, photos go up through the plain form. Each step
 * needs the one before: serial.
 */
test.describe.configure({ mode: "serial", timeout: 240_000 });

const owner = newMember("garage");
const other = newMember("visitor");
const sessionFile = (who: string) => path.resolve(`test-results/e2e/garage-${who}.json`);
const journey = { carId: "", privateCarId: "" };

async function saveMemberSession(browser: Browser, member: NewMember, who: string) {
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await page.request.post("/dev/fixtures/member", {
    headers: { Origin: origin },
    form: {
      email: member.email,
      name: member.name,
      password: member.password,
      handle: `${who}${Date.now().toString(36)}`,
      town: "Testbury",
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await context.storageState({ path: sessionFile(who) });
  await context.close();
}

/** A camera photo: a JPEG with the maker, model and a GPS position in its EXIF. */
async function cameraPhoto(name: string, color: string) {
  const buffer = await sharp({
    create: { width: 900, height: 600, channels: 3, background: color },
  })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: "PitlaneCam", Model: "GPS-1" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
    })
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

async function addCar(
  page: Page,
  car: { make: string; model: string; year: string; plate: string; visibility: RegExp },
) {
  await visit(page, "/members/newGarage");
  await page.getByLabel("Make").fill(car.make);
  await page.getByLabel("Model").fill(car.model);
  await page.getByLabel("Year").fill(car.year);
  await page.getByLabel("Number plate (optional)").fill(car.plate);
  await page.getByRole("radio", { name: car.visibility }).check();
  await page.getByRole("button", { name: "Save and add photos" }).click();
  await page.waitForURL(/\/members\/garage\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname.split("/")[3]!;
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(sessionFile("x")), { recursive: true });
  await saveMemberSession(browser, owner, "owner");
  await saveMemberSession(browser, other, "other");
});

test.describe("the owner", () => {
  test.use({ storageState: sessionFile("owner") });

  test("adds a car with three photos, reorders them, picks a cover, blurs the plate and publishes it", async ({
    page,
  }) => {
    // A long journey: three photos uploaded and processed, reordered, blurred and published.
    test.setTimeout(90_000);
    await visit(page, "/members/garage");
    await expect(page.getByText("No cars yet")).toBeVisible();
    journey.carId = await addCar(page, {
      make: "Mazda",
      model: "MX-5",
      year: "1991",
      plate: "J123 ABC",
      visibility: /^Private/,
    });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("1991 Mazda MX-5");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    const files = await Promise.all([
      cameraPhoto("front.jpg", "#aa2222"),
      cameraPhoto("side.jpg", "#22aa22"),
      cameraPhoto("rear.jpg", "#2222aa"),
    ]);
    // The uploader takes over from the plain form once its script has loaded.
    await expect(page.getByText("Drop photos here, or")).toBeVisible();
    await page.getByLabel("Choose photos").setInputFiles(files);
    const uploads = page.getByRole("list", { name: "Uploads" });
    for (const file of files)
      await expect(uploads.getByRole("progressbar", { name: `Upload of ${file.name}` })).toBeAttached();
    for (const file of files) {
      await expect(uploads.getByRole("listitem").filter({ hasText: file.name })).toContainText("Added", {
        timeout: 60_000,
      });
    }
    const photoList = page.getByRole("list", { name: "Photos of 1991 Mazda MX-5, in order" });
    await expect(photoList.getByRole("listitem")).toHaveCount(3);
    const order = async () =>
      photoList.getByRole("listitem").evaluateAll((items) => items.map((item) => item.getAttribute("data-photo-id")));
    const [first, second, third] = await order();

    await page.getByRole("button", { name: "Move later: Photo 1" }).click();
    await expect.poll(order).toEqual([second, first, third]);
    await page.getByRole("button", { name: "Make cover: Photo 3" }).click();
    await expect(photoList.getByRole("listitem").nth(2).getByText("Cover", { exact: true })).toBeVisible();

    await page.getByText("Blur areas of photo 1").click();
    await page.getByRole("button", { name: "Use the number-plate area" }).first().click();
    await page.getByRole("button", { name: "Blur this area" }).first().click();
    await expect(page.getByText("Blur applied to every size of the photo.")).toBeVisible({ timeout: 60_000 });
    await expect(photoList.getByRole("listitem").first().getByText("1 blurred area")).toBeVisible();

    await page.getByRole("radio", { name: /^Public/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();

    await visit(page, "/members/garage");
    const card = page.getByRole("listitem", { name: "1991 Mazda MX-5" });
    await expect(card.getByLabel("Who can see 1991 Mazda MX-5", { exact: true })).toHaveValue("public");
    await expect(card.getByText("3 photos", { exact: true })).toBeVisible();
  });

  test("keeps a private car to themselves", async ({ page }) => {
    journey.privateCarId = await addCar(page, {
      make: "Lotus",
      model: "Esprit",
      year: "1995",
      plate: "M95 LTS",
      visibility: /^Private/,
    });
    await visit(page, "/members/garage");
    const card = page.getByRole("listitem", { name: "1995 Lotus Esprit" });
    await expect(card.getByLabel("Who can see 1995 Lotus Esprit", { exact: true })).toHaveValue("private");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false, skipAxe: true });

    test("uploads several photos through the plain form", async ({ page }) => {
      await page.goto(`/members/garage/${journey.privateCarId}`);
      await page
        .getByLabel("Add photos")
        .setInputFiles([await cameraPhoto("one.jpg", "#884400"), await cameraPhoto("two.jpg", "#004488")]);
      await page.getByRole("button", { name: "Upload photos" }).click();
      await expect(page.getByText("2 photos added.")).toBeVisible({ timeout: 60_000 });
      await expect(
        page.getByRole("list", { name: "Photos of 1995 Lotus Esprit, in order" }).getByRole("listitem"),
      ).toHaveCount(2);
    });

    test("is told why a file that is not a photo was refused", async ({ page }) => {
      await page.goto(`/members/garage/${journey.privateCarId}`);
      await page
        .getByLabel("Add photos")
        .setInputFiles([{ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<?php echo 1; ?>") }]);
      await page.getByRole("button", { name: "Upload photos" }).click();
      await expect(page.getByText(/^notes\.jpg: /)).toBeVisible();
    });
  });
});

test.describe("everyone else", () => {
  test.use({ storageState: sessionFile("other") });

  test("sees the public car without its plate, and no GPS in any of its images", async ({ page }) => {
    const response = await visit(page, `/community/cars/${journey.carId}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Mazda MX-5");
    await expect(page.locator("body")).not.toContainText("J123 ABC");
    const sources = await page
      .locator("img, source")
      .evaluateAll((nodes) =>
        nodes.flatMap((node) => [
          node.getAttribute("src"),
          ...(node.getAttribute("srcset") ?? "").split(",").map((part) => part.trim().split(" ")[0]),
        ]),
      );
    const photos = [...new Set(sources.filter((src): src is string => Boolean(src && /\/cars\//.test(src))))];
    expect(photos.length).toBeGreaterThan(0);
    for (const src of photos) {
      const image = await page.request.get(src);
      expect(image.ok(), src).toBe(true);
      const bytes = await image.body();
      const metadata = await sharp(bytes).metadata();
      expect(metadata.exif, src).toBeUndefined();
      expect(bytes.includes(Buffer.from("PitlaneCam")), src).toBe(false);
    }
  });

  test("cannot open the private car, in the community or in the garage", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const community = await page.goto(`/community/cars/${journey.privateCarId}`);
    expect(community?.status()).toBe(404);
    const garage = await page.goto(`/members/garage/${journey.privateCarId}`);
    expect(garage?.status()).toBe(404);
    await expect(page.getByText("This page could not be found")).toBeVisible();
  });
});
