#!/usr/bin/env node
// `node scripts/lib/cpu-time.mjs <out-file> <command> [args...]`: runs the command with this process's stdio and
// environment, writes the CPU seconds it used (user + system of it and of every descendant it waited for, Linux's
// /proc/self/stat cutime + cstime) to <out-file>, and exits with its status. scripts/test.mjs runs stages side by side
// and reports each one's CPU time, which /proc/self/stat of one parent cannot tell apart.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const [outFile, cmd, ...args] = process.argv.slice(2);
const r = spawnSync(cmd, args, { stdio: "inherit" });
try {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  fs.writeFileSync(outFile, String((Number(fields[13]) + Number(fields[14])) / 100));
} catch {
  /* not Linux: no CPU figure */
}
if (r.error) console.error(`${cmd}: ${r.error.message}`);
process.exit(r.status ?? 1);
