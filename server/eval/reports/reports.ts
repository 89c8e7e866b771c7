import type { Db } from "../../db/client";
import { registerGateProbe } from "../../webhooks/emit";
import { evaluateGate, falsePassWords, type GateInput } from "./gate";
import { agreement, reviewerAgreement, type Binary } from "./kappa";
import { runJudgeRef } from "../suggestions/judge-agent";
import { needsSpotCheck, SUGGESTION_JSON } from "../suggestions/suggest";
import { progressOf, resolveRun, runOut, type RunRow } from "../runs/run-rows";
import type { Tier } from "../runs/schemas";
import { roundedInterval, wilson } from "./statistics";
import { runCost } from "./cost";
import { costOf } from "../../core/prices";
import { runConsistency } from "./consistency";
import { modelPrices } from "../runs/prices";

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
  /** several reviewers per item: they disagree and no adjudicator has decided yet */
  disputed: boolean;
  adjudicated: boolean;
  /** drawn by an adoption's audit (an adopted pass a person must check) */
  audit: boolean;
};

/** One person's (or the adopted suggestion's) review of a question, in the order the reviews were given. */
export type ReviewRow = { key: string; verdict: "pass" | "fail"; source: string };

/** The reviews of a run with several reviewers per item (none for one reviewer per item): one query. */
export async function reviewRows(db: Db, run: Pick<RunRow, "id" | "reviewsPerItem">): Promise<ReviewRow[]> {
  if (run.reviewsPerItem <= 1) return [];
  return db.$queryRaw<ReviewRow[]>`
    SELECT s."key", r."verdict"::text AS "verdict", r."source"
    FROM "EvalReview" r JOIN "EvalRunItem" i ON i."id" = r."itemId" JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${run.id} ORDER BY r."at", r."id"`;
}

/**
 * Agreement between the people who reviewed (runs with several reviewers per item; null otherwise): the questions
 * whose reviews are all typed by people and complete (`reviewerAgreement` in kappa.ts: percent, Cohen's kappa for two
 * reviewers, Fleiss' for three), the disputed and the adjudicated questions; overall and per scenario.
 */
export function reviewerAgreementOf(
  run: Pick<RunRow, "reviewsPerItem">,
  rows: Array<Pick<ReportRow, "key" | "classification" | "disputed" | "adjudicated">>,
  reviews: ReviewRow[],
) {
  const raters = run.reviewsPerItem;
  if (raters <= 1) return null;
  const byKey = new Map<string, ReviewRow[]>();
  for (const r of reviews) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const figures = (of: typeof rows) => {
    const items = of
      .map((row) => byKey.get(row.key) ?? [])
      .filter((rs) => rs.length === raters && rs.every((r) => r.source === "human"))
      .map((rs) => rs.map((r) => r.verdict));
    const { n, percent, kappa, method } = reviewerAgreement(items, raters);
    return {
      n,
      percent,
      kappa,
      method,
      disputed: of.filter((r) => r.disputed).length,
      adjudicated: of.filter((r) => r.adjudicated).length,
    };
  };
  const classes = [...new Set(rows.map((r) => r.classification || "(none)"))].sort((a, b) => a.localeCompare(b));
  return {
    reviewers: raters,
    ...figures(rows),
    byClassification: classes.map((classification) => ({
      classification,
      ...figures(rows.filter((r) => (r.classification || "(none)") === classification)),
    })),
  };
}

/** One question's row as the query below sends it: the fields of ReportRow in this order. */
type PackedRow = [
  string,
  string,
  ReportRow["verdict"],
  string | null,
  string | null,
  string,
  ReportRow["sv"],
  unknown,
  number | null,
  number,
  number,
  number,
  number,
  number,
  boolean,
  boolean,
  boolean,
];

/**
 * The run's questions in set order. The rows arrive packed into one JSON array (json_agg) and are parsed once here:
 * decoding 10,000 rows of 14 columns one value at a time through the driver took about half of a 10,000-item
 * report (scripts/bench-eval.ts measures it against the report before issue 24).
 */
