import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";
import { isOn } from "./server/flag";

// The URL map of the pages and files the router answers. Established addresses keep their exact
// paths, camelCase included (`/signUp`, `/indexBackup`): links and bookmarks to them keep working.
//
// Served outside the router, by server.ts with the steps in app/server/http/ (same origin):
// - POST /api/webhooks/stripe, payment notifications: answered before Express and the page cache;
//   other methods and compressed bodies by an Express route before the Origin check
//   (payment-notifications.server.ts, ADR 0018)
// - /healthz and /readyz: health.server.ts; while the server stops, /readyz answers "stopping"
//   before Express (app/server/graceful-shutdown.server.ts)
// - /metrics, with its token: metrics.server.ts behind metrics-access.server.ts
// - /assets/*, hashed for a year, and the built public files (/sw.js, /favicon.svg, /icons/*,
//   splash screens): static-files.server.ts in production, Vite in development
// Pages for visitors without a session may be answered from memory before Express
// (app/server/page-cache.server.ts). Media (/media/*) is a route, below.

/**
 * The end-to-end suite's fixtures (app/fixtures): built in only when ENABLE_TEST_FIXTURES is set
 * for the build, as `npm test` does; a production build leaves the whole folder out. Even when
 * built in, they answer only while the server runs with ENABLE_TEST_FIXTURES on a local address.
 */
const testFixtures = isOn(process.env.ENABLE_TEST_FIXTURES)
  ? [
      route("dev/fixtures/:fixture", "fixtures/fixture-route.tsx"),
      route("dev/gate-fixture", "fixtures/gate-fixture.ts"),
    ]
  : [];

