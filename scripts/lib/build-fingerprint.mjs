// What `npm start` serves must be the code in the tree: a fingerprint of every source file the production build is
// made from, written next to the build (`<distDir>/flowbench-source.sha256`) by `npm run build` and by `npm start`'s
// own build. `npm start` rebuilds when the fingerprint is missing or differs (after `git pull`, an edit, a
// dependency change), so it never serves an older build. Content hashes, not mtimes: a fresh clone or a checkout of
// the same commit is current without a rebuild.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Folders and files the build reads (tests, READMEs and the sample app are not part of it). */
export const SOURCE_ROOTS = ["app", "components", "lib", "server", "prisma", "public", "sdk/typescript"];
export const SOURCE_FILES = [
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "package.json",
  "package-lock.json",
];
const SKIP = /(^|\/)(node_modules|generated|\.next)(\/|$)|\.test\.tsx?$|(^|\/)(README\.md|testing\.ts|test-db\.ts)$/;

function walk(root, rel, out) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) walk(root, rel ? `${rel}/${name}` : name, out);
  } else if (stat.isFile() && !SKIP.test(rel)) out.push(rel);
}

/** sha256 over the sorted list of source files and their contents. */
export function sourceFingerprint(root) {
  const files = [];
  for (const r of SOURCE_ROOTS) walk(root, r, files);
  for (const f of SOURCE_FILES) if (fs.existsSync(path.join(root, f))) files.push(f);
  files.sort();
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(f).update("\0");
    hash.update(fs.readFileSync(path.join(root, f))).update("\0");
  }
  return hash.digest("hex");
}

const stampPath = (distDir) => path.join(distDir, "flowbench-source.sha256");

export function writeBuildFingerprint(root, distDir, fingerprint = sourceFingerprint(root)) {
  fs.writeFileSync(stampPath(distDir), `${fingerprint}\n`);
}

/** "missing" (no build), "stale" (built from other sources, or by a build that wrote no fingerprint) or "current". */
export function buildState(root, distDir) {
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) return "missing";
  let stamp = "";
  try {
    stamp = fs.readFileSync(stampPath(distDir), "utf8").trim();
  } catch {
    return "stale";
  }
  return stamp === sourceFingerprint(root) ? "current" : "stale";
}

// `node scripts/lib/build-fingerprint.mjs --write`: after `next build` (npm run build).
if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(import.meta.filename) &&
  process.argv.includes("--write")
) {
  const root = path.resolve(import.meta.dirname, "..", "..");
  writeBuildFingerprint(root, path.join(root, process.env.NEXT_DIST_DIR || ".next"));
}
