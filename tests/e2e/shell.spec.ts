import { createHash } from "node:crypto";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

const CHUNK_FAILURE =
  /Error loading route module|Failed to load resource|ChunkLoadError|could not be loaded|net::ERR_FAILED|Failed to fetch dynamically imported module|Importing a module script failed/;

test.describe("error pages", () => {
  test("an unknown address answers 404 with a way home", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const response = await page.goto("/no-such-page/at-all");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("an error shows its message and status", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const response = await page.goto("/dev/fixtures/error-with-message");
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "The grid is full" })).toBeVisible();
  });

  test("an error without a message shows 'Error' with status 500", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const response = await page.goto("/dev/fixtures/error-without-message");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: "Error", exact: true })).toBeVisible();
  });

  test("when the error page itself fails, a last-resort page links home", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const response = await page.goto("/dev/fixtures/broken-error-page");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: "An error occurred while showing the error page" })).toBeVisible();
    await page.getByRole("link", { name: "Go back to home" }).click();
    await expect(page).toHaveURL("/");
  });

  test("an unknown named route step is a 500 'Unknown middleware'", async ({ page }) => {
    allowConsoleErrors(page, FAILED_RESOURCE);
    const response = await page.goto("/dev/fixtures/unknown-middleware");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: "Unknown middleware" })).toBeVisible();
  });
});

