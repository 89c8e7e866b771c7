import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
const integrationExclude: Record<string, string[]> = {
  pglite: ["tests/integration/multi-instance.test.ts"],
  postgresql: ["tests/integration/sample-gate.test.ts"],
};

export default defineConfig({
  resolve: { alias },
  test: {
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine, where the unit
    // files mostly wait on PGlite, child processes and local servers; two workers take about a quarter off.
    // (The integration project runs its files one at a time regardless: fileParallelism: false.)
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "server/**/*.test.ts",
            "components/**/*.test.{ts,tsx}",
            "lib/**/*.test.ts",
            "sample-app/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          // a hook that opens a database waits for PGlite's WebAssembly to compile: seconds when both workers are busy
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // `npm test` runs the two database legs at once, in two processes (FLOWBENCH_IT_LEG, global-setup.ts): a
          // file that starts servers of its own for one database runs only in that leg's process
          exclude: integrationExclude[process.env.FLOWBENCH_IT_LEG ?? ""] ?? [],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
