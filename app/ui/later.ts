import { type ComponentType, lazy } from "react";

/**
 * A component the server renders in place with the rest of the page, whose code the browser
 * loads after the page's own: React keeps the server's HTML until the chunk arrives, then
 * hydrates it (render it inside a `Suspense` boundary). The server passes the module it has
 * already imported (a top-level `await` under `import.meta.env.SSR`), so its render never waits.
 *
 * For sections a first visit does not need to run at once: below the fold, or shown to few.
 */
export function later<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
  loaded?: Module,
): Module[Name] {
  if (loaded) return loaded[name];
  return lazy(async () => ({ default: (await load())[name] as ComponentType<object> })) as unknown as Module[Name];
}
