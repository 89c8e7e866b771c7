import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BenchRow, ROWS_ENV, formatWorse, readRows, recordRow, worseRows } from "./bench-rows";

const row = (over: Partial<BenchRow>): BenchRow => ({
  part: "validate",
  name: "r",
  value: 10,
  unit: "ms",
  better: "lower",
  ...over,
});

describe("bench rows", () => {
  const saved = process.env[ROWS_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[ROWS_ENV];
    else process.env[ROWS_ENV] = saved;
  });

  it("records rows as JSON lines only when the file is named, and skips values that are not numbers", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-rows-"));
    const file = path.join(dir, "rows.jsonl");
    delete process.env[ROWS_ENV];
    recordRow(row({ name: "not recorded" }));
    expect(fs.existsSync(file)).toBe(false);
    process.env[ROWS_ENV] = file;
    recordRow(row({ name: "a" }));
    recordRow(row({ name: "NaN", value: Number.NaN }));
    recordRow(row({ name: "b", value: 3, reference: { name: "ref", value: 2 }, ratio: 1.5 }));
    expect(readRows(file).map((r) => [r.name, r.value, r.ratio])).toEqual([
      ["a", 10, undefined],
      ["b", 3, 1.5],
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("finds the rows more than 20 % worse, by ratio where both runs have one, in the row's own direction", () => {
    const old = [
      row({ name: "time", value: 100 }),
      row({ name: "time ok", value: 100 }),
      row({ name: "rps", value: 1000, better: "higher" }),
      row({ name: "rps ratio", value: 1000, better: "higher", ratio: 0.8 }),
      row({ name: "gone", value: 1 }),
    ];
    const now = [
      row({ name: "time", value: 125 }), // 25 % slower: worse
      row({ name: "time ok", value: 119 }), // 19 %: within
      row({ name: "rps", value: 800, better: "higher" }), // 1000/800 - 1 = 25 %: worse
      // the value halved (a busy machine) but the ratio to the same run's reference held: not worse
      row({ name: "rps ratio", value: 500, better: "higher", ratio: 0.79 }),
      row({ name: "new", value: 1 }), // not in the old run: not compared
    ];
    const worse = worseRows(old, now);
    expect(worse.map((w) => [w.row.name, w.by, Number(w.change.toFixed(3))])).toEqual([
      ["time", "value", 0.25],
      ["rps", "value", 0.25],
    ]);
    expect(worseRows(old, [row({ name: "rps ratio", value: 1000, better: "higher", ratio: 0.6 })])[0]).toMatchObject({
      by: "ratio",
    });
    expect(formatWorse(worse)).toContain("| validate | time | value | 100 ms | 125 ms | 25 % |");
    expect(formatWorse([])).toBe("no row got more than 20 % worse");
  });
});