export async function reportRows(db: Db, runId: string): Promise<ReportRow[]> {
  const [{ rows }] = await db.$queryRaw<[{ rows: string | null }]>`
    SELECT json_agg(json_build_array(s."key", i."status", i."verdict", i."verdictSource", i."attribution",
      COALESCE(NULLIF(i."classification", ''), s."classification"),
      i."suggestion"->>${SUGGESTION_JSON.verdict}::text,
      jsonb_path_query_array(i."suggestion", ${SUGGESTION_JSON.flagNamesPath}::jsonpath),
      i."latencyMs", i."promptTokens", i."completionTokens", i."llmCalls", i."judgeTokens", i."judgeCalls",
      i."disputed", i."adjudicatedAt" IS NOT NULL, i."auditId" IS NOT NULL)
      ORDER BY s."position", s."key")::text AS "rows"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${runId}`;
  if (!rows) return [];
  return (JSON.parse(rows) as PackedRow[]).map((r) => ({
    key: r[0],
    status: r[1],
    verdict: r[2],
    verdictSource: r[3],
    attribution: r[4],
    classification: r[5],
    sv: r[6],
    flags: Array.isArray(r[7]) ? (r[7] as string[]) : null,
    latencyMs: r[8],
    promptTokens: r[9],
    completionTokens: r[10],
    llmCalls: r[11],
    judgeTokens: r[12],
    judgeCalls: r[13],
    disputed: r[14],
    adjudicated: r[15],
    audit: r[16],
  }));
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
/** The 95 % Wilson interval of k of n, rounded like the rates (null when n is 0). */
const interval = (k: number, n: number) => roundedInterval(wilson(k, n));
/**
 * n and the interval of a pass rate: unjudged questions are not in n. Human: n = questions with a verdict; machine:
 * n = questions with a suggestion (pass, fail or unknown; an unknown is not a pass).
 */
const humanStats = (pass: number, judged: number) => ({ n: judged, interval: interval(pass, judged) });
const machineStats = (pass: number, suggested: number) => ({ n: suggested, interval: interval(pass, suggested) });
const withRates = (run: RunRow, { answered, ...g }: Group) => {
  const h = humanStats(g.humanPass, g.judged);
  const m = machineStats(g.machinePass, g.machinePass + g.machineFail + g.machineUnknown);
  return {
    ...g,
    machinePassRate: rate(g.machinePass, machineBase(run, { total: g.total, answered })),
    humanPassRate: rate(g.humanPass, g.total),
    humanN: h.n,
    humanInterval: h.interval,
    machineN: m.n,
    machineInterval: m.interval,
  };
};

type GateRow = Pick<ReportRow, "key" | "verdict" | "verdictSource" | "sv" | "flags" | "disputed" | "audit">;

/**
 * How many adoptions drew an audit of their passes on the run (runs with one reviewer per item; several reviewers
 * always include a person's review, so adoption draws no audit there).
 */
export async function auditDraws(db: Db, run: Pick<RunRow, "id" | "reviewsPerItem">): Promise<number> {
  if (run.reviewsPerItem > 1) return 0;
  return db.evalAudit.count({ where: { runId: run.id } });
}

/** The gate's input from a run and its rows: each question's verdict, who made it, and whether it is a spot-check (the one rule). */
export function gateInputFor(
  run: RunRow,
  rows: GateRow[],
  agreementOfReviewers: { n: number; kappa: number | null } | null = null,
  draws = 0,
): GateInput {
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
      ...(run.reviewsPerItem > 1 ? { disputed: r.disputed } : {}),
      ...(r.audit ? { audit: true } : {}),
    })),
    // the audit of adopted passes: runs with one reviewer per item (several reviewers include a person's review)
    audit: run.reviewsPerItem > 1 ? null : { rate: run.auditRate, maxOverturn: run.maxAuditOverturn, draws },
    ...(agreementOfReviewers
      ? {
          reviewerAgreement: {
            n: agreementOfReviewers.n,
            kappa: agreementOfReviewers.kappa,
            minKappa: run.minReviewerKappa,
          },
        }
      : {}),
  };
}

