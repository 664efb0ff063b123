import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [{ find: /^~\//, replacement: fileURLToPath(new URL("./app/", import.meta.url)) }],
  },
  test: {
    include: ["app/**/*.test.ts", "scripts/**/*.test.ts", "tests/load/**/*.test.ts"],
    environment: "node",
    // Forks, not threads: PGlite is a large WebAssembly instance and the lock tests spawn
    // processes; a process per worker keeps memory and file descriptors apart.
    pool: "forks",
    // Each worker holds a database (PGlite or a PostgreSQL pool) for its file: more workers
    // than cores only adds memory and contention.
    maxWorkers: Math.max(1, Math.min(4, availableParallelism())),
    // Migrating once per run, not once per file: each file's database starts as a copy of a
    // migrated template, which keeps set-up short however many files there are.
    globalSetup: ["app/server/db/test-template.ts"],
    // Creating and dropping a database per file takes seconds on a busy CI machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    setupFiles: ["app/server/test-setup.ts"],
    env: {
      // pino writes straight to stdout; keep test output readable unless asked for logs.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      // The suites take no real payments; on PostgreSQL the site needs the choice said out loud.
      PAYMENTS: process.env.PAYMENTS ?? "test",
    },
  },
});
