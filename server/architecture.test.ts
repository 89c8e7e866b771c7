import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, cruiseApp, describeViolation, floorDrawing } from "../scripts/lib/architecture";

/**
 * The import rules of ARCHITECTURE.md (.dependency-cruiser.cjs): floors of server/ pointing down only, no cycles,
 * faces that never import each other, test helpers kept out of production code, the UI reaching the server through
 * tRPC. A change that breaks one fails here with the offending import; a new arrow between floors must also be
 * drawn in ARCHITECTURE.md (`npm run architecture -- --write`).
 */
describe("architecture", () => {
  let result: Awaited<ReturnType<typeof cruiseApp>>;
  beforeAll(async () => {
    result = await cruiseApp();
  }, 60_000);

  it("imports point down only, with no cycles and no test helpers in production code; the drawing is current", async () => {
    expect(result.summary.violations.map(describeViolation)).toEqual([]);
    const doc = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
    const drawn = /```mermaid\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(drawn, "ARCHITECTURE.md's floor drawing is out of date: run npm run architecture -- --write").toBe(
      floorDrawing(result),
    );
  }, 60_000);

  it("the evaluation center's sub-folders are floors in the order its README names, and the rule knows them all", () => {
    const config = createRequire(import.meta.url)(path.join(ROOT, ".dependency-cruiser.cjs")) as {
      forbidden: Array<{ name: string }>;
    };
    const ruled = config.forbidden.map((r) => r.name).filter((n) => n.startsWith("eval-floor-"));
    const readme = fs.readFileSync(path.join(ROOT, "server/eval/README.md"), "utf8").replace(/\s+/g, " ");
    const named = /floors, bottom first: ([^.]*)\./
      .exec(readme)?.[1]
      ?.match(/`([a-z-]+)`/g)
      ?.map((s) => s.slice(1, -1));
    expect(ruled.map((n) => n.slice("eval-floor-".length))).toEqual(named);
    const folders = fs
      .readdirSync(path.join(ROOT, "server/eval"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect([...(named ?? [])].sort()).toEqual(folders);
  });

  it("start-up loads only light modules before its probes answer: everything heavy is a dynamic import", () => {
    // what evaluating server/startup.ts loads: its static imports, transitively (type-only imports vanish at run time)
    const bySource = new Map(result.modules.map((m) => [m.source, m]));
    const seen = new Set<string>();
    const stack = ["server/startup.ts"];
    while (stack.length) {
      const source = stack.pop()!;
      if (seen.has(source)) continue;
      seen.add(source);
      for (const d of bySource.get(source)?.dependencies ?? []) {
        if (d.dynamic || d.dependencyTypes.includes("type-only") || !d.resolved.startsWith("server/")) continue;
        stack.push(d.resolved);
      }
    }
    const light =
      /^server\/(startup\.ts|core\/[^/]+\.ts|db\/url\.ts|http\/(startup-probes|methods-guard|path-guard|client-address|front-door|lingering-close)\.ts)$/;
    expect([...seen].filter((s) => !light.test(s))).toEqual([]);
    expect(seen).toContain("server/http/startup-probes.ts");
  });

  it("no tracked file holds a merge's conflict markers (a README once landed with them: Biome reads no Markdown)", () => {
    const found = spawnSync("git", ["grep", "-n", "-I", "-E", "^(<{7}|>{7}) ", "--", "."], {
      cwd: ROOT,
      encoding: "utf8",
    });
    // git grep exits 1 when nothing matches, 0 with matches, 128 outside a repository (then there is nothing to check)
    expect(found.status === 0 ? found.stdout.trim().split("\n") : []).toEqual([]);
  });
});