test.describe("navigation", () => {
  /** Records each change of the progress bar's phase with the time since the click. */
  async function recordProgressPhases(page: import("@playwright/test").Page) {
    await page.evaluate(() => {
      const bar = document.querySelector('[role="progressbar"]')!;
      const log: { phase: string | null; at: number }[] = [];
      // Times count from the click that starts the navigation.
      let start = 0;
      document.addEventListener(
        "click",
        () => {
          start ||= performance.now();
        },
        { capture: true },
      );
      (window as unknown as { phases: typeof log }).phases = log;
      new MutationObserver(() => {
        const phase = bar.getAttribute("data-phase");
        if (log.at(-1)?.phase !== phase) log.push({ phase, at: performance.now() - start });
      }).observe(bar, { attributes: true, attributeFilter: ["data-phase"] });
    });
  }
  const phases = (page: import("@playwright/test").Page) =>
    page.evaluate(() => (window as unknown as { phases: { phase: string; at: number }[] }).phases);

  test("the progress bar shows after 200 ms, runs for 5 s and hides 500 ms after the page arrives", async ({
    page,
  }) => {
    await visit(page, "/dev/fixtures/long");
    await recordProgressPhases(page);
    const bar = page.getByRole("progressbar", { includeHidden: true });
    await page.getByRole("link", { name: "Slow page", exact: true }).click();
    await expect(bar).toHaveAttribute("data-phase", "running");
    await expect(bar.locator("div")).toHaveAttribute("style", /width 5000ms/);
    await expect(page.getByRole("heading", { name: "Slow page loaded" })).toBeVisible();
    await expect(bar).toHaveAttribute("data-phase", "idle");
    const [running, finishing, idle] = await phases(page);
    // The lower bounds are the rule. Timers only ever fire late, and by how much depends on how busy
    // the machine is, so the upper bounds are the page's own order of events: the bar runs while the
    // 1.5 s page is still on its way, and hides (awaited above) after it has arrived.
    expect(running?.phase).toBe("running");
    expect(running!.at).toBeGreaterThanOrEqual(190);
    expect(finishing?.phase).toBe("finishing");
    expect(finishing!.at).toBeGreaterThanOrEqual(1500);
    expect(running!.at).toBeLessThan(finishing!.at);
    expect(idle?.phase).toBe("idle");
    expect(idle!.at - finishing!.at).toBeGreaterThanOrEqual(450);
  });

  test("a quick navigation never flashes the progress bar", async ({ page }) => {
    await visit(page, "/dev/fixtures/long");
    // Once to load the page's script, so the measured navigation is a quick one.
    await page.getByRole("link", { name: "Quick page" }).click();
    await expect(page.getByRole("heading", { name: "Slow page loaded" })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole("heading", { name: "A long page" })).toBeVisible();
    // A slow way back shows the bar too: it must be gone before the measured navigation starts.
    await expect(page.locator('[role="progressbar"]')).toHaveAttribute("data-phase", "idle");

    await recordProgressPhases(page);
    const clicked = Date.now();
    await page.getByRole("link", { name: "Quick page" }).click();
    await expect(page.getByRole("heading", { name: "Slow page loaded" })).toBeVisible();
    const took = Date.now() - clicked;
    // Until a wrongly scheduled bar would have shown, by the page's own clock and in its order of
    // events: a timer set after the bar's and running longer fires after it, and a message posted
    // then arrives after the render the bar's timer asked for.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(null);
          }, 300),
        ),
    );
    const recorded = await phases(page);
    // Whatever the machine's speed, the bar never shows before 200 ms…
    expect(recorded.filter(({ phase, at }) => phase === "running" && at < 190)).toEqual([]);
    // …and a navigation that finished well within them shows nothing at all.
    if (took < 150) expect(recorded).toEqual([]);
  });

  test("a new page starts at the top; a link with a hash scrolls to its anchor", async ({ page }) => {
    await visit(page, "/dev/fixtures/long");
    await page.getByRole("heading", { name: "Lap 4" }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByRole("link", { name: "Privacy" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: /privacy/i })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("link", { name: "Jump to lap 3" }).click();
    await expect(page.getByRole("heading", { name: "Lap 3" })).toBeInViewport();
    await expect(page.getByRole("heading", { name: "Lap 1" })).not.toBeInViewport();
  });

  test("opening an address with a hash lands on the anchor", async ({ page }) => {
    await page.goto("/dev/fixtures/long#lap-2");
    await expect(page.getByRole("heading", { name: "Lap 2" })).toBeInViewport();
  });

  test("a page script that fails to load reloads the page once, then not again within 60 s", async ({ page }) => {
    allowConsoleErrors(page, CHUNK_FAILURE);
    await visit(page, "/dev/fixtures/long");
    await page.route(/\/assets\/legal-page-[^/]+\.js$/, (route) => route.abort("failed"));
    const reloads: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) reloads.push(request.url());
    });

    await page.getByRole("link", { name: "Privacy" }).first().click();
    await expect.poll(() => reloads.length).toBe(1);
    await page.waitForLoadState("load");
    await expect(page.getByRole("heading", { name: "A long page" })).toBeVisible();
    // Only a hydrated page loads route modules itself; before that a link is a plain page load.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    // Within the 60 s guard: no second reload; the visitor sees why instead of a loop.
    await page.getByRole("link", { name: "Privacy" }).first().click();
    await expect(page.getByRole("heading", { name: /could not be loaded/ })).toBeVisible();
    expect(reloads).toHaveLength(1);

    // A minute later the guard lets one reload through again.
    await page.evaluate(() => sessionStorage.setItem("pitlane:chunk-reload-at", String(Date.now() - 61_000)));
    await visit(page, "/dev/fixtures/long");
    const before = reloads.length;
    await page.getByRole("link", { name: "Privacy" }).first().click();
    await expect.poll(() => reloads.length).toBe(before + 1);
  });

  test("a navigation stuck for 120 s is retried as a full page load", async ({ page }) => {
    await page.clock.install();
    await visit(page, "/dev/fixtures/long");
    await page.getByRole("link", { name: "Very slow page" }).click();
    // The progress bar shows once the navigation is under way, and the watchdog is armed with it:
    // moving the clock on before then would pass its 120 s before it started counting.
    await expect(page.locator('[role="progressbar"][data-phase="running"]')).toBeAttached();
    const fullLoad = page.waitForRequest(
      (request) => request.isNavigationRequest() && request.url().includes("/dev/fixtures/slow?ms=4000"),
    );
    await page.clock.fastForward(121_000);
    await fullLoad;
    await expect(page.getByRole("heading", { name: "Slow page loaded" })).toBeVisible();
  });

  test("going offline shows a banner that goes away when the connection returns", async ({ page, context }) => {
    await visit(page, "/");
    const banner = page.getByRole("status").filter({ hasText: "You are offline" });
    await expect(banner).toBeHidden();
    await context.setOffline(true);
    await expect(banner).toBeVisible();
    await context.setOffline(false);
    await expect(banner).toBeHidden();
  });
});

