import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import sharp from "sharp";
import { completeProfile, latestMessage, linkIn, signUpAndVerify } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// Each test makes its own member; addresses are unique per run so a rerun never collides.
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PASSWORD = "gravel corner apex 2024";

test("a signed-out visitor on /settings is sent to sign in, and comes back", async ({ page }) => {
  await visit(page, "/settings");
  await expect(page).toHaveURL("/login?redirectTo=%2Fsettings");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("the photo forms accept bodies over the general limit, up to 16 MB", async ({ request, baseURL }) => {
  const photo = { name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(3 * 1024 * 1024) };
  for (const path of ["/settings", "/newProfile"]) {
    const response = await request.post(path, {
      // The page answers before it needs the body, and the connection closes after the answer: the
      // server reads the whole upload first, or this write fails with the connection reset.
      headers: { Origin: baseURL!, Connection: "close" },
      multipart: { intent: "profile", avatar: photo },
      maxRedirects: 0,
    });
    // Signed out, so the page sends the visitor to sign in: the body itself was accepted.
    expect(response.status(), path).toBe(302);
  }
  // Over the upload limit: refused before the page runs, and answered once the body is read.
  const tooBig = await request.post("/settings", {
    headers: { Origin: baseURL!, Connection: "close" },
    multipart: { avatar: { ...photo, buffer: Buffer.alloc(17 * 1024 * 1024) } },
  });
  expect(tooBig.status()).toBe(413);
});

/**
 * Posts `size` bytes to `path` over a fresh connection as a slow browser would: the headers and a
 * first part, then, after a pause in which an answer given at once would arrive, the rest. Says
 * what the client saw: the answer's status line, how much of the body had been sent when the
 * answer's first byte came, and any error on the connection (a reset).
 */
async function uploadInTwoParts(baseURL: string, path: string, size: number) {
  const { hostname, port } = new URL(baseURL);
  const socket = connect({ host: hostname, port: Number(port) });
  let answer = "";
  let sentWhenAnswered: number | null = null;
  let sent = 0;
  let error: string | null = null;
  const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("data", (chunk) => {
    sentWhenAnswered ??= sent;
    answer += chunk.toString("latin1");
  });
  socket.on("error", (cause: NodeJS.ErrnoException) => {
    error = cause.code ?? cause.message;
  });
  const write = (bytes: Buffer) => {
    sent += bytes.length;
    return new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  };
  socket.write(
    [
      `POST ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      `Origin: ${baseURL}`,
      "Content-Type: application/octet-stream",
      `Content-Length: ${size}`,
      "Connection: close",
      "",
      "",
    ].join("\r\n"),
  );
  const first = 64 * 1024;
  await write(Buffer.alloc(first));
  // Only how likely a server that answers early is to be caught depends on this pause; a server
  // that reads the body first passes whatever its length.
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 500))]);
  for (let offset = first; offset < size && !socket.destroyed; offset += 256 * 1024) {
    await write(Buffer.alloc(Math.min(256 * 1024, size - offset)));
  }
  await closed;
  return { status: answer.split("\r\n")[0], sentWhenAnswered, error };
}

test("an upload refused before it is read is answered after its body, never with a reset", async ({ baseURL }) => {
  const photo = 3 * 1024 * 1024;
  for (const path of ["/settings", "/newProfile"]) {
    // Signed out: the page would send the visitor to sign in without looking at the body.
    expect(await uploadInTwoParts(baseURL!, path, photo), path).toEqual({
      status: "HTTP/1.1 302 Found",
      sentWhenAnswered: photo,
      error: null,
    });
  }
  const tooBig = 17 * 1024 * 1024;
  expect(await uploadInTwoParts(baseURL!, "/settings", tooBig)).toEqual({
    status: "HTTP/1.1 413 Payload Too Large",
    sentWhenAnswered: tooBig,
    error: null,
  });
});

test("a member edits their profile, photo and emails, and downloads their data", async ({ page }) => {
  test.setTimeout(90_000);
  const id = unique();
  const email = `settings-${id}@example.com`;
  await signUpAndVerify(page, { name: "Sasha Settings", email, password: PASSWORD });

  // The members' area waits for the profile to be finished.
  await visit(page, "/settings");
  await expect(page).toHaveURL("/newProfile?redirectTo=%2Fsettings");
  await completeProfile(page, { handle: `sasha_${id}` });
  await expect(page).toHaveURL("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  await page.getByRole("navigation", { name: "Members" }).getByRole("link", { name: "My account" }).first().click();
  await expect(page.getByRole("heading", { name: "Hi, Sasha" })).toBeVisible();
  await page.getByRole("navigation", { name: "Members" }).getByRole("link", { name: "Settings" }).first().click();
  await expect(page).toHaveURL("/settings");

  // Profile and photo.
  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("Town (optional)").fill("Silverstone");
  const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#ff7a1a" } })
    .png()
    .toBuffer();
  await profile
    .getByLabel("Profile photo (optional)")
    .setInputFiles({ name: "my-car.png", mimeType: "image/png", buffer: photo });
  await expect(profile.getByRole("img", { name: "Your new avatar, not saved yet" })).toBeVisible();
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  await expect(profile.getByLabel("Town (optional)")).toHaveValue("Silverstone");
  const avatar = profile.getByRole("img", { name: "Your current avatar" });
  await expect(avatar).toBeVisible();
  const src = await avatar.getAttribute("src");
  expect(src).toMatch(/^\/media\/avatars\/[0-9a-f]{64}\.webp$/);
  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/webp");
  expect(image.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  // A file that is not an image gets a message, not an error page.
  await profile
    .getByLabel("Profile photo (optional)")
    .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("definitely not a picture") });
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByText("Choose a JPEG, PNG, WebP or HEIC photo.")).toBeVisible();

  // Email choices.
  const emails = page.getByRole("region", { name: "Emails we send you" });
  await expect(emails.getByLabel(/Event news/)).toBeChecked();
  await emails.getByLabel(/Event news/).uncheck();
  await emails.getByLabel(/Club news and offers/).check();
  await emails.getByRole("button", { name: "Save email preferences" }).click();
  await expect(page.getByText("Your email preferences have been saved.")).toBeVisible();
  await page.reload();
  await expect(emails.getByLabel(/Event news/)).not.toBeChecked();
  await expect(emails.getByLabel(/Club news and offers/)).toBeChecked();
  await expect(emails.getByLabel(/Draw results/)).toBeChecked();

  // Download my data.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(exported.profile).toMatchObject({ email, town: "Silverstone", handle: `sasha_${id}` });
  expect(exported.connectedAccounts).toEqual([expect.objectContaining({ provider: "Password" })]);
  expect(JSON.stringify(exported.sessions)).not.toMatch(/token/i);

  // A new email address: confirmed at that address, and the old one is told.
  const newEmail = `settings-new-${id}@example.com`;
  const emailSection = page.getByRole("region", { name: "Email address" });
  await emailSection.getByLabel("New email address").fill(newEmail);
  await emailSection.getByLabel("Your password").fill(PASSWORD);
  await emailSection.getByRole("button", { name: "Change my email" }).click();
  await expect(emailSection.getByText(`Check ${newEmail} to confirm the change.`)).toBeVisible();
  const confirmation = await latestMessage(page.request, newEmail, /Confirm your new email address/);
  await visit(page, linkIn(confirmation, "/api/auth/verify-email"));
  await expect(page).toHaveURL("/settings?email=changed");
  await expect(page.getByText("Your email address has been changed.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Email address" }).getByText(newEmail, { exact: true })).toBeVisible();
  await latestMessage(page.request, email, /email address was changed/);
});

test("a member deletes their account and cannot sign in with it again", async ({ page }) => {
  test.setTimeout(90_000);
  const id = unique();
  const email = `leaving-${id}@example.com`;
  await signUpAndVerify(page, { name: "Lee Leaving", email, password: PASSWORD });
  await completeProfile(page, { handle: `lee_${id}` });
  await expect(page).toHaveURL("/members");

  await visit(page, "/settings#delete");
  const section = page.getByRole("region", { name: "Delete my account" });
  await section.getByLabel("Type your email address to confirm").fill("someone.else@example.com");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText(`Type ${email} to confirm.`)).toBeVisible();

  await section.getByLabel("Type your email address to confirm").fill(email);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();

  // Signed out: the members' area asks for a sign-in again.
  await visit(page, "/members");
  await expect(page).toHaveURL("/login?redirectTo=%2Fmembers");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("The email or password is not right.", { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
