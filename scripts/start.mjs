#!/usr/bin/env node
// `npm start`: builds when there is no production build or when it was made from other sources than the tree's
// (build-fingerprint.mjs), then serves it. Migrations and the first-user bootstrap run inside the server at start-up
// (instrumentation.ts), because with the embedded database the server process must be the only one that opens the
// data folder.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { buildState, sourceFingerprint, writeBuildFingerprint } from "./lib/build-fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

const distDir = path.join(root, process.env.NEXT_DIST_DIR || ".next");
const state = buildState(root, distDir);
if (state !== "current") {
  console.log(
    state === "missing"
      ? "[flowbench] no production build found: running `next build` once (about a minute)..."
      : "[flowbench] the sources changed since the last build: running `next build` (about a minute)...",
  );
  const fingerprint = sourceFingerprint(root); // of the sources this build is made from
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildFingerprint(root, distDir, fingerprint);
}

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [nextBin, "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
