#!/usr/bin/env node
// `npm start`: builds once when no production build exists, then serves it. Migrations and the first-user
// bootstrap run inside the server at start-up (instrumentation.ts), because with the embedded database the
// server process must be the only one that opens the data folder.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("[flowbench] no production build found: running `next build` once (about a minute)...");
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [nextBin, "start", "-p", port], { cwd: root, stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
