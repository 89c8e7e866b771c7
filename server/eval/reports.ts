import type { z } from "zod";
import type { Db } from "../db/client";
import { parseInput } from "../core/errors";
import { dayRangeOf } from "../core/params";
import { compareRuns, pageOfQuestions, type CompareRunInput } from "./compare";
import { evaluateGate, type GateInput } from "./gate";
import { agreement, type Binary } from "./kappa";
import { CompareQuery, UsageQuery } from "./schemas";
import { needsSpotCheck, SUGGESTION_JSON } from "./suggest";
import { progressOf, resolveRun, runOut, type RunRow } from "./store";

/**
 * Reports, the gate, comparison and usage. Pure aggregation (`buildReport`) is separated from the one query per
 * run that feeds it (`reportRows`), so a 10,000-item report is one round trip.
 *
 * Pass rates: machine pass rate = items whose suggestion is pass / all items, but while the run is still answering
 * / the items answered so far (answered or failed: the ones that can have a suggestion; `machine.counted` says how
 * many), so a run half way through does not read as half failing; human-confirmed pass rate = items whose verdict is
 * pass / all items (an unjudged item is not a pass); both are reported side by side and never mixed.
 * `passRateOfJudged` divides by judged items instead. Completeness = judged / total.
 */
export type ReportRow = {
  key: string;
  question: string;
  status: string;
  verdict: "pass" | "fail" | null;
  verdictSource: string | null;
  attribution: string | null;
  classification: string;
  sv: "pass" | "fail" | "unknown" | null;
  flags: string[] | null;
  latencyMs: number | null;
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
  judgeTokens: number;
  judgeCalls: number;
};

export async function reportRows(db: Db, runId: string): Promise<ReportRow[]> {
  const rows = await db.$queryRaw<Array<ReportRow & { flags: unknown }>>`
    SELECT s."key", s."question", i."status"::text AS "status", i."verdict"::text AS "verdict", i."verdictSource", i."attribution",
      COALESCE(NULLIF(i."classification", ''), s."classification") AS "classification",
      i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv",
      jsonb_path_query_array(i."suggestion", ${SUGGESTION_JSON.flagNamesPath}::jsonpath) AS "flags",
      i."latencyMs", i."promptTokens", i."completionTokens", i."llmCalls", i."judgeTokens", i."judgeCalls"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${runId}
    ORDER BY s."position", s."key"`;
  return rows.map((r) => ({ ...r, flags: Array.isArray(r.flags) ? (r.flags as string[]) : null }));
}

const rate = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10000) / 10000);

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

type Group = {
  total: number;
  /** answered or failed: what the machine rate counts while the run answers */
  answered: number;
  machinePass: number;
  machineFail: number;
  machineUnknown: number;
  humanPass: number;
  humanFail: number;
  judged: number;
};
const emptyGroup = (): Group => ({
  total: 0,
  answered: 0,
  machinePass: 0,
  machineFail: 0,
  machineUnknown: 0,
  humanPass: 0,
  humanFail: 0,
  judged: 0,
});
function addTo(g: Group, r: ReportRow) {
  g.total++;
  if (r.status === "answered" || r.status === "failed") g.answered++;
  if (r.sv === "pass") g.machinePass++;
  else if (r.sv === "fail") g.machineFail++;
  else if (r.sv === "unknown") g.machineUnknown++;
  if (r.verdict === "pass") g.humanPass++;
  if (r.verdict === "fail") g.humanFail++;
  if (r.verdict) g.judged++;
}
/** The questions the machine pass rate counts: the answered ones while the run answers, else all (the one place). */
const machineBase = (run: RunRow, g: Pick<Group, "total" | "answered">) =>
  run.status === "answering" ? g.answered : g.total;
const withRates = (run: RunRow, { answered, ...g }: Group) => ({
  ...g,
  machinePassRate: rate(g.machinePass, machineBase(run, { total: g.total, answered })),
  humanPassRate: rate(g.humanPass, g.total),
});

type GateRow = Pick<ReportRow, "key" | "verdict" | "verdictSource" | "sv" | "flags">;

