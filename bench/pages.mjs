// The public pages every benchmark measures: one entry per page, in the order they are reported.
//
// `path` is the URL fetched by the throughput and Lighthouse scripts; `routeId` is the id of the
// route that renders it (see the `routes` export of build/server/index.js, or the `id` option in
// app/routes.ts), used by first-load-js.mjs to add up the page's JavaScript. A page with a
// dynamic segment lists one concrete URL that exists in the demo content.
export const PUBLIC_PAGES = [
  { path: "/", routeId: "routes/site/home" },
  { path: "/events", routeId: "routes/events/list" },
  // The demo content's upcoming multi-day headline event.
  { path: "/events/silverstone-festival-of-speed", routeId: "routes/events/detail" },
  { path: "/giveaways", routeId: "routes/giveaways/list" },
  // The demo content's live competition, with bundles, instant wins and its gallery.
  { path: "/giveaways/win-a-mk2-golf-gti", routeId: "routes/giveaways/detail" },
  { path: "/responsible-play", routeId: "routes/site/responsible-play" },
  { path: "/community", routeId: "routes/community/list" },
  // The demo 1963 Jaguar E-Type, whose id is the same on every install (demoCarId).
  { path: "/community/cars/94b25da9-6704-5b1e-baa5-e3cabeffa6ca", routeId: "routes/community/car" },
  { path: "/shop", routeId: "routes/shop/list" },
  // The demo club T-shirt: two options (size and colour), a gallery and a size guide.
  { path: "/shop/club-tee", routeId: "routes/shop/product" },
  // Membership tiers and their key terms: plain HTML and CSS, no scripts.
  { path: "/membership", routeId: "routes/membership/tiers" },
  { path: "/blog", routeId: "routes/blog/list" },
  // The demo night-meet report: headings, a table, a quote and links in its body.
  { path: "/blog/night-meet-at-the-old-airfield", routeId: "routes/blog/article" },
  { path: "/privacy", routeId: "privacy" },
  { path: "/terms", routeId: "terms" },
  { path: "/signUp", routeId: "routes/accounts/sign-up" },
  { path: "/createAnAccount", routeId: "routes/accounts/create-account" },
  { path: "/login", routeId: "routes/accounts/login" },
  { path: "/forgotPassword", routeId: "routes/accounts/forgot-password" },
];
