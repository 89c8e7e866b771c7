/**
 * Validation latency for generated realistic workflows (all 8 node types, templates, CEL conditions,
 * branches): `npx tsx scripts/bench-validate.ts` prints a table; `npm run bench` (scripts/bench.ts)
 * imports `benchValidation` and `generateWorkflow`.
 */
import { pathToFileURL } from "node:url";
import { validateWorkflowRequest } from "../server/workflow";
import { realisticWorkflow } from "../server/workflow/testing";
import type { WorkflowInput } from "../server/workflow";

export interface ValidationBenchRow {
  nodes: number;
  p50Ms: number;
  p99Ms: number;
  runs: number;
  /** `JSON.parse` of the same request bodies, timed alternately with the validation (issue 27's reference) */
  parseP50Ms: number;
  /** p50 validation time per node, in microseconds (issue 27: 5,000 nodes within 1.3x of 500) */
  perNodeUs: number;
}

/** A realistic workflow of exactly `nodes` nodes (>= 9) that validates with no errors. */
export function generateWorkflow(nodes: number, variant = 0): WorkflowInput {
  return realisticWorkflow(nodes, variant);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const PLAN = [
  { nodes: 50, runs: 2000 },
  { nodes: 500, runs: 400 },
  { nodes: 5000, runs: 60 },
];

/**
 * Times `validateWorkflowRequest` in process. Each size cycles through 8 variants whose condition
 * expressions differ, so the CEL parse cache does not flatter the numbers (worst case: a new workflow
 * per request). A relative http url is used with a base URL set, as in a deployment.
 */
export async function benchValidation(): Promise<ValidationBenchRow[]> {
  const rows: ValidationBenchRow[] = [];
  for (const { nodes, runs } of PLAN) {
    const bodies = Array.from({ length: 8 }, (_, v) => ({ workflow: generateWorkflow(nodes, v + 1) }));
    const opts = { webhookBaseUrl: "http://localhost:8000" };
    for (const body of bodies) {
      const result = validateWorkflowRequest(body, opts);
      if (!result.valid)
        throw new Error(`generated ${nodes}-node workflow is invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
    }
    const warmup = Math.max(5, Math.floor(runs / 10));
    for (let i = 0; i < warmup; i++) validateWorkflowRequest(bodies[i % bodies.length], opts);
    const texts = bodies.map((b) => JSON.stringify(b));
    for (let i = 0; i < warmup; i++) JSON.parse(texts[i % texts.length]!);
    const times: number[] = [];
    const parses: number[] = [];
    let sink = 0;
    for (let i = 0; i < runs; i++) {
      const body = bodies[i % bodies.length];
      let t = performance.now();
      validateWorkflowRequest(body, opts);
      times.push(performance.now() - t);
      t = performance.now();
      sink += (JSON.parse(texts[i % texts.length]!) as { workflow: { nodes: unknown[] } }).workflow.nodes.length;
      parses.push(performance.now() - t);
      // Yield now and then so a caller's event loop (timers, servers) is not starved.
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    if (sink !== nodes * runs) throw new Error("JSON.parse reference read the wrong bodies");
    times.sort((a, b) => a - b);
    parses.sort((a, b) => a - b);
    const p50Ms = percentile(times, 50);
    rows.push({
      nodes,
      p50Ms,
      p99Ms: percentile(times, 99),
      runs,
      parseP50Ms: percentile(parses, 50),
      perNodeUs: (p50Ms * 1000) / nodes,
    });
  }
  return rows;
}

/** The in-process table (also printed by `npm run bench`). */
export function printValidationRows(rows: ValidationBenchRow[]): void {
  console.log(
    "| nodes | p50 ms | p99 ms | JSON.parse p50 ms | x JSON.parse | per node µs | runs |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of rows)
    console.log(
      `| ${r.nodes} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.parseP50Ms.toFixed(3)} | ${(r.p50Ms / r.parseP50Ms).toFixed(2)} | ${r.perNodeUs.toFixed(2)} | ${r.runs} |`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchValidation().then(
    (rows) => {
      console.log(`node ${process.version}`);
      printValidationRows(rows);
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