/** The gate's input from a run and its rows: each question's verdict, who made it, and whether it is a spot-check (the one rule). */
export function gateInputFor(run: RunRow, rows: GateRow[]): GateInput {
  return {
    runId: run.id,
    shortId: run.shortId,
    runStatus: run.status,
    setKind: run.setVersion.set.kind,
    threshold: run.gateThreshold,
    questions: rows.map((r) => ({
      key: r.key,
      verdict: r.verdict,
      source: r.verdict ? (r.verdictSource === "adopted" ? "adopted" : "human") : null,
      spotCheck: r.sv ? needsSpotCheck({ verdict: r.sv, flags: r.flags ?? [] }) : false,
    })),
  };
}

/** The report from a run and its rows (pure). */
export function buildReport(run: RunRow, rows: ReportRow[]) {
  const total = rows.length;
  const count = (f: (r: ReportRow) => boolean) => rows.filter(f).length;
  const machine = {
    pass: count((r) => r.sv === "pass"),
    fail: count((r) => r.sv === "fail"),
    unknown: count((r) => r.sv === "unknown"),
    none: count((r) => r.sv === null),
  };
  const human = {
    pass: count((r) => r.verdict === "pass"),
    fail: count((r) => r.verdict === "fail"),
    unjudged: count((r) => r.verdict === null),
  };
  const judged = human.pass + human.fail;
  const adopted = count((r) => r.verdict !== null && r.verdictSource === "adopted");
  const machineCounted = machineBase(run, {
    total,
    answered: count((r) => r.status === "answered" || r.status === "failed"),
  });

  const byTier = new Map<string, Group>([[run.tier, emptyGroup()]]);
  const byClass = new Map<string, Group>();
  const byAttribution = new Map<string, number>();
  const byFlag = new Map<string, number>();
  for (const r of rows) {
    addTo(byTier.get(run.tier)!, r);
    const c = r.classification || "(none)";
    if (!byClass.has(c)) byClass.set(c, emptyGroup());
    addTo(byClass.get(c)!, r);
    if (r.verdict === "fail")
      byAttribution.set(r.attribution ?? "(none)", (byAttribution.get(r.attribution ?? "(none)") ?? 0) + 1);
    for (const f of r.flags ?? []) byFlag.set(f, (byFlag.get(f) ?? 0) + 1);
  }

  const pairs: Array<{ machine: Binary; human: Binary }> = [];
  let excludedUnknown = 0;
  let excludedAdopted = 0;
  for (const r of rows) {
    if (!r.verdict) continue;
    if (r.verdictSource === "adopted") {
      excludedAdopted++;
      continue;
    }
    if (r.sv === "pass" || r.sv === "fail") pairs.push({ machine: r.sv, human: r.verdict });
    else excludedUnknown++;
  }

  const lat = rows
    .map((r) => r.latencyMs)
    .filter((x): x is number => typeof x === "number")
    .sort((a, b) => a - b);
  const sum = (f: (r: ReportRow) => number) => rows.reduce((s, r) => s + f(r), 0);
  const latencyTotal = lat.reduce((s, x) => s + x, 0);

  return {
    generatedAt: new Date().toISOString(),
    set: {
      id: run.setVersion.set.id,
      name: run.setVersion.set.name,
      kind: run.setVersion.set.kind,
      version: run.setVersion.version,
      gateThreshold: run.gateThreshold,
      currentGateThreshold: run.setVersion.set.gateThreshold,
    },
    totals: {
      items: total,
      pending: count((r) => r.status === "pending"),
      answering: count((r) => r.status === "answering"),
      answered: count((r) => r.status === "answered"),
      failed: count((r) => r.status === "failed"),
      cancelled: count((r) => r.status === "cancelled"),
    },
    completeness: { judged, total, ratio: rate(judged, total), human: judged - adopted, adopted },
    machine: {
      ...machine,
      passRate: rate(machine.pass, machineCounted),
      counted: machineCounted,
      note: "machine suggestions: assistance only, never counted by a gate",
    },
    human: {
      ...human,
      passRate: rate(human.pass, total),
      passRateOfJudged: rate(human.pass, judged),
      note: "human-confirmed verdicts (typed, or suggestions a person adopted in bulk)",
    },
    breakdown: {
      byTier: [...byTier].map(([tier, g]) => ({ tier, ...withRates(run, g) })),
      byClassification: [...byClass]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([classification, g]) => ({ classification, ...withRates(run, g) })),
      byAttribution: [...byAttribution]
        .sort((a, b) => b[1] - a[1])
        .map(([attribution, fails]) => ({ attribution, fails })),
      byFlag: [...byFlag].sort((a, b) => b[1] - a[1]).map(([flag, items]) => ({ flag, items })),
    },
    agreement: {
      ...agreement(pairs),
      excludedUnknown,
      excludedAdopted,
      typed: pairs.length + excludedUnknown,
      basis: "human-typed verdicts vs pass/fail suggestions",
    },
    latency: {
      items: lat.length,
      totalMs: latencyTotal,
      meanMs: lat.length ? Math.round(latencyTotal / lat.length) : null,
      p50Ms: percentile(lat, 50),
      p95Ms: percentile(lat, 95),
      maxMs: lat.at(-1) ?? null,
    },
    tokens: {
      answering: {
        promptTokens: sum((r) => r.promptTokens),
        completionTokens: sum((r) => r.completionTokens),
        totalTokens: sum((r) => r.promptTokens + r.completionTokens),
        modelCalls: sum((r) => r.llmCalls),
      },
      judging: { tokens: sum((r) => r.judgeTokens), modelCalls: sum((r) => r.judgeCalls) },
    },
    gate: evaluateGate(gateInputFor(run, rows)),
  };
}

