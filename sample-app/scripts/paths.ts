// Locations shared by the acceptance script and the tests that start the real entry point.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SAMPLE_APP_DIR = fileURLToPath(new URL("..", import.meta.url));
export const MAIN_TS = path.join(SAMPLE_APP_DIR, "src", "main.ts");

// tsx's CLI is not in its package exports; resolve the package, then the bin it declares, and
// run it with this Node binary so no shell or PATH lookup is involved.
const tsxPackageJson = createRequire(import.meta.url).resolve("tsx/package.json");
export const TSX_CLI = path.join(path.dirname(tsxPackageJson), "dist", "cli.mjs");
