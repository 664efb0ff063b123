import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installChunkReloadGuard } from "./ui/chunk-reload";
import { registerServiceWorker } from "./ui/service-worker";

installChunkReloadGuard();

// Forms check their fields with Zod in the browser too. Zod probes `new Function` to speed up
// parsing, which the Content-Security-Policy forbids and reports as a violation; jitless mode
// skips the probe. Zod keeps its settings on this global (what `z.config` writes), read at the
// first parse, which always comes after this module has run.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});

registerServiceWorker();
