import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult, type IForbiddenRuleType } from "dependency-cruiser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaCycles } from "../scripts/area-cycles";

// The layers' rules (.dependency-cruiser.cjs, run by `npm run lint`) against a small made-up app
// in a temporary folder: each import below either breaks exactly the rule named beside it, or
// none. The real configuration is used, so a rule loosened by mistake fails here.

const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

/** Each file of the made-up app, and what it imports. */
const FILES: Record<string, string> = {
  "db/schema.ts": "export const events = {}; export type EventRow = { id: string };",
  "node_modules/drizzle-orm/package.json": JSON.stringify({ name: "drizzle-orm", main: "index.js" }),
  "node_modules/drizzle-orm/index.js": "export const eq = () => true;",
  "app/features/events/queries.server.ts": 'import { events } from "../../../db/schema";\nexport const list = events;',
  "app/web/cart-step.server.ts": "export const cartStep = 1;",
  "app/routes/shop/list.tsx": 'import { list } from "../../features/events/queries.server";\nexport default list;',
  "app/routes/shop/product.tsx": 'import { cartStep } from "../../web/cart-step.server";\nexport default cartStep;',
  // Breaks routes-query-no-database: the schema, a type only, and Drizzle itself.
  "app/routes/events/detail.tsx": 'import { events } from "../../../db/schema";\nexport default events;',
  "app/routes/events/types.ts": 'import type { EventRow } from "../../../db/schema";\nexport type Row = EventRow;',
  "app/routes/events/query.server.ts": 'import { eq } from "drizzle-orm";\nexport const where = eq;',
  "app/web/viewer.server.ts": 'import { events } from "../../db/schema";\nexport const viewer = events;',
  // A test may set up rows directly.
  "app/routes/events/detail.test.ts": 'import { events } from "../../../db/schema";\nexport const rows = events;',
  // Breaks route-folders-stay-apart: one route folder reaching into another.
  "app/routes/cart/cart.tsx": 'import list from "../shop/list";\nexport default list;',
  "app/routes/admin/orders/refund-forms.server.ts": "export const refund = 1;",
  // Inside one route folder, its subfolders may share.
  "app/routes/admin/events/details.tsx":
    'import { refund } from "../orders/refund-forms.server";\nexport default refund;',
  // A test walking a journey across pages may import them.
  "app/routes/admin/events/journey.test.ts": 'import list from "../../shop/list";\nexport const page = list;',
  // Breaks web-knows-no-routes.
  "app/web/account-call.server.ts": 'import product from "../routes/shop/product";\nexport const call = product;',
  // Breaks features-know-no-routes: an area reaching into the routes' request glue.
  "app/features/cart/cart.server.ts":
    'import { cartStep } from "../../web/cart-step.server";\nexport const cart = cartStep;',
  // Breaks production-knows-no-test-helpers; a test may use the helper.
  "app/features/cart/members.test-support.ts": "export const member = 1;",
  "app/features/cart/fixture.server.ts":
    'import { member } from "./members.test-support";\nexport const fixture = member;',
  "app/features/cart/cart.test.ts": 'import { member } from "./members.test-support";\nexport const used = member;',
  // Two areas that import each other through different modules (no module cycle): an area cycle.
  "app/features/alpha/rules.ts": 'import { price } from "../beta/prices";\nexport const rule = price;',
  "app/features/alpha/names.ts": "export const name = 1;",
  "app/features/beta/prices.ts": 'import { name } from "../alpha/names";\nexport const price = name;',
  // A test may import across areas either way.
  "app/features/beta/prices.test.ts": 'import { rule } from "../alpha/rules";\nexport const checked = rule;',
  // Breaks production-knows-no-fixtures; the fixtures may use the areas.
  "app/fixtures/paid-ticket.server.ts":
    'import { list } from "../features/events/queries.server";\nexport const paidTicket = list;',
  "app/features/events/demo.server.ts":
    'import { paidTicket } from "../../fixtures/paid-ticket.server";\nexport const demo = paidTicket;',
  // Breaks commerce-core-knows-no-kind; the core may use the audit log, and a kind the core.
  "app/features/audit/audit.server.ts": "export const history = 1;",
  "app/features/tickets/ticket-kind.server.ts":
    'import { history } from "../commerce/refund.server";\nexport const ticketKind = history;',
  "app/features/commerce/refund.server.ts":
    'import { history } from "../audit/audit.server";\nexport const refund = history;',
  "app/features/commerce/checkout.server.ts":
    'import { ticketKind } from "../tickets/ticket-kind.server";\nexport const checkout = ticketKind;',
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "pitlane-layers-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  // The made-up app has no tsconfig of its own: its imports are all relative.
  const { tsConfig: _tsConfig, ...options } = config.options;
  const answer = await cruise(["app", "db"], {
    ...options,
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  result = answer.output as ICruiseResult;
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The broken rules, as "rule: from -> to". */
function violations() {
  return result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe("the layers' rules", () => {
  it("keep routes and their request glue away from the database schema and Drizzle, types included", () => {
    expect(violations()).toEqual(
      expect.arrayContaining([
        "routes-query-no-database: app/routes/events/detail.tsx -> db/schema.ts",
        "routes-query-no-database: app/routes/events/types.ts -> db/schema.ts",
        "routes-query-no-database: app/routes/events/query.server.ts -> node_modules/drizzle-orm/index.js",
        "routes-query-no-database: app/web/viewer.server.ts -> db/schema.ts",
      ]),
    );
  });

  it("keep each route folder to itself", () => {
    expect(violations()).toContain("route-folders-stay-apart: app/routes/cart/cart.tsx -> app/routes/shop/list.tsx");
  });

  it("keep the request glue and the areas out of the routes", () => {
    expect(violations()).toEqual(
      expect.arrayContaining([
        "web-knows-no-routes: app/web/account-call.server.ts -> app/routes/shop/product.tsx",
        "features-know-no-routes: app/features/cart/cart.server.ts -> app/web/cart-step.server.ts",
      ]),
    );
  });

  it("keep test helpers out of the code the site runs", () => {
    expect(violations()).toContain(
      "production-knows-no-test-helpers: app/features/cart/fixture.server.ts -> app/features/cart/members.test-support.ts",
    );
  });

  it("keep the end-to-end fixtures out of everything else the site runs", () => {
    expect(violations()).toContain(
      "production-knows-no-fixtures: app/features/events/demo.server.ts -> app/fixtures/paid-ticket.server.ts",
    );
  });

  it("keep the commerce core from naming any kind of item", () => {
    expect(violations()).toContain(
      "commerce-core-knows-no-kind: app/features/commerce/checkout.server.ts -> app/features/tickets/ticket-kind.server.ts",
    );
  });

  it("find areas that import each other, and only those", () => {
    const cycles = areaCycles(result.modules);
    // The core naming a kind that imports the core is an area cycle as well as its own rule's break.
    expect(cycles.map((cycle) => cycle.areas.join(" ")).sort()).toEqual(["alpha beta", "commerce tickets"]);
    expect(cycles.find((cycle) => cycle.areas.includes("alpha"))!.imports.sort()).toEqual([
      "app/features/alpha/rules.ts -> app/features/beta/prices.ts",
      "app/features/beta/prices.ts -> app/features/alpha/names.ts",
    ]);
  });

  it("let through what is allowed: areas on the schema, routes on areas and app/web, tests, one folder's subfolders", () => {
    expect(violations()).toHaveLength(10);
    const from = new Set(result.summary.violations.map((violation) => violation.from));
    for (const allowed of [
      "app/features/events/queries.server.ts",
      "app/routes/shop/list.tsx",
      "app/routes/shop/product.tsx",
      "app/routes/events/detail.test.ts",
      "app/routes/admin/events/details.tsx",
      "app/routes/admin/events/journey.test.ts",
      "app/features/cart/cart.test.ts",
      "app/features/commerce/refund.server.ts",
      "app/features/tickets/ticket-kind.server.ts",
      "app/fixtures/paid-ticket.server.ts",
    ]) {
      expect(from).not.toContain(allowed);
    }
  });
});
