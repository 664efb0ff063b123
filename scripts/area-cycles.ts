// `npm run lint`'s check that no two areas of app/features import each other, directly or through
// other areas: each area depends one way, so an area can be read, tested and changed knowing only
// the areas below it. dependency-cruiser finds cycles between modules; this finds them between the
// areas its graph collapses into. Tests and test helpers are left out: a test may set up rows of
// any area.
import { createRequire } from "node:module";
import path from "node:path";
import { cruise, type ICruiseResult, type IModule } from "dependency-cruiser";

const AREA = /^app\/features\/([^/]+)\//;
const TEST = /\.test(-support)?\.tsx?$/;

/** One import that makes an area depend on another, as an example of the edge. */
type Edge = { to: string; from: string; via: string };

/**
 * The groups of areas that import each other (each group is a cycle, or several sharing areas),
 * with one import for each edge inside the group; empty when the areas depend one way.
 */
export function areaCycles(modules: readonly Pick<IModule, "source" | "dependencies">[]) {
  const edges = new Map<string, Map<string, Edge>>();
  for (const module of modules) {
    const from = AREA.exec(module.source)?.[1];
    if (!from || TEST.test(module.source)) continue;
    const out = edges.get(from) ?? new Map<string, Edge>();
    edges.set(from, out);
    for (const dependency of module.dependencies) {
      const to = AREA.exec(dependency.resolved)?.[1];
      if (to && to !== from && !out.has(to)) out.set(to, { to, from: module.source, via: dependency.resolved });
    }
  }
  return stronglyConnected(edges).map((areas) => ({
    areas: areas.sort(),
    imports: areas.flatMap((area) =>
      [...(edges.get(area)?.values() ?? [])]
        .filter((edge) => areas.includes(edge.to))
        .map((e) => `${e.from} -> ${e.via}`),
    ),
  }));
}

/** Tarjan's strongly connected components with more than one member. */
function stronglyConnected(edges: Map<string, Map<string, Edge>>) {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (area: string) => {
    index.set(area, next);
    low.set(area, next);
    next += 1;
    stack.push(area);
    onStack.add(area);
    for (const to of edges.get(area)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(area, Math.min(low.get(area)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(area, Math.min(low.get(area)!, index.get(to)!));
      }
    }
    if (low.get(area) !== index.get(area)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== area);
    if (group.length > 1) groups.push(group);
  };
  for (const area of edges.keys()) if (!index.has(area)) visit(area);
  return groups;
}

async function main() {
  const root = path.resolve(import.meta.dirname, "..");
  const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs")) as {
    options: Record<string, unknown>;
  };
  const answer = await cruise(["app/features"], { ...config.options, baseDir: root });
  const cycles = areaCycles((answer.output as ICruiseResult).modules);
  if (cycles.length === 0) {
    console.log("✔ no two areas of app/features import each other");
    return;
  }
  for (const cycle of cycles) {
    console.error(`✖ areas that import each other: ${cycle.areas.join(", ")}`);
    for (const line of cycle.imports) console.error(`    ${line}`);
  }
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
