import path from "node:path";
import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
  // The service worker precaches the finished client build, so it is made last. Imported here
  // so that dev and typegen never load workbox-build.
  async buildEnd({ reactRouterConfig }) {
    const { buildServiceWorker } = await import("./scripts/build-service-worker");
    await buildServiceWorker(path.join(reactRouterConfig.buildDirectory, "client"));
  },
} satisfies Config;