export default [
  route("indexBackup", "routes/site/index-backup.ts"),

  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),

    // Accounts (established camelCase paths)
    route("signUp", "routes/accounts/sign-up.tsx"),
    route("createAnAccount", "routes/accounts/create-account.tsx"),
    route("login", "routes/accounts/login.tsx"),
    route("login/code", "routes/accounts/login-code.tsx"),
    route("forgotPassword", "routes/accounts/forgot-password.tsx"),
    route("changePassword", "routes/accounts/change-password.tsx"),
    route("newProfile", "routes/accounts/new-profile.tsx"),
    route("verifyPhone", "routes/accounts/verify-phone.tsx"),

    route("events", "routes/events/list.tsx"),
    route("events/:id", "routes/events/detail.tsx"),
    route("events/:id/queue", "routes/events/queue.tsx"),
    route("events/:id/vote/:voteKey", "routes/events/vote.tsx"),
    route("events/:id/results", "routes/events/results.tsx"),
    route("cart", "routes/cart/cart.tsx"),

    route("giveaways", "routes/giveaways/list.tsx"),
    route("giveaways/:slug", "routes/giveaways/detail.tsx"),
    route("giveaways/:slug/verify", "routes/giveaways/verify.tsx"),
    route("giveaways/:slug/entries", "routes/giveaways/entries.tsx"),

    route("community", "routes/community/list.tsx"),
    route("community/cars/:carId", "routes/community/car.tsx"),
    route("community/:handle", "routes/community/profile.tsx"),

    route("shop", "routes/shop/list.tsx"),
    route("shop/:slug", "routes/shop/product.tsx"),

    route("membership", "routes/membership/tiers.tsx"),
    route("membership/renewal/:token", "routes/membership/renewal-link.tsx"),
    route("tickets/accept/:token", "routes/events/accept-transfer.tsx"),

    route("blog", "routes/blog/list.tsx"),
    route("blog/:slug", "routes/blog/article.tsx"),

    route("privacy", "routes/site/legal-page.tsx", { id: "privacy" }),
    route("terms", "routes/site/legal-page.tsx", { id: "terms" }),
    route("responsible-play", "routes/site/responsible-play.tsx"),
    route("offline", "routes/site/offline.tsx"),

    // Payment: the provider sends the buyer back to /return; the test checkout stands in for Stripe.
    route("return", "routes/checkout/return.tsx"),
    route("checkout/test/:orderId", "routes/checkout/sandbox-checkout.tsx"),

    route("success", "routes/checkout/success.tsx"),
    ...testFixtures,
    route("*", "routes/site/not-found.tsx"),
  ]),

  // Organizer dashboard: its own frame, outside the public site's navigation and footer.
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/overview.tsx"),
      route("members", "routes/admin/members.tsx"),
      route("events", "routes/admin/events/list.tsx"),
      route("events/new", "routes/admin/events/new.tsx"),
      route("events/:eventId", "routes/admin/events/event.tsx", [
        index("routes/admin/events/details.tsx"),
        route("cover", "routes/admin/events/cover.tsx"),
        route("tickets", "routes/admin/events/tickets.tsx"),
        route("checkin", "routes/admin/events/checkin.tsx"),
        route("applications", "routes/admin/events/applications.tsx"),
        route("queue", "routes/admin/events/queue.tsx"),
        route("waiting-list", "routes/admin/events/waiting-list.tsx"),
        route("passing-on", "routes/admin/events/passing-on.tsx"),
        route("show", "routes/admin/events/show.tsx"),
      ]),
      route("check-in", "routes/admin/check-in.tsx"),
      route("applications", "routes/admin/applications.tsx"),
      route("orders", "routes/admin/orders/list.tsx"),
      route("orders/:orderId", "routes/admin/orders/order.tsx"),
      route("draws", "routes/admin/draws/list.tsx"),
      route("draws/new", "routes/admin/draws/new.tsx"),
      route("draws/:drawId", "routes/admin/draws/draw.tsx", [
        index("routes/admin/draws/details.tsx"),
        route("images", "routes/admin/draws/images.tsx"),
        route("entries", "routes/admin/draws/entries.tsx"),
      ]),
      route("moderation", "routes/admin/moderation/queue.tsx"),
      route("shop", "routes/admin/shop/list.tsx"),
      route("shop/new", "routes/admin/shop/new.tsx"),
      route("shop/settings", "routes/admin/shop/settings.tsx"),
      route("shop/:productId", "routes/admin/shop/product.tsx"),
      route("shop/:productId/images", "routes/admin/shop/images.tsx"),
      route("shop/:productId/waiting-list", "routes/admin/shop/waiting-list.tsx"),
      route("fulfilment", "routes/admin/fulfilment/list.tsx"),
      route("articles", "routes/admin/articles/list.tsx"),
      route("articles/new", "routes/admin/articles/new.tsx"),
      route("articles/editor", "routes/admin/articles/editor.ts"),
      route("articles/:articleId", "routes/admin/articles/edit.tsx"),
      route("partners", "routes/admin/partners.tsx"),
      route("membership", "routes/admin/membership/list.tsx"),
      route("membership/new", "routes/admin/membership/new.tsx"),
      route("membership/members", "routes/admin/membership/members.tsx"),
      route("membership/members/:membershipId", "routes/admin/membership/member.tsx"),
      route("membership/import", "routes/admin/membership/import.tsx"),
      route("membership/:tierId", "routes/admin/membership/tier.tsx"),
      route("vouchers", "routes/admin/vouchers/list.tsx"),
      route("vouchers/new", "routes/admin/vouchers/new.tsx"),
      route("vouchers/:voucherId", "routes/admin/vouchers/voucher.tsx"),
    ]),
    route("fulfilment/packing-list", "routes/admin/fulfilment/packing-list.tsx"),
    route("events/:eventId/attendees.csv", "routes/admin/events/attendees-csv.ts"),
    route("events/:eventId/checkin/admissions.json", "routes/admin/events/checkin-admissions.ts"),
    route("events/:eventId/checkin/sync", "routes/admin/events/checkin-sync.ts"),
    route("events/:eventId/checkin/scan", "routes/admin/events/checkin-scan.ts"),
    route("events/:eventId/show/cards", "routes/admin/events/show-cards.tsx"),
    route("draws/:drawId/entries.csv", "routes/admin/draws/entries-csv.ts"),
    route("membership/members.csv", "routes/admin/membership/members-csv.ts"),
    route("vouchers/batches/:batchId/codes.csv", "routes/admin/vouchers/batch-csv.ts"),
  ]),

  // The members' area: signed in and onboarded (garage, tickets and orders join it later).
  layout("routes/members/layout.tsx", [
    route("members", "routes/members/overview.tsx"),
    route("settings", "routes/members/settings.tsx"),
    route("settings/twoFactor", "routes/members/two-factor.tsx"),
    route("settings/responsiblePlay", "routes/members/responsible-play.tsx"),
    route("members/events", "routes/members/events.tsx"),
    route("members/garage", "routes/members/garage/list.tsx"),
    route("members/newGarage", "routes/members/garage/new.tsx"),
    route("members/garage/:carId", "routes/members/garage/edit.tsx"),
    route("members/membership", "routes/members/membership.tsx"),
    route("members/card", "routes/members/card.tsx"),
    route("members/gate/:eventId", "routes/members/gate.tsx"),
    route("members/judging/:eventId", "routes/members/judging.tsx"),
    route("transactions", "routes/members/transactions.tsx"),
    route("transactions/:orderId", "routes/members/receipt.tsx"),
  ]),
  route("settings/export.json", "routes/members/settings-export.ts"),
  route("members/offers/:entryId", "routes/members/offer.ts"),
  route("members/tickets/:ticketId/:wallet", "routes/members/ticket-wallet.ts"),
  route("members/card/:wallet", "routes/members/card-wallet.ts"),
  route("members/garage/:carId/photos", "routes/members/garage/photos.ts"),
  route("members/judging/:eventId/sync", "routes/members/judging-sync.ts"),

  route("logout", "routes/accounts/logout.ts"),
  route("auth/social", "routes/accounts/social.ts"),
  route("api/auth/*", "routes/api/auth.ts"),

  route("events/:id/calendar.ics", "routes/events/calendar.ts"),
  route("events.ics", "routes/events/feed.ts"),
  route("members/calendar/:file", "routes/members/calendar-feed.ts"),
  route("events/:id/results/ballots.txt", "routes/events/results-ballots.ts"),
  route("events/:id/results/awards/:award", "routes/events/award-image.ts"),
  route("giveaways/:slug/verify.json", "routes/giveaways/verify-json.ts"),
  route("blog/feed.xml", "routes/blog/feed.ts"),
  route("manifest.webmanifest", "routes/system/manifest.ts"),
  route("robots.txt", "routes/system/robots.ts"),
  route("sitemap.xml", "routes/system/sitemap.ts"),
  route("media/*", "routes/system/media.ts"),
  route("dev/mailbox", "routes/dev/mailbox.tsx"),
  route("dev/mailbox.json", "routes/dev/mailbox-json.ts"),
] satisfies RouteConfig;