export async function runReport(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const [rows, progress] = await Promise.all([reportRows(db, run.id), progressOf(db, run.id)]);
  return { run: runOut(run, progress), ...buildReport(run, rows) };
}

/** The gate for a run: its input (so a client can re-evaluate with the same rule) and the result. */
export async function runGate(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const rows = await db.$queryRaw<Array<GateRow & { flags: unknown }>>`
    SELECT s."key", i."verdict"::text AS "verdict", i."verdictSource",
      i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv",
      jsonb_path_query_array(i."suggestion", ${SUGGESTION_JSON.flagNamesPath}::jsonpath) AS "flags"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${run.id} ORDER BY s."position", s."key"`;
  const input = gateInputFor(
    run,
    rows.map((r) => ({ ...r, flags: Array.isArray(r.flags) ? (r.flags as string[]) : null })),
  );
  return {
    runId: run.id,
    shortId: run.shortId,
    setId: run.setVersion.set.id,
    setName: run.setVersion.set.name,
    setVersion: run.setVersion.version,
    input,
    result: evaluateGate(input),
  };
}

async function compareInput(db: Db, idOrShort: string): Promise<CompareRunInput> {
  const run = await resolveRun(db, idOrShort);
  const rows = await db.$queryRaw<
    Array<{ itemId: string; key: string; verdict: "pass" | "fail" | null; sv: "pass" | "fail" | "unknown" | null }>
  >`
    SELECT i."id" AS "itemId", s."key", i."verdict"::text AS "verdict", i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId" WHERE i."runId" = ${run.id} ORDER BY s."position", s."key"`;
  return {
    id: run.id,
    shortId: run.shortId,
    setId: run.setVersion.set.id,
    setVersionId: run.setVersionId,
    setVersion: run.setVersion.version,
    tier: run.tier,
    mode: run.mode,
    agentId: run.setVersion.set.agentId,
    workflowVersion: run.workflowVersion.version,
    environment: run.environment,
    items: rows.map((r) => ({ itemId: r.itemId, key: r.key, human: r.verdict, machine: r.sv })),
  };
}

/**
 * Two runs question by question. Every outcome is computed from light rows (the one outcome rule, compare.ts); the
 * outcome and text filters are applied here, on the server, and only the page's questions get their text, their
 * scenario and run A's Bad Case. `summary` and `badCases` always count the whole comparison.
 */
