/**
 * Judge benchmarks (issue 22; `npm run bench -- judges`, or `npx tsx scripts/bench-judges.ts`; figures in the README).
 *   1. re-judging: a 300-item pasted run re-judged (`resuggestRun` with another judge, its suggestions kept beside the
 *      run's own) by the built-in LLM judge and by a `judge_llm_rubric` agent made from the recipe, side by side in one
 *      process, through the real queue (pg-boss on the embedded PGlite), the runtime and the Python sandbox, against a
 *      local OpenAI-compatible server answering after 200 ms, at the run's concurrency 8. Alternating rounds (LLM
 *      judge, agent, ...), each on a run of its own; wall time from the request until every item holds the judge's
 *      suggestion. Target: the agent within 1.15x the LLM judge.
 *   2. calibration: `GET /api/eval/sets/{id}/calibration`'s service (`setCalibration`, in process, incl. JSON
 *      serialisation) over 10,000 human-typed items of one set with two judges' suggestions each (the run's own and
 *      one in otherSuggestions), seeded with SQL; median of 7 after 2 warm-up calls. Target 300 ms.
 * Flags: `--only=rejudge,calibration`; `--rounds=<n>` (re-judging rounds per judge, default 2); `--cpu-prof` is node's
 * (run `node --cpu-prof --import tsx scripts/bench-judges.ts` to profile).
 */
import os from "node:os";
import path from "node:path";
import { loadAverages, recordRow } from "./lib/bench-rows";

process.env.EVAL_JUDGE = "builtin";

type Bench = { name: string; value: string; note: string };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const MIXED = "I recommend the scallion pancake breakfast dish, 12元.";

