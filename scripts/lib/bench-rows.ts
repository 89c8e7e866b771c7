/**
 * The benchmark's machine-readable rows (issue 27): every part records each figure it prints as a `BenchRow`, and
 * `npm run bench -- --json FILE` gathers them into one file, so two runs can be compared by a script
 * (`npm run bench -- --compare OLD.json` prints the rows that got more than 20 % worse).
 *
 * Parts run in child processes; `recordRow` appends one JSON line to the file named by `FLOWBENCH_BENCH_ROWS`
 * (set by scripts/bench.ts) and does nothing when it is unset, so a part run on its own prints as before.
 *
 * A row's `ratio` is its value over a reference measured in the same run (the 404's req/s, the ideal time, the
 * baseline's median): the figure that a busy machine moves least, and the one `--compare` uses when both runs have it.
 * `better` says which way is good for both the value and the ratio (a ratio is always value / reference).
 */
import fs from "node:fs";
import os from "node:os";

export type BenchRow = {
  /** the bench part: validate, runtime, sandbox, eval, canvas, eval-ui, online, judges, queues */
  part: string;
  /** stable within a part: `--compare` matches rows by part and name */
  name: string;
  value: number;
  unit: string;
  better: "lower" | "higher";
  reference?: { name: string; value: number };
  ratio?: number;
  /** the target, as text (e.g. ">= 0.8x the 404") */
  target?: string;
  note?: string;
};

export type BenchFile = {
  startedAt: string;
  commit: string | null;
  machine: { cores: number; node: string; loadBefore: number; loadAfter: number };
  rows: BenchRow[];
};

export const ROWS_ENV = "FLOWBENCH_BENCH_ROWS";

/** Records one row for `--json` (no-op unless the part runs under `npm run bench -- --json`). */
export function recordRow(row: BenchRow): void {
  const file = process.env[ROWS_ENV];
  if (!file || !Number.isFinite(row.value)) return;
  fs.appendFileSync(file, `${JSON.stringify(row)}\n`);
}

export function readRows(file: string): BenchRow[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as BenchRow);
}

/** The machine's load averages (1, 5, 15 minutes) as a benchmark prints them: "2.05 3.11 6.15". */
export const loadAverages = (digits = 2) =>
  os
    .loadavg()
    .map((l) => l.toFixed(digits))
    .join(" ");

export function machine(loadBefore: number) {
  return { cores: os.cpus().length, node: process.version, loadBefore, loadAfter: os.loadavg()[0]! };
}

export type Worse = { row: BenchRow; old: BenchRow; by: "ratio" | "value"; change: number };

/**
 * The rows of `now` more than `tolerance` worse than the same rows (part and name) of `old`: by their ratios when both
 * have one, else by their values. `change` is how much worse, as a fraction (0.25: 25 % worse): for a `lower` row
 * now / old - 1, for a `higher` row old / now - 1 (so halving a throughput is 100 % worse, like doubling a time).
 */
export function worseRows(old: BenchRow[], now: BenchRow[], tolerance = 0.2): Worse[] {
  const before = new Map(old.map((r) => [`${r.part}\u0000${r.name}`, r]));
  const out: Worse[] = [];
  for (const row of now) {
    const prev = before.get(`${row.part}\u0000${row.name}`);
    if (!prev) continue;
    const by = row.ratio !== undefined && prev.ratio !== undefined ? "ratio" : "value";
    const a = by === "ratio" ? prev.ratio! : prev.value;
    const b = by === "ratio" ? row.ratio! : row.value;
    if (!(a > 0 && b > 0)) continue;
    const change = row.better === "lower" ? b / a - 1 : a / b - 1;
    if (change > tolerance) out.push({ row, old: prev, by, change });
  }
  return out;
}

/** A markdown table of `worseRows`' answer (or a line saying none). */
export function formatWorse(worse: Worse[], tolerance = 0.2): string {
  if (!worse.length) return `no row got more than ${Math.round(tolerance * 100)} % worse`;
  const fmt = (r: BenchRow, by: "ratio" | "value") =>
    by === "ratio" ? `${r.ratio!.toFixed(3)}x` : `${Number(r.value.toPrecision(4))} ${r.unit}`;
  const lines = [
    `${worse.length} row(s) more than ${Math.round(tolerance * 100)} % worse:`,
    "| part | row | by | before | now | worse by |",
    "| --- | --- | --- | ---: | ---: | ---: |",
    ...worse.map(
      (w) =>
        `| ${w.row.part} | ${w.row.name} | ${w.by} | ${fmt(w.old, w.by)} | ${fmt(w.row, w.by)} | ${Math.round(w.change * 100)} % |`,
    ),
  ];
  return lines.join("\n");
}