export async function compare(db: Db, query: z.input<typeof CompareQuery>) {
  const q = CompareQuery.parse(query);
  const [a, b] = await Promise.all([compareInput(db, q.run_a), compareInput(db, q.run_b)]);
  const result = compareRuns(a, b);
  const keys = q.q ? await searchKeys(db, [a.id, b.id], q.q) : undefined;
  const { rows, page } = pageOfQuestions(result.questions, {
    outcome: q.outcome,
    keys,
    offset: q.offset,
    limit: q.limit,
  });
  // the loop's question after a fix: is each of run A's Bad Cases fixed in run B (by a human verdict)?
  const cases = await db.badCase.findMany({ where: { runId: a.id }, select: { id: true, status: true, itemId: true } });
  const caseOf = new Map(cases.map((c) => [c.itemId, c]));
  type CaseResult = "fixed" | "still_failing" | "not_judged" | "not_in_b";
  const caseResult = (row: (typeof rows)[number]): CaseResult =>
    !row.b ? "not_in_b" : row.b.human === "pass" ? "fixed" : row.b.human === "fail" ? "still_failing" : "not_judged";
  const badCases = { fixed: 0, stillFailing: 0, notJudged: 0, notInB: 0 };
  const COUNTER = {
    fixed: "fixed",
    still_failing: "stillFailing",
    not_judged: "notJudged",
    not_in_b: "notInB",
  } as const;
  for (const row of result.questions) if (row.a && caseOf.has(row.a.itemId)) badCases[COUNTER[caseResult(row)]]++;
  const text = await questionText(
    db,
    rows.flatMap((r) => [r.a?.itemId, r.b?.itemId].filter((x): x is string => !!x)),
  );
  const questions = rows.map((row) => {
    const shown = text.get(row.b?.itemId ?? "") ?? text.get(row.a?.itemId ?? "");
    const c = row.a ? caseOf.get(row.a.itemId) : undefined;
    return {
      key: row.key,
      question: shown?.question ?? "",
      classification: shown?.classification ?? "",
      a: row.a,
      b: row.b,
      outcome: row.outcome,
      machineOutcome: row.machineOutcome,
      badCase: c ? { id: c.id, status: c.status, result: caseResult(row) } : null,
    };
  });
  return { ...result, questions, page, badCases };
}

/** The sample keys of either run whose key is `needle` (case-insensitive) or whose question contains it. */
async function searchKeys(db: Db, runIds: string[], needle: string): Promise<Set<string>> {
  const rows = await db.$queryRaw<Array<{ key: string }>>`
    SELECT DISTINCT s."key" FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" IN (${runIds[0]}, ${runIds[1]}) AND (lower(s."key") = lower(${needle}) OR strpos(lower(s."question"), lower(${needle})) > 0)`;
  return new Set(rows.map((r) => r.key));
}

/** The question and the sample's scenario of the given items: only those a page shows. */
async function questionText(db: Db, itemIds: string[]) {
  if (!itemIds.length) return new Map<string, { question: string; classification: string }>();
  const rows = await db.evalRunItem.findMany({
    where: { id: { in: itemIds } },
    select: { id: true, sample: { select: { question: true, classification: true } } },
  });
  return new Map(rows.map((r) => [r.id, { question: r.sample.question, classification: r.sample.classification }]));
}

// ---------------------------------------------------------------- usage

/**
 * Usage by UTC day and agent: runs created; items answered (answered or failed, by answeredAt); answering model
 * calls and tokens (prompt, completion); judging model calls and tokens (by suggestedAt). Totals over the range (the
 * one day-range rule, server/core/params.ts: the last 30 days by default, at most 366).
 */