/** The report from a run and its rows (pure). */
export function buildReport(run: RunRow, rows: ReportRow[], reviews: ReviewRow[] = [], draws = 0) {
  const reviewers = reviewerAgreementOf(run, rows, reviews);
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
      ...machineStats(machine.pass, machine.pass + machine.fail + machine.unknown),
      note: "machine suggestions: assistance only, never counted by a gate",
    },
    human: {
      ...human,
      passRate: rate(human.pass, total),
      passRateOfJudged: rate(human.pass, judged),
      ...humanStats(human.pass, judged),
      note: "human-confirmed verdicts (typed, or suggestions a person adopted in bulk)",
    },
    breakdown: {
      byTier: [...byTier].map(([tier, g]) => ({ tier: tier as Tier, ...withRates(run, g) })),
      byClassification: [...byClass]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([classification, g]) => ({ classification, ...withRates(run, g) })),
      byAttribution: [...byAttribution]
        .sort((a, b) => b[1] - a[1])
        .map(([attribution, fails]) => ({ attribution, fails })),
      byFlag: [...byFlag].sort((a, b) => b[1] - a[1]).map(([flag, items]) => ({ flag, items })),
    },
    agreement: {
      judge: runJudgeRef(run.judge),
      ...agreement(pairs),
      excludedUnknown,
      excludedAdopted,
      typed: pairs.length + excludedUnknown,
      basis: "human-typed verdicts vs pass/fail suggestions",
    },
    reviewerAgreement: reviewers,
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
    ...gateAndAudit(gateInputFor(run, rows, reviewers, draws)),
  };
}

/** The gate and the audit of adopted passes (the gate's, with its estimate in words) of a gate input. */
function gateAndAudit(input: GateInput) {
  const gate = evaluateGate(input);
  return {
    audit: gate.audit ? { ...gate.audit, estimate: falsePassWords(gate.audit) } : null,
    gate,
  };
}

export async function runReport(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const [rows, progress, { prices }, reviews, draws] = await Promise.all([
    reportRows(db, run.id),
    progressOf(db, run.id),
    modelPrices(db),
    reviewRows(db, run),
    auditDraws(db, run),
  ]);
  const report = buildReport(run, rows, reviews, draws);
  // a run without tokens (pasted answers, the built-in judge) costs nothing: no need to read its tokens by model
  const tokens = report.tokens.answering.totalTokens + report.tokens.judging.tokens;
  return {
    run: runOut(run, progress),
    ...report,
    cost: tokens ? await runCost(db, run.id, prices) : costOf({ answering: [], judging: [] }, prices),
    consistency: await runConsistency(db, run),
  };
}

/** The gate for a run: its input (so a client can re-evaluate with the same rule) and the result. */
export async function runGate(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const rows = await db.$queryRaw<Array<GateRow & { flags: unknown; classification: string; adjudicated: boolean }>>`
    SELECT s."key", i."verdict"::text AS "verdict", i."verdictSource", i."disputed",
      (i."adjudicatedAt" IS NOT NULL) AS "adjudicated", (i."auditId" IS NOT NULL) AS "audit",
      COALESCE(NULLIF(i."classification", ''), s."classification") AS "classification",
      i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv",
      jsonb_path_query_array(i."suggestion", ${SUGGESTION_JSON.flagNamesPath}::jsonpath) AS "flags"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${run.id} ORDER BY s."position", s."key"`;
  const [reviews, draws] = await Promise.all([reviewRows(db, run), auditDraws(db, run)]);
  const reviewers = reviewerAgreementOf(run, rows, reviews);
  const input = gateInputFor(
    run,
    rows.map((r) => ({ ...r, flags: Array.isArray(r.flags) ? (r.flags as string[]) : null })),
    reviewers,
    draws,
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

/**
 * `gate.decided` (server/webhooks/emit.ts) reads a run's gate through this: the status, and the summary the event
 * carries (the same result GET /api/eval/runs/{id}/gate answers).
 */
registerGateProbe(async (db, runId) => {
  const g = await runGate(db, runId);
  const r = g.result;
  return {
    status: r.status,
    data: {
      runId: g.runId,
      shortId: g.shortId,
      setId: g.setId,
      setName: g.setName,
      setVersion: g.setVersion,
      status: r.status,
      passed: r.passed,
      summary: r.summary,
      counts: r.counts,
      reasons: r.reasons,
      failing: r.failing,
    },
  };
});
