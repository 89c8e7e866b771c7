import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVAL_ERROR_CODES } from "../eval/codes";
import { ERROR_CODES } from "./error-codes";

/**
 * A code's status is declared once, in the code table (ERROR_CODES, which merges EVAL_ERROR_CODES): every place in
 * the production code that pairs a literal status with a literal code (`new ApiError(409, "CODE"`,
 * `errors.badRequest("CODE"` for 400, `errors.conflict("CODE"` for 409) must agree with it, and `evalError("CODE"`
 * (which reads the status from the table) must name a code the table has.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

function productionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === "generated" ? [] : productionFiles(full);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [full] : [];
  });
}

describe("the error-code table", () => {
  it("is the one place a code's status is declared: every literal status beside a literal code agrees with it", () => {
    const problems: string[] = [];
    let pairs = 0;
    for (const file of productionFiles(ROOT)) {
      const text = fs.readFileSync(file, "utf8");
      const where = path.relative(ROOT, file);
      const found: Array<{ status: number | null; code: string }> = [];
      for (const m of text.matchAll(/new ApiError\(\s*(\d{3}),\s*"([A-Z_]+)"/g))
        found.push({ status: Number(m[1]), code: m[2]! });
      for (const m of text.matchAll(/errors\.badRequest\(\s*"([A-Z_]+)"/g)) found.push({ status: 400, code: m[1]! });
      for (const m of text.matchAll(/errors\.conflict\(\s*"([A-Z_]+)"/g)) found.push({ status: 409, code: m[1]! });
      for (const m of text.matchAll(/\bevalError\(\s*"([A-Z_]+)"/g)) {
        if (!EVAL_ERROR_CODES[m[1]!]) problems.push(`${where}: evalError("${m[1]}") is not in server/eval/codes.ts`);
        pairs++;
      }
      for (const { status, code } of found) {
        pairs++;
        const entry = ERROR_CODES[code];
        if (!entry) problems.push(`${where}: ${code} is not in the code table`);
        else if (entry.status !== status)
          problems.push(`${where}: ${code} sent as ${status}, the table says ${entry.status}`);
      }
    }
    expect(pairs).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it("answers state conflicts 409: closing answers of an in-platform run, freezing a version without samples", () => {
    expect(ERROR_CODES.RUN_MODE_MISMATCH?.status).toBe(409);
    expect(ERROR_CODES.SET_VERSION_INCOMPLETE?.status).toBe(409);
  });
});