export async function usage(db: Db, query: z.input<typeof UsageQuery>) {
  const q = parseInput(UsageQuery, query);
  const { from, to, start, end } = dayRangeOf(q);
  const agent = q.agentId ?? null;
  type Num = bigint | number | null;
  const runs = await db.$queryRaw<Array<{ day: string; agentId: string; runs: Num }>>`
    SELECT to_char(r."createdAt", 'YYYY-MM-DD') AS "day", st."agentId", count(*) AS "runs"
    FROM "EvalRun" r JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE r."createdAt" >= ${start} AND r."createdAt" < ${end} AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const answered = await db.$queryRaw<
    Array<{ day: string; agentId: string; items: Num; calls: Num; prompt: Num; completion: Num }>
  >`
    SELECT to_char(i."answeredAt", 'YYYY-MM-DD') AS "day", st."agentId", count(*) AS "items", sum(i."llmCalls") AS "calls",
      sum(i."promptTokens") AS "prompt", sum(i."completionTokens") AS "completion"
    FROM "EvalRunItem" i JOIN "EvalRun" r ON r."id" = i."runId" JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE i."answeredAt" >= ${start} AND i."answeredAt" < ${end} AND i."status" IN ('answered', 'failed') AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const judged = await db.$queryRaw<Array<{ day: string; agentId: string; calls: Num; tokens: Num }>>`
    SELECT to_char(i."suggestedAt", 'YYYY-MM-DD') AS "day", st."agentId", sum(i."judgeCalls") AS "calls", sum(i."judgeTokens") AS "tokens"
    FROM "EvalRunItem" i JOIN "EvalRun" r ON r."id" = i."runId" JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE i."suggestedAt" >= ${start} AND i."suggestedAt" < ${end} AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const n = (x: Num) => Number(x ?? 0);
  type Row = {
    day: string;
    agentId: string;
    runs: number;
    answeredItems: number;
    answering: { modelCalls: number; promptTokens: number; completionTokens: number; tokens: number };
    judging: { modelCalls: number; tokens: number };
  };
  const rows = new Map<string, Row>();
  const at = (day: string, agentId: string) => {
    const k = `${day}|${agentId}`;
    let r = rows.get(k);
    if (!r) {
      r = {
        day,
        agentId,
        runs: 0,
        answeredItems: 0,
        answering: { modelCalls: 0, promptTokens: 0, completionTokens: 0, tokens: 0 },
        judging: { modelCalls: 0, tokens: 0 },
      };
      rows.set(k, r);
    }
    return r;
  };
  for (const r of runs) at(r.day, r.agentId).runs += n(r.runs);
  for (const r of answered) {
    const x = at(r.day, r.agentId);
    x.answeredItems += n(r.items);
    x.answering.modelCalls += n(r.calls);
    x.answering.promptTokens += n(r.prompt);
    x.answering.completionTokens += n(r.completion);
    x.answering.tokens += n(r.prompt) + n(r.completion);
  }
  for (const r of judged) {
    const x = at(r.day, r.agentId);
    x.judging.modelCalls += n(r.calls);
    x.judging.tokens += n(r.tokens);
  }
  const agentIds = [...new Set([...rows.values()].map((r) => r.agentId))];
  const names = new Map(
    (await db.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true } })).map((a) => [
      a.id,
      a.name,
    ]),
  );
  const days = [...rows.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.agentId.localeCompare(b.agentId))
    .map((r) => ({ ...r, agentName: names.get(r.agentId) ?? null }));
  const totals = days.reduce(
    (t, r) => ({
      runs: t.runs + r.runs,
      answeredItems: t.answeredItems + r.answeredItems,
      answering: {
        modelCalls: t.answering.modelCalls + r.answering.modelCalls,
        promptTokens: t.answering.promptTokens + r.answering.promptTokens,
        completionTokens: t.answering.completionTokens + r.answering.completionTokens,
        tokens: t.answering.tokens + r.answering.tokens,
      },
      judging: { modelCalls: t.judging.modelCalls + r.judging.modelCalls, tokens: t.judging.tokens + r.judging.tokens },
    }),
    {
      runs: 0,
      answeredItems: 0,
      answering: { modelCalls: 0, promptTokens: 0, completionTokens: 0, tokens: 0 },
      judging: { modelCalls: 0, tokens: 0 },
    },
  );
  return { from, to, agentId: q.agentId ?? null, totals, days };
}
