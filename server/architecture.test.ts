import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, cruiseApp, describeViolation, floorDrawing } from "../scripts/lib/architecture";

/**
 * The import rules of ARCHITECTURE.md (.dependency-cruiser.cjs): floors of server/ pointing down only, no cycles,
 * faces that never import each other, test helpers kept out of production code, the UI reaching the server through
 * tRPC. A change that breaks one fails here with the offending import; a new arrow between floors must also be
 * drawn in ARCHITECTURE.md (`npm run architecture -- --write`).
 */
describe("architecture", () => {
  it("imports point down only, with no cycles and no test helpers in production code; the drawing is current", async () => {
    const result = await cruiseApp();
    expect(result.summary.violations.map(describeViolation)).toEqual([]);
    const doc = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
    const drawn = /```mermaid\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(drawn, "ARCHITECTURE.md's floor drawing is out of date: run npm run architecture -- --write").toBe(floorDrawing(result));
  }, 60_000);
});
