/**
 * The layers' rules (docs/architecture.md), checked in `npm run lint`. A broken rule fails the
 * lint with the rule's name and the import that broke it.
 */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "A module never imports itself back through another: each layer depends one way.",
      from: {},
      to: { circular: true },
    },
    {
      name: "adapters-know-no-features",
      severity: "error",
      comment:
        "app/server holds adapters (database, auth, mail, jobs…). What they need from an area is handed " +
        "to them by the composition root (app/app.server.ts), never imported.",
      from: { path: "^app/server/" },
      to: { path: "^app/(features|demo|routes|web)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "ui-knows-no-features",
      severity: "error",
      comment: "app/ui is the shared kit: it takes what it shows as props and knows no area.",
      from: { path: "^app/ui/" },
      to: { path: "^app/(features|demo|routes|server|web)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "features-know-no-router",
      severity: "error",
      comment:
        "Business rules take plain values and return results; routes turn them into responses. Only an " +
        "area's components (*.tsx, for Link and Form) use React Router; request glue that several route " +
        "folders share lives in app/web.",
      from: { path: "^app/features/", pathNot: "\\.tsx$" },
      to: { path: "^node_modules/(react-router|@react-router)/" },
    },
    {
      name: "features-know-no-routes",
      severity: "error",
      comment: "Areas never reach into route modules, the routes' request glue or the composition root.",
      from: { path: "^app/(features|demo)/" },
      to: { path: "^app/(routes|web)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "web-knows-no-routes",
      severity: "error",
      comment:
        "app/web is the request glue every route may use (who a request is about, cookies, route steps); " +
        "it never imports a route module, the demo content or the composition root.",
      from: { path: "^app/web/" },
      to: { path: "^app/(routes|demo)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "routes-query-no-database",
      severity: "error",
      comment:
        "Routes (and their request glue) read and write through an area's functions, which take the database " +
        "and plain values: never the schema or Drizzle, not even for a type. Tests may set up rows directly.",
      from: { path: "^app/(routes|web)/", pathNot: "\\.test(-support)?\\.tsx?$" },
      to: { path: "^db/|^node_modules/drizzle-orm/" },
    },
    {
      name: "route-folders-stay-apart",
      severity: "error",
      comment:
        "A route folder (app/routes/<folder>/) never imports another folder's modules: what several share " +
        "goes to app/web (request glue) or an area (rules, queries, components). Tests that walk a journey " +
        "across pages may import the pages they walk.",
      from: { path: "^app/routes/([^/]+)/", pathNot: "\\.test(-support)?\\.tsx?$" },
      to: { path: "^app/routes/", pathNot: "^app/routes/$1/" },
    },
    {
      name: "production-knows-no-fixtures",
      severity: "error",
      comment:
        "app/fixtures holds the end-to-end suite's fixture pages, built in only when ENABLE_TEST_FIXTURES " +
        "is set for the build: nothing else the site runs imports them, so a production build leaves them out.",
      from: { path: "^app/", pathNot: "^app/fixtures/|^app/routes\\.ts$|\\.test(-support)?\\.tsx?$" },
      to: { path: "^app/fixtures/" },
    },
    {
      name: "production-knows-no-test-helpers",
      severity: "error",
      comment:
        "Test helpers end in .test-support.ts and serve tests only: code the site runs (end-to-end " +
        "fixtures included) never imports them.",
      from: { pathNot: "\\.test(-support)?\\.tsx?$|^tests/|^bench/" },
      to: { path: "\\.test-support\\.tsx?$" },
    },
    {
      name: "commerce-core-knows-no-kind",
      severity: "error",
      comment:
        "The commerce core (app/features/commerce) runs checkout, settlement and refunds for every kind of " +
        "item through the ItemKind interface: it never imports a kind's area. The kinds import the core, and " +
        'app/features/selling hands it their list (docs/architecture.md, "Kinds of item"). Shipping, vouchers ' +
        "and account credit apply to an order whatever its kinds, so the core uses them.",
      from: { path: "^app/features/commerce/", pathNot: "\\.test(-support)?\\.tsx?$" },
      to: {
        path: "^app/features/",
        pathNot: "^app/features/(commerce/|shipping/|audit/|vouchers/|credit/)",
      },
    },
    {
      name: "database-schema-knows-no-app",
      severity: "error",
      comment: "db/ holds the schema and migrations; it is imported by the app, never the reverse.",
      from: { path: "^db/" },
      to: { path: "^app/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|data|test-results|\\.react-router)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
