import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Client chunks. The browser fetches every chunk of a page before it runs any, and on a slow
// mobile network each file costs a round trip: a handful of files beat two dozen small ones
// (most were single lucide icons), as long as no page loads code it does not use.

const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const LUCIDE_INDEX = /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;

/**
 * Chunks made of a few modules and everything they import, however deep, in this order (a
 * module goes to the first that reaches it): `shell` is what every public page loads (the client
 * entry, the root route and the site's layout, less the route modules themselves, and the memo
 * of formatted text every page's prices and dates go through). The rest is split by the bundler
 * by the pages that use it: the event tile is on the home page and the events list, the event
 * cover and the shared kit (prices, badges, cards) on those and the giveaways, shop and blog
 * pages too, which a chunk of the event tile with its helpers would load in full.
 */
const CHUNKS = [
  {
    name: "shell",
    roots: ["app/entry.client.tsx", "app/root.tsx", "app/routes/site/layout.tsx", "app/ui/intl-memo.ts"],
    own: ["app/ui/intl-memo.ts"],
  },
].map((chunk) => ({
  ...chunk,
  roots: chunk.roots.map((file) => path.resolve(file)),
  own: chunk.own.map((file) => path.resolve(file)),
}));

type ModuleGraph = { getModuleInfo(id: string): { code: string | null; importedIds: readonly string[] } | null };

/** lucide-react's export names, each to the file of its icon (`X` → …/icons/x.mjs), from its index. */
function lucideIconFiles(index: string, code: string) {
  const files = new Map<string, string>();
  for (const [, names = "", file = ""] of code.matchAll(/export \{([^}]+)\} from '(\.\/icons\/[^']+)'/g)) {
    const resolved = path.resolve(path.dirname(index), file);
    for (const [, name = ""] of names.matchAll(/default as (\w+)/g)) files.set(name, resolved);
  }
  return files;
}

/**
 * Which chunk of CHUNKS each module goes to. lucide-react's index imports every icon, so it is
 * not followed: the icons a module names in its import from "lucide-react" are.
 */
function assignChunks(graph: ModuleGraph) {
  const chunkOf = new Map<string, string>();
  let icons = new Map<string, string>();
  for (const chunk of CHUNKS) {
    const seen = new Set<string>();
    const stack = [...chunk.roots];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id) || FRAMEWORK.test(id)) continue;
      seen.add(id);
      // A route module that is a root stays a chunk of its own; the chunk's `own` roots join it.
      if (!chunkOf.has(id) && (chunk.own.includes(id) || !chunk.roots.includes(id))) chunkOf.set(id, chunk.name);
      const info = graph.getModuleInfo(id);
      for (const imported of info?.importedIds ?? []) {
        if (!LUCIDE_INDEX.test(imported)) stack.push(imported);
        else if (!icons.size) icons = lucideIconFiles(imported, graph.getModuleInfo(imported)?.code ?? "");
      }
      for (const [, names = ""] of info?.code?.matchAll(/import\s*\{([^}]+)\}\s*from\s*["']lucide-react["']/g) ?? []) {
        for (const name of names.split(",").map((part) => part.trim().split(/\s+as\s+/)[0] ?? "")) {
          const file = icons.get(name);
          if (file) stack.push(file);
        }
      }
    }
  }
  return chunkOf;
}

const assigned = new WeakMap<ModuleGraph, Map<string, string>>();
function chunkName(id: string, graph: ModuleGraph) {
  if (!assigned.has(graph)) assigned.set(graph, assignChunks(graph));
  return assigned.get(graph)?.get(id) ?? null;
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { assetsInlineLimit: 0 },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // React, React DOM and React Router load on every page together: one file
                // compresses better than three and saves a request.
                { name: "framework", test: FRAMEWORK, priority: CHUNKS.length + 1 },
                ...CHUNKS.map((chunk, index) => ({
                  name: (id: string, graph: ModuleGraph) => (chunkName(id, graph) === chunk.name ? chunk.name : null),
                  debugName: chunk.name,
                  // A module, and what it imports, goes to the first chunk that claims it.
                  priority: CHUNKS.length - index,
                })),
              ],
            },
          },
        },
      },
    },
  },
});
