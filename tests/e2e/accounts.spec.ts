import {
  completeProfile,
  jobsIdle,
  joinAsMember,
  latestMessage,
  linkIn,
  messagesTo,
  newMember,
  signIn,
  signUpAndVerify,
} from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

const handleFor = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test.describe("signing up", () => {
  test("with a password: confirm the email, finish the profile, arrive in the members' area", async ({ page }) => {
    const member = newMember("signup");
    await signUpAndVerify(page, member);
    await completeProfile(page, { handle: handleFor("sam") });
    await expect(page).toHaveURL("/members");
  });

  test("fields are checked in the browser as they are left, before anything is sent", async ({ page }) => {
    await visit(page, "/createAnAccount");
    const posts: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
    const email = page.getByLabel("Email");
    await email.fill("not-an-address");
    await email.blur();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Password", { exact: true }).blur();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await page.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByLabel("Your name")).toBeFocused();
    await expect(page.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
    await email.fill("fixed@example.com");
    await expect(email).not.toHaveAttribute("aria-invalid", "true");
    expect(posts).toEqual([]);
  });

  test("a common password is refused and the rest of the form is kept", async ({ page }) => {
    const member = newMember("common");
    await visit(page, "/createAnAccount");
    await page.getByLabel("Your name").fill(member.name);
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Password", { exact: true }).fill("password1234");
    await page.getByLabel(/I accept the/).check();
    await page.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByText("This password is on a list of passwords that attackers try first.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(member.email);
    await expect(page.getByLabel("Your name")).toHaveValue(member.name);
  });

  test("an address that already has an account gets the same answer; its owner is told by email", async ({
    page,
    browser,
  }) => {
    const member = newMember("twice");
    await signUpAndVerify(page, member);
    const other = await browser.newPage();
    await visit(other, "/createAnAccount");
    await other.getByLabel("Your name").fill("Someone Else");
    await other.getByLabel("Email").fill(member.email);
    await other.getByLabel("Password", { exact: true }).fill("another long passphrase");
    await other.getByLabel(/I accept the/).check();
    await other.getByRole("button", { name: "Create my account" }).click();
    await expect(other.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await latestMessage(page.request, member.email, /You already have a .* account/);
    await other.close();
  });
});

test.describe("signing in", () => {
  test("a wrong password and an unknown address get the same single message", async ({ page, browser }) => {
    const member = newMember("wrong");
    await signUpAndVerify(page, member);
    const visitor = await browser.newPage();
    for (const [email, password] of [
      [member.email, "not the password at all"],
      ["nobody-here@example.com", "not the password at all"],
    ] as const) {
      await signIn(visitor, email, password);
      await expect(visitor.getByRole("alert")).toHaveText(
        "The email or password is not right. Check them and try again.",
      );
    }
    await visitor.close();
  });

  test("too many attempts answer 429 with the wait time", async ({ page }) => {
    const email = `limited-${Date.now()}@example.com`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signIn(page, email, `wrong password number ${attempt}`);
      await expect(page.getByRole("alert")).toBeVisible();
    }
    await signIn(page, email, "wrong password number 6");
    await expect(
      page.getByRole("heading", { name: /Too many attempts\. Please wait 1[45] minutes and try again\./ }),
    ).toBeVisible();
    const response = await page.request.post("/login", {
      headers: { Origin: new URL(page.url()).origin },
      form: { intent: "password", email, password: "again and again" },
    });
    expect(response.status()).toBe(429);
    expect(Number(response.headers()["retry-after"])).toBeGreaterThan(800);
  });

  test("a signed-out visitor on a member page signs in and comes back", async ({ page, browser }) => {
    const member = newMember("return");
    await signUpAndVerify(page, member);
    const visitor = await browser.newPage();
    await visit(visitor, "/changePassword");
    await expect(visitor).toHaveURL("/login?redirectTo=%2FchangePassword");
    await visitor.getByLabel("Email").fill(member.email);
    await visitor.getByLabel("Password", { exact: true }).fill(member.password);
    await visitor.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(visitor).toHaveURL("/changePassword");
    await expect(visitor.getByRole("heading", { name: "Change your password" })).toBeVisible();
    await visitor.close();
  });

  test("a redirectTo that a browser would read as another site is dropped: signing in stays here", async ({
    page,
    browser,
    baseURL,
  }) => {
    const member = newMember("redirect");
    await joinAsMember(page, member);
    const visitor = await browser.newPage();
    const elsewhere: string[] = [];
    visitor.on("request", (request) => {
      if (new URL(request.url()).origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
    });
    await signIn(visitor, member.email, member.password, "/login?redirectTo=/%09/evil.example");
    await expect(visitor).toHaveURL("/members");
    expect(new URL(visitor.url()).origin).toBe(new URL(baseURL!).origin);
    expect(elsewhere).toEqual([]);
    await visitor.close();
  });

  test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
    await signUpAndVerify(page, newMember("cookie"));
    const session = (await context.cookies()).find((cookie) => cookie.name.endsWith("pitlane.session_token"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  });

  test("an email link signs in once", async ({ page, browser }) => {
    const member = newMember("link");
    await joinAsMember(page, member);
    const visitor = await browser.newPage();
    await visit(visitor, "/login");
    await visitor.getByLabel("Email").fill(member.email);
    await visitor.getByRole("button", { name: "Email me a link instead" }).click();
    await expect(visitor.getByRole("status").filter({ hasText: "a sign-in link is on its way" })).toBeVisible();
    const link = linkIn(await latestMessage(page.request, member.email, /sign-in link/), "/api/auth/magic-link/verify");
    await visitor.goto(link);
    await expect(visitor).toHaveURL("/members");
    await visitor.close();

    const again = await browser.newPage();
    await again.goto(link);
    await expect(again).toHaveURL(/\/login/);
    await expect(again.getByText("That link has expired or was already used.")).toBeVisible();
    await again.close();
  });
});

test.describe("passwords", () => {
  test("forgot password: the link sets a new one, works once, and signs out every device", async ({
    page,
    browser,
  }) => {
    // A long journey on two devices: a sign-up, a reset link and sign-ins, each hashing.
    test.setTimeout(90_000);
    const member = newMember("reset");
    await joinAsMember(page, member);

    const visitor = await browser.newPage();
    await visit(visitor, "/forgotPassword");
    await visitor.getByLabel("Email").fill(member.email);
    await visitor.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(
      visitor.getByRole("status").filter({ hasText: "a link to reset its password is on its way" }),
    ).toBeVisible();
    const link = linkIn(await latestMessage(page.request, member.email, /Reset your/), "/changePassword?token=");

    await visit(visitor, link);
    await visitor.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await visitor.getByLabel("Repeat the new password").fill("a brand new passphrase");
    await visitor.getByRole("button", { name: "Save the new password" }).click();
    await expect(visitor.getByRole("status").filter({ hasText: "Your password has been changed" })).toBeVisible();
    await visitor.getByLabel("Email").fill(member.email);
    await visitor.getByLabel("Password", { exact: true }).fill("a brand new passphrase");
    await visitor.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(visitor).toHaveURL("/members");

    // The device that was signed in before the reset is signed out.
    await visit(page, "/changePassword");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);

    // The link works once.
    const third = await browser.newPage();
    await visit(third, link);
    await third.getByLabel("New password", { exact: true }).fill("yet another passphrase");
    await third.getByLabel("Repeat the new password").fill("yet another passphrase");
    await third.getByRole("button", { name: "Save the new password" }).click();
    await expect(third.getByRole("alert")).toContainText("This reset link has expired or was already used.");
    await third.close();
    await visitor.close();
  });

  test("forgot password answers the same for an address with no account, and sends nothing", async ({ page }) => {
    const email = `no-account-${Date.now()}@example.com`;
    await visit(page, "/forgotPassword");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "a link to reset its password is on its way" }),
    ).toBeVisible();
    // Any email the request asked for has been sent once the queue is idle.
    await jobsIdle(page.request);
    expect(await messagesTo(page.request, email)).toEqual([]);
  });

  test("changing the password needs the current one and signs out other devices", async ({ page, browser }) => {
    // A long journey on two devices: a sign-up, a sign-in and two password changes, each hashing.
    test.setTimeout(90_000);
    const member = newMember("change");
    await signUpAndVerify(page, member);
    const otherDevice = await browser.newPage();
    await signIn(otherDevice, member.email, member.password, "/login?redirectTo=%2FchangePassword");
    await expect(otherDevice).toHaveURL("/changePassword");

    await visit(page, "/changePassword");
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password", { exact: true }).fill("fresh passphrase here");
    await page.getByLabel("Repeat the new password").fill("fresh passphrase here");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("The current password is not right.")).toBeVisible();

    await page.getByLabel("Current password").fill(member.password);
    await page.getByLabel("New password", { exact: true }).fill("fresh passphrase here");
    await page.getByLabel("Repeat the new password").fill("fresh passphrase here");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "other devices were signed out" })).toBeVisible();
    await latestMessage(page.request, member.email, /password was changed/);

    await visit(otherDevice, "/changePassword");
    await expect(otherDevice).toHaveURL(/\/login\?redirectTo=/);
    await otherDevice.close();
  });
});

