import sharp from "sharp";
import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// What the media pipeline promises, seen from a browser: uploaded photos are served without
// their camera's EXIF or location, files hiding something else are refused with a message,
// and nothing but public renditions is ever served from /media/.

/** A phone photo as it comes off the camera, with where it was taken. */
const photoWithGps = () =>
  sharp({ create: { width: 900, height: 700, channels: 3, background: "#2a5bd7" } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: "PhoneCo", Model: "Snap 9" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "52/1 4/1 2388/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "1/1 0/1 52/1",
      },
    })
    .toBuffer();

test("a member's photo is served without EXIF or GPS, and a photo hiding an archive is refused", async ({ page }) => {
  await joinAsMember(page, newMember("media"));
  await visit(page, "/settings");
  const profile = page.getByRole("region", { name: "Profile" });

  const upload = await photoWithGps();
  expect(upload.includes(Buffer.from("PhoneCo"))).toBe(true);
  await profile
    .getByLabel("Profile photo (optional)")
    .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: upload });
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  const avatar = profile.getByRole("img", { name: "Your current avatar" });
  // Loaded by the browser: from /media/, or from the bucket the content policy allows.
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const src = await avatar.getAttribute("src");
  expect(src).toMatch(/\/avatars\/[0-9a-f]{64}\.webp$/);
  for (const address of [src!, src!.replace(/\.webp$/, ".avif")]) {
    const image = await page.request.get(address);
    expect(image.status(), address).toBe(200);
    const bytes = await image.body();
    const meta = await sharp(bytes).metadata();
    expect(meta.exif, address).toBeUndefined();
    expect(meta.xmp, address).toBeUndefined();
    expect(bytes.includes(Buffer.from("PhoneCo")), address).toBe(false);
    expect(bytes.includes(Buffer.from("GPS")), address).toBe(false);
  }

  // A real JPEG with a ZIP archive after it: a picture to one program, an archive to another.
  const zip = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(26), Buffer.from("a.html<p>hi</p>")]);
  await profile
    .getByLabel("Profile photo (optional)")
    .setInputFiles({ name: "holiday.jpg", mimeType: "image/jpeg", buffer: Buffer.concat([upload, zip]) });
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByText(/This photo carries something else inside it/)).toBeVisible();
});

test("/media/ serves public files only", async ({ request }) => {
  for (const address of ["/media/private/cars/0123456789abcdef0123456789abcdef.webp", "/media/cars/page.html"]) {
    const response = await request.get(address, { maxRedirects: 0 });
    expect(response.status(), address).toBe(404);
  }
});