/** Re-judging a 300-item run with the LLM judge and with a judge_llm_rubric agent, alternating (see the header). */
export async function benchRejudge(opts: { items?: number; concurrency?: number; delayMs?: number; rounds?: number }) {
  const n = opts.items ?? 300;
  const concurrency = opts.concurrency ?? 8;
  const delayMs = opts.delayMs ?? 200;
  const rounds = opts.rounds ?? 2;
  const { startFakeLlmServer, useModelServer } = await import("../server/llm/testing");
  const { createEvalTestDb, seedAgent, seedSet, questions, rubricJudgeReply } = await import("../server/eval/testing");
  const model = await startFakeLlmServer({
    delayMs,
    usage: () => ({ prompt: 40, completion: 20 }),
    respond: (r) => {
      const messages = r.body.messages ?? [];
      const rubric = rubricJudgeReply(messages);
      if (rubric) return rubric;
      const user = JSON.parse(messages.at(-1)?.content ?? "{}") as { expected_points?: unknown[] };
      return JSON.stringify({
        points: (user.expected_points ?? []).map((_, index) => ({ index, covered: true, evidence: "stated" })),
        rationale: "covered",
      });
    },
  });
  // biome-ignore lint/correctness/useHookAtTopLevel: not a React hook (it points the process's model provider at a URL)
  const restore = useModelServer(model.url);
  const { db, target, close } = await createEvalTestDb();
  const { EvalQueue, registerEvalQueue, createRun, submitPastedAnswers, resuggestRun, updateSetJudged } = await import(
    "../server/eval/index"
  );
  const { createAgent } = await import("../server/agents/service");
  const { RECIPES } = await import("../server/workflow");
  const queue = await EvalQueue.start({ db, target, worker: true, concurrency, pollMs: 50, log: () => undefined });
  registerEvalQueue(queue);
  try {
    const agent = await seedAgent(db, "bench agent");
    const { set, setVersionId } = await seedSet(db, { agentId: agent.id, samples: questions(n), threshold: 1 });
    await updateSetJudged(db, set.id, { judge: { type: "builtin" } });
    const { agent: judge } = await createAgent(
      db,
      { name: "Rubric judge", kind: "judge", workflow: RECIPES.judge_llm_rubric.workflow },
      null,
      {},
    );
    const judges = [
      { name: "LLM judge", spec: { type: "llm" as const }, key: "llm" },
      { name: "judge_llm_rubric agent", spec: { type: "agent" as const, agentId: judge.id, version: 1 }, key: "" },
    ];
    judges[1]!.key = `agent:${judge.id}@1`;
    const times: Record<string, number[]> = { [judges[0]!.name]: [], [judges[1]!.name]: [] };
    const calls: Record<string, number> = {};
    for (let round = 0; round < rounds; round++)
      for (const j of round % 2 ? [...judges].reverse() : judges) {
        const run = await createRun(db, { setVersionId, mode: "pasted", concurrency }, null);
        await submitPastedAnswers(db, run.id, {
          answers: questions(n).map((q, i) => ({ key: q.key, answer: i % 3 ? GOOD : MIXED })),
        });
        const before = model.requests.length;
        const started = performance.now();
        await resuggestRun(db, run.id, {}, { judge: j.spec });
        for (;;) {
          const rows = await db.$queryRaw<Array<{ left: number }>>`
            SELECT count(*)::int AS "left" FROM "EvalRunItem"
            WHERE "runId" = ${run.id} AND NOT (COALESCE("otherSuggestions", '{}'::jsonb) ? ${j.key})`;
          if (rows[0]!.left === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        times[j.name]!.push(performance.now() - started);
        calls[j.name] = model.requests.length - before;
      }
    const llm = median(times[judges[0]!.name]!);
    const agentMs = median(times[judges[1]!.name]!);
    return {
      items: n,
      concurrency,
      delayMs,
      rounds,
      llmMs: Math.round(llm),
      agentMs: Math.round(agentMs),
      ratio: agentMs / llm,
      all: times,
      calls,
      idealMs: Math.ceil(n / concurrency) * delayMs,
    };
  } finally {
    await queue.stop();
    registerEvalQueue(undefined);
    await close();
    await model.close();
    restore();
  }
}

/** The calibration service over `n` human-typed items with two judges' suggestions each (see the header). */
export async function benchCalibration(n = 10_000, repeats = 7) {
  const { createEvalTestDb, seedAgent, seedSet, questions } = await import("../server/eval/testing");
  const { createRun, setCalibration } = await import("../server/eval/index");
  const { db, close } = await createEvalTestDb();
  try {
    const agent = await seedAgent(db, "bench agent");
    const { set, setVersionId } = await seedSet(db, { agentId: agent.id, samples: questions(n), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    // every item answered, judged by the built-in judge (its own suggestion) and by the LLM judge (otherSuggestions),
    // with a human-typed verdict: the three agree on two items of three
    await db.$executeRaw`
      UPDATE "EvalRunItem" i SET "status" = 'answered', "answer" = 'an answer',
        "suggestion" = jsonb_build_object('verdict', CASE WHEN s."position" % 3 = 0 THEN 'fail' ELSE 'pass' END,
          'judge', 'builtin-coverage', 'judgedBy', jsonb_build_object('type', 'builtin', 'key', 'builtin', 'label', 'built-in point coverage')),
        "otherSuggestions" = jsonb_build_object('llm', jsonb_build_object('verdict', CASE WHEN s."position" % 4 = 0 THEN 'fail' ELSE 'pass' END,
          'judge', 'llm:openai', 'judgedBy', jsonb_build_object('type', 'llm', 'key', 'llm', 'label', 'LLM judge'))),
        "verdict" = (CASE WHEN s."position" % 5 = 0 THEN 'fail' ELSE 'pass' END)::"Verdict",
        "verdictSource" = 'human'
      FROM "EvalSample" s WHERE s."id" = i."sampleId" AND i."runId" = ${run.id}`;
    const typed = await db.evalRunItem.count({ where: { runId: run.id, verdict: { not: null } } });
    const once = async () => {
      const t = performance.now();
      const out = await setCalibration(db, set.id, {});
      const bytes = JSON.stringify(out).length;
      return { ms: performance.now() - t, bytes, n: out.n };
    };
    await once();
    await once();
    const runs = [];
    for (let i = 0; i < repeats; i++) runs.push(await once());
    return {
      items: typed,
      medianMs: Math.round(median(runs.map((r) => r.ms))),
      maxMs: Math.round(Math.max(...runs.map((r) => r.ms))),
      bytes: runs[0]!.bytes,
      n: runs[0]!.n,
    };
  } finally {
    await close();
  }
}

async function main() {
  const rows: Bench[] = [];
  const only = flag("only")?.split(",");
  const want = (part: string) => !only || only.includes(part);
  if (want("rejudge")) {
    const r = await benchRejudge({ rounds: Number(flag("rounds") ?? 2) });
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    recordRow({
      part: "judges",
      name: `re-judging ${r.items} items @ ${r.concurrency}, model ${r.delayMs} ms, judge_llm_rubric agent`,
      value: r.agentMs / 1000,
      unit: "s",
      better: "lower",
      reference: { name: "the built-in LLM judge on the same run and model, alternating", value: r.llmMs / 1000 },
      ratio: r.ratio,
      target: "<= 1.15x the LLM judge",
    });
    rows.push(
      {
        name: `re-judging ${r.items} items, LLM judge, model ${r.delayMs} ms, @ ${r.concurrency} (PGlite)`,
        value: s(r.llmMs),
        note: `median of ${r.rounds} (${r.all["LLM judge"]!.map(s).join(", ")}); ideal ${s(r.idealMs)}; ${r.calls["LLM judge"]} model calls`,
      },
      {
        name: `re-judging ${r.items} items, judge_llm_rubric agent, same run and model`,
        value: s(r.agentMs),
        note: `median of ${r.rounds} (${r.all["judge_llm_rubric agent"]!.map(s).join(", ")}), alternating with the LLM judge; ${r.calls["judge_llm_rubric agent"]} model calls`,
      },
      {
        name: "re-judging, agent / LLM judge",
        value: r.ratio.toFixed(2),
        note: "target 1.15 or less",
      },
    );
  }
  if (want("calibration")) {
    const c = await benchCalibration();
    recordRow({
      part: "judges",
      name: `calibration, ${c.items} human-typed items, in process, median`,
      value: c.medianMs,
      unit: "ms",
      better: "lower",
      target: "<= 300 ms",
    });
    rows.push({
      name: `calibration, ${c.items} human-typed items, 2 judges, in process (PGlite)`,
      value: `${c.medianMs} ms`,
      note: `median of 7 (max ${c.maxMs}) after 2 warm-up calls, incl. JSON serialisation (${Math.round(c.bytes / 1024)} KiB, n ${c.n}); target 300 ms`,
    });
  }
  rows.push({
    name: "machine load during the run",
    value: loadAverages(1),
    note: `${os.cpus().length} cores (load average 1/5/15 min)`,
  });
  const w = [Math.max(...rows.map((r) => r.name.length)), Math.max(...rows.map((r) => r.value.length))];
  console.log(`| ${"benchmark".padEnd(w[0]!)} | ${"result".padEnd(w[1]!)} | notes |`);
  console.log(`| ${"-".repeat(w[0]!)} | ${"-".repeat(w[1]!)} | --- |`);
  for (const r of rows) console.log(`| ${r.name.padEnd(w[0]!)} | ${r.value.padEnd(w[1]!)} | ${r.note} |`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, "bench-judges.ts")) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