test.describe("hostile input", () => {
  const forms: { path: string; fields: string[]; extra: Record<string, string> }[] = [
    { path: "/createAnAccount", fields: ["name", "email", "password"], extra: { terms: "on" } },
    { path: "/login", fields: ["email", "password"], extra: { intent: "password" } },
    { path: "/forgotPassword", fields: ["email"], extra: {} },
    { path: "/signUp", fields: ["email"], extra: {} },
  ];
  const payloads = {
    empty: "",
    // Under the 1 MB body limit with every field filled (above it the answer is a 413).
    oversized: "x".repeat(300_000),
    unicode: "Zoë 🚗 李 ‮evil",
    markup: '<script>alert("pwned")</script><img src=x onerror=alert(1)>',
  };

  for (const form of forms) {
    test(`${form.path} answers empty, oversized, unicode and markup input with messages, never a 500`, async ({
      request,
      baseURL,
    }) => {
      for (const [kind, value] of Object.entries(payloads)) {
        const body = Object.fromEntries(form.fields.map((field) => [field, value]));
        const response = await request.post(form.path, {
          headers: { Origin: baseURL! },
          form: { ...body, ...form.extra },
        });
        expect(response.status(), `${form.path} with ${kind} input`).toBe(400);
        const html = await response.text();
        expect(html).not.toContain('<script>alert("pwned")</script>');
        expect(html).not.toContain("<img src=x onerror");
        expect(html).toMatch(/Enter|Use at|Accept|email address/);
      }
    });
  }

  test("a sign-in posted from another site is refused", async ({ request }) => {
    const response = await request.post("/login", {
      headers: { Origin: "https://evil.example" },
      form: { intent: "password", email: "a@example.com", password: "whatever it is" },
    });
    expect(response.status()).toBe(403);
  });

  test("Better Auth's own sign-up endpoint is not open", async ({ request, baseURL }) => {
    const response = await request.post("/api/auth/sign-up/email", {
      headers: { Origin: baseURL!, "Content-Type": "application/json" },
      data: { name: "x", email: "direct@example.com", password: "password1234" },
    });
    expect(response.status()).toBe(404);
  });
});
