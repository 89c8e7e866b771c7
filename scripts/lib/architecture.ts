import path from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

/** dependency-cruiser over the app with the rules of .dependency-cruiser.cjs (see ARCHITECTURE.md). */
export const ROOT = path.resolve(import.meta.dirname, "..", "..");

export async function cruiseApp(): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(path.join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(path.join(ROOT, "tsconfig.json"));
  const prev = process.cwd();
  process.chdir(ROOT); // paths in the result are relative to the working directory
  try {
    const result = await cruise(["server", "components", "lib", "app"], { ...options, validate: true }, undefined, {
      tsConfig,
    });
    if (typeof result.output === "string") throw new Error("unexpected reporter output");
    return result.output;
  } finally {
    process.chdir(prev);
  }
}

export function describeViolation(v: IViolation): string {
  return `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`;
}

/** The floors of server/ as they import each other (production code only), as a Mermaid graph drawn bottom-up. */
export function floorDrawing(result: ICruiseResult): string {
  const floor = (p: string) =>
    /^server\/[^/]+\//.test(p) ? p.split("/")[1]! : /^server\/[^/]+\.ts$/.test(p) ? "startup" : null;
  const production = (p: string) =>
    !/\.test\.tsx?$|(^|\/)(testing|fixtures|test-db|test-postgres)\.ts$/.test(p) && !p.includes("/generated/");
  const edges = new Set<string>();
  const nodes = new Set<string>();
  for (const m of result.modules) {
    const a = floor(m.source);
    if (!a || !production(m.source)) continue;
    nodes.add(a);
    for (const d of m.dependencies) {
      const b = floor(d.resolved);
      if (!b || b === a || !production(d.resolved)) continue;
      edges.add(`${a} --> ${b}`);
    }
  }
  return ["flowchart BT", ...[...nodes].sort().map((n) => `  ${n}`), ...[...edges].sort().map((e) => `  ${e}`)].join(
    "\n",
  );
}
