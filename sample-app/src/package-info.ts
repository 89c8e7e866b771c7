import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// src/ (tsx) and dist/ (built image) both sit one level below the package folder,
// so the same relative URL finds package.json and the default data folder in both layouts.
export const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

export const SERVICE_NAME = "meal-scenes";

export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
