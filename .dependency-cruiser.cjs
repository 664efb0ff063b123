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
      to: { path: "^app/(features|demo|routes)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "ui-knows-no-features",
      severity: "error",
      comment: "app/ui is the shared kit: it takes what it shows as props and knows no area.",
      from: { path: "^app/ui/" },
      to: { path: "^app/(features|demo|routes|server)/|^app/app\\.server\\.ts$" },
    },
    {
      name: "features-know-no-router",
      severity: "error",
      comment:
        "Business rules take plain values and return results; routes turn them into responses. Only an " +
        "area's components (*.tsx, for Link and Form) use React Router; form glue that several routes " +
        "share lives beside those routes in app/routes.",
      from: { path: "^app/features/", pathNot: "\\.tsx$" },
      to: { path: "^node_modules/(react-router|@react-router)/" },
    },
    {
      name: "features-know-no-routes",
      severity: "error",
      comment: "Areas never reach into route modules or the composition root.",
      from: { path: "^app/(features|demo)/" },
      to: { path: "^app/routes/|^app/app\\.server\\.ts$" },
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