test.describe("layout and content", () => {
  test("the navigation and footer reach every public area", async ({ page }) => {
    await page.goto("/");
    const main = page.getByRole("navigation", { name: "Main" });
    for (const area of ["Events", "Giveaways", "Community", "Shop", "Blog"]) {
      await expect(main.getByRole("link", { name: area, exact: true })).toHaveAttribute("href", /^\//);
    }
    const footer = page.getByRole("contentinfo");
    for (const name of ["Privacy", "Terms", "Membership", "Join", "Sign in", "Events", "Shop"]) {
      await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
    }
  });

  test("privacy and terms pages have real content", async ({ page }) => {
    for (const [path, heading] of [
      ["/privacy", /privacy/i],
      ["/terms", /terms/i],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      const text = (await page.getByRole("article").textContent()) ?? "";
      expect(text.length).toBeGreaterThan(1500);
    }
  });

  test("the old home address redirects permanently", async ({ request }) => {
    const response = await request.get("/indexBackup", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe("/");
  });
});

test.describe("security baseline", () => {
  test("pages carry the security headers and a per-response CSP nonce", async ({ request }) => {
    // The sign-in page is never kept by the page cache: it is rendered for each visitor.
    const first = await request.get("/login");
    const second = await request.get("/login");
    const csp = first.headers()["content-security-policy"]!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toEqual(second.headers()["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await first.text();
    for (const script of html.match(/<script\b[^>]*>/g) ?? []) expect(script).toContain(`nonce="${nonce}"`);
    // The HTML holds its nonce: no shared cache may give it to another visitor.
    expect(first.headers()["cache-control"]).toBe("private, no-cache");
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers()["permissions-policy"]).toContain("microphone=()");
    // HSTS is sent only when the site is served over HTTPS.
    expect(first.headers()["strict-transport-security"]).toBeUndefined();
  });

  test("a page from the page cache carries no nonce, and its CSP allows exactly its inline scripts by hash", async ({
    request,
  }) => {
    await request.get("/events");
    const cached = await request.get("/events");
    expect(cached.headers()["x-cache"]).toMatch(/HIT|STALE/);
    const csp = cached.headers()["content-security-policy"]!;
    expect(csp).not.toContain("'nonce-");
    expect(csp).not.toContain("'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await cached.text();
    expect(html).not.toMatch(/\bnonce="/);
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes, body]) => !/\ssrc=/.test(attributes!) && body,
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , body] of inline) {
      expect(csp).toContain(`'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`);
    }
    expect(cached.headers()["cache-control"]).toBe("private, no-cache");
    expect(cached.headers().vary).toBe("Accept-Encoding, Cookie");
    expect(cached.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("a state-changing request from another site is refused", async ({ request }) => {
    const crossSite = await request.post("/privacy", {
      headers: { Origin: "https://evil.example" },
      form: { anything: "1" },
    });
    expect(crossSite.status()).toBe(403);
    const noOrigin = await request.post("/privacy", { form: { anything: "1" } });
    expect(noOrigin.status()).toBe(403);
  });

  test("a body over the limit is refused with 413", async ({ request, baseURL }) => {
    const response = await request.post("/privacy", {
      headers: { Origin: baseURL!, "Content-Type": "application/x-www-form-urlencoded" },
      data: `text=${"a".repeat(1024 * 1024 + 10)}`,
    });
    expect(response.status()).toBe(413);
  });

  test("the mailbox answers this machine, not a request forwarded by a proxy or sent for another name", async ({
    request,
  }) => {
    expect((await request.get("/dev/mailbox.json")).status()).toBe(200);
    const forwarded = await request.get("/dev/mailbox.json", { headers: { "X-Forwarded-For": "203.0.113.7" } });
    expect(forwarded.status()).toBe(403);
    const rebound = await request.get("/dev/mailbox.json", { headers: { Host: "attacker.example" } });
    expect(rebound.status()).toBe(403);
  });

  // The server's METRICS_TOKEN (playwright.config.ts).
  const METRICS_TOKEN = "e2e-metrics-token";

  test("metrics answer only with their token, even on loopback", async ({ request }) => {
    expect((await request.get("/metrics")).status()).toBe(403);
    const metrics = await request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status()).toBe(200);
    expect(await metrics.text()).toContain("http_request_duration_seconds");
  });

  test("metrics report latency per route, the page cache, the job queues and the holds", async ({ request }) => {
    await request.get("/shop");
    await request.get("/shop");
    const text = await (
      await request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="routes\/shop\/list"/);
    expect(text).toMatch(/page_cache_requests_total\{result="(hit|stale)"\} [1-9]/);
    expect(text).toMatch(/page_cache_hit_ratio (0\.\d+|1)/);
    expect(text).toMatch(/page_cache_pages [1-9]/);
    expect(text).toMatch(/pitlane_active_holds\{kind="ticket"\} \d+/);
    expect(text).toContain("pitlane_job_queue_depth");
    expect(text).toMatch(/pitlane_kept_sign_ins \d+/);
    expect(text).toMatch(/pitlane_kept_sign_in_ratio (0|0\.\d+|1)\n/);
  });
});
