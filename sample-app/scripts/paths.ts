// Locations shared by the acceptance script and the tests that start the real entry point.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const SAMPLE_APP_DIR = fileURLToPath(new URL("..", import.meta.url));
export const MAIN_TS = path.join(SAMPLE_APP_DIR, "src", "main.ts");

// tsx's package, resolved from here (no shell or PATH lookup); its loader below.
const tsxPackageJson = createRequire(import.meta.url).resolve("tsx/package.json");

/**
 * tsx as a loader of this Node process (`node --import <TSX_LOADER> main.ts`), the way RELEASE.md starts the service:
 * signals reach the service itself. Under tsx's CLI a SIGTERM goes to a wrapper that gives the service 30 ms to say it
 * handles the signal, else kills it with SIGKILL and exits 143: on a loaded machine a clean stop failed that way.
 */
export const TSX_LOADER = pathToFileURL(path.join(path.dirname(tsxPackageJson), "dist", "loader.mjs")).href;
