import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module without types (npm start runs it without a compiler)
import { buildState, sourceFingerprint, writeBuildFingerprint } from "./build-fingerprint.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(): { root: string; dist: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fb-fingerprint-"));
  dirs.push(root);
  fs.mkdirSync(path.join(root, "server"), { recursive: true });
  fs.mkdirSync(path.join(root, "app"), { recursive: true });
  fs.writeFileSync(path.join(root, "server", "a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default function P() { return null; }\n");
  fs.writeFileSync(path.join(root, "package.json"), "{}\n");
  const dist = path.join(root, ".next");
  fs.mkdirSync(dist);
  return { root, dist };
}

describe("npm start serves the code in the tree", () => {
  it("missing without a build, stale without a fingerprint, current after writing one", () => {
    const { root, dist } = tree();
    expect(buildState(root, dist)).toBe("missing");
    fs.writeFileSync(path.join(dist, "BUILD_ID"), "x");
    expect(buildState(root, dist)).toBe("stale"); // a build that wrote no fingerprint (e.g. plain `next build`)
    writeBuildFingerprint(root, dist);
    expect(buildState(root, dist)).toBe("current");
  });

  it("a changed, added or removed source file makes the build stale; tests, READMEs and the build output do not", () => {
    const { root, dist } = tree();
    fs.writeFileSync(path.join(dist, "BUILD_ID"), "x");
    writeBuildFingerprint(root, dist);
    const before = sourceFingerprint(root);
    fs.writeFileSync(path.join(root, "server", "a.test.ts"), "test");
    fs.writeFileSync(path.join(root, "server", "README.md"), "docs");
    fs.writeFileSync(path.join(dist, "other"), "build output");
    expect(sourceFingerprint(root)).toBe(before);
    expect(buildState(root, dist)).toBe("current");
    fs.writeFileSync(path.join(root, "server", "a.ts"), "export const a = 2;\n"); // git pull changed it
    expect(buildState(root, dist)).toBe("stale");
    fs.writeFileSync(path.join(root, "server", "a.ts"), "export const a = 1;\n"); // back: same content, current again
    expect(buildState(root, dist)).toBe("current");
    fs.writeFileSync(path.join(root, "app", "new.tsx"), "x");
    expect(buildState(root, dist)).toBe("stale");
    fs.rmSync(path.join(root, "app", "new.tsx"));
    fs.writeFileSync(path.join(root, "package-lock.json"), "{}");
    expect(buildState(root, dist)).toBe("stale"); // a dependency change
  });
});
