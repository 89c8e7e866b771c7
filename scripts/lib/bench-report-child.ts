/**
 * One side of the report benchmark's same-run comparison (scripts/bench-eval.ts, `benchReportVersusBaseline`): started
 * by the benchmark with `tsx scripts/lib/bench-report-child.ts <tree> <items>` in a tree of sources (this checkout, or
 * a commit's `server/` and `prisma/` extracted beside it), with an IPC channel. It seeds a run the same way in either
 * tree, through that tree's own services and its own migrated in-memory PGlite (10,000 questions imported as JSONL,
 * pasted answers judged by the built-in judge, suggestions adopted in bulk), says `{ ready }`, then answers each
 * `{ time: k }` with k timings of that tree's `runReport` (JSON serialisation included, as the HTTP face does): wall
 * time, and the process's CPU time (user + system; the embedded database runs in this process, so this is all the work,
 * and it is less disturbed by other processes than wall time is), and closes on `{ stop }`. The functions it calls (createSet, importSamples, freezeVersion, createRun,
 * submitPastedAnswers, adoptSuggestions, runReport) have had the same signatures since before issue 24.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { reportSeed } from "./bench-report-seed";

type Msg = { time?: number; stop?: boolean };

const [tree, itemsArg] = process.argv.slice(2);
if (!tree || !process.send) throw new Error("usage: started by scripts/bench-eval.ts with an IPC channel");
const items = Number(itemsArg ?? 10_000);
process.env.EVAL_JUDGE = "builtin";

const load = (rel: string) => import(pathToFileURL(path.join(tree, rel)).href);

async function main() {
  const { createEvalTestDb, seedAgent } = await load("server/eval/testing.ts");
  const { createSet, freezeVersion, importSamples, createRun, submitPastedAnswers } =
    await load("server/eval/index.ts");
  const { adoptSuggestions } = await load("server/eval/verdicts/verdicts.ts");
  const { runReport } = await load("server/eval/reports/reports.ts");
  const { db, close } = await createEvalTestDb();
  const seeded = performance.now();
  const { samples, answers } = reportSeed(items);
  const agent = await seedAgent(db, "bench");
  const set = await createSet(db, { agentId: agent.id, name: "10k", kind: "golden", gateThreshold: 8000 }, null);
  await importSamples(db, set.id, 1, { format: "jsonl", content: samples.map((s) => JSON.stringify(s)).join("\n") });
  const v = await freezeVersion(db, set.id, 1, null);
  const run = await createRun(db, { setVersionId: v.id, mode: "pasted" }, null);
  await submitPastedAnswers(db, run.id, { answers });
  await adoptSuggestions(db, run.id, null);
  const report = await runReport(db, run.id);
  // seeding's garbage (10,000 imported questions, answers, suggestions) is collected now, not during the timed
  // calls: otherwise whichever side's collector runs late pays for its own seeding (seen as ~2x slower rounds)
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  process.send!({
    ready: true,
    seedMs: Math.round(performance.now() - seeded),
    bytes: JSON.stringify(report).length,
    keys: Object.keys(report),
  });
  process.on("message", async (m: Msg) => {
    if (m.stop) {
      await close();
      process.disconnect();
      return;
    }
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < (m.time ?? 1); i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      JSON.stringify(await runReport(db, run.id));
      const used = process.cpuUsage(c);
      times.push(performance.now() - t);
      cpu.push((used.user + used.system) / 1000);
    }
    process.send!({ times, cpu });
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
