import type { z } from "zod";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { type Principal, actorLabels, actorRef } from "../../auth/service";
import { errors, parseInput } from "../../core/errors";
import { dayBounds, dayRangeOf } from "../../core/params";
import { requireAgent } from "../../agents/service";
import { ONLINE_SOURCES } from "../../runtime";
import type { Workflow } from "../../workflow";
import { computeFlags, type StepLike } from "../suggestions/guardrails";
import type { LeadSignal } from "./schemas";
import type { LEAD_SIGNALS } from "./schemas";
import type { GuardrailFlag, JudgeRef } from "../suggestions/schemas";
import type { Tier } from "../runs/schemas";
import { type TraceRow, conversationsBefore, onlineTrace, userMessage, versionWorkflow } from "./traces";
import { DismissLeadInput, LeadCountsQuery, LeadsQuery } from "./schemas";

/**
 * The online feedback loop (spec 3.7): leads from online traffic, the regression pool, and the board.
 *
 * Leads: online traces of an agent (source chat or api: every answer the published agent gave to a caller, the same
 * traces that accept feedback) that deserve a look: a user's feedback score at or below `maxScore` (default 2 of 5), or
 * a signal of the guardrail rules (the one implementation in guardrails.ts, on the trace's steps): an execution error,
 * an empty item list from a live query, no query although the workflow has http nodes. Each lead has a status: new,
 * in_pool (a regression-pool sample has it as source_trace_id) or dismissed (who, why); the status filter is part of the
 * scan's SQL, so a page holds only matching traces. A page scans at most LEAD_SCAN traces (newest first) to find
 * `limit` leads; `nextCursor` continues the scan, so a quiet stretch of traffic never makes one request slow.
 * `leadsPerDay` counts the leads of a whole time range by day and status in SQL, from the guardrail signals stored on
 * each trace the first time a count covers it (`storeLeadFlags`: at most COUNT_SCAN traces through the rules a request).
 *
 * Pool: `addTraceToPool` turns an online trace into a sample of a regression-pool set (never a golden set): the
 * question is the user's message (an earlier conversation of the session becomes a script whose earlier turns are
 * preset), the online answer is kept as `referenceAnswer`, `sourceTraceId` is the trace. It goes into the set's draft
 * (a new draft copied from the latest version when that one is frozen, created under the same lock). A trace already in
 * any version of the set is not added again (the answer says duplicate: true; REST answers it 200, a new sample 201); adds to one set are serialised by a row lock on
 * the set, and the database's unique (version, source trace) backs it. `confirmSample` records that a person confirmed
 * the candidate (kept when later versions copy it).
 */
const FLAG_SIGNALS: readonly GuardrailFlag[] = ["execution_error", "empty_items", "no_query"];
export const LEAD_SCAN = 2000;
/** Traces a count puts through the guardrail rules, newest first, at most (the answer says whether the range was covered). */
export const COUNT_SCAN = 20_000;
const BATCH = 200;
/** Storing signals reads candidates only (light columns), this many a round trip. */
const COUNT_BATCH = 1000;
const DAY_MS = 86_400_000;

const cursorOf = (startedAt: Date, id: string) => `${startedAt.toISOString()}_${id}`;
/** A nextCursor of this list: `<ISO instant>_<trace id>`, the instant one both JavaScript and PostgreSQL hold. */
function parseCursor(c: string | undefined): { at: Date; id: string } | null {
  if (!c) return null;
  const i = c.indexOf("_");
  const at = new Date(c.slice(0, i));
  const year = at.getUTCFullYear();
  if (i < 0 || Number.isNaN(at.getTime()) || year < 1970 || year > 9999 || i === c.length - 1)
    throw errors.badRequest("REQUEST_INVALID", "cursor is not a nextCursor of this list");
  return { at, id: c.slice(i + 1) };
}

type Filters = z.output<typeof LeadCountsQuery>;
type Scanned = {
  trace: TraceRow;
  workflow: Workflow | null;
  signals: LeadSignal[];
  flags: Array<{ flag: string; message: string }>;
};

/** A trace's lead status in SQL: a regression-pool sample has it (in_pool), else a dismissal (dismissed), else new. */
const statusSql = Prisma.sql`(CASE
      WHEN EXISTS (SELECT 1 FROM "EvalSample" s JOIN "EvalSetVersion" v ON v."id" = s."setVersionId" JOIN "EvalSet" e ON e."id" = v."setId"
                   WHERE s."sourceTraceId" = t."id" AND e."kind" = 'regression_pool') THEN 'in_pool'
      WHEN EXISTS (SELECT 1 FROM "LeadDismissal" d WHERE d."traceId" = t."id") THEN 'dismissed'
      ELSE 'new' END)`;

/**
 * The traces that can have a guardrail lead signal, as SQL: a superset of what `leadOf` decides with the guardrail rules
 * (computeFlags stays the one rule; this only keeps the others in the database). Per signal: execution_error a status
 * other than succeeded or an error; no_query (not at tier invoke) an http step or a version with http nodes, and no
 * http step that succeeded with `ok` not false; empty_items (pipeline_live) an empty list (`[]`) in a succeeded http
 * step or in the payload. Unit-tested to find what the unfiltered scan finds (server/eval/online/online.test.ts).
 */
function flagCandidateSql(httpVersions: string[]): Prisma.Sql {
  const steps = Prisma.sql`jsonb_array_elements(CASE WHEN jsonb_typeof(t."steps") = 'array' THEN t."steps" ELSE '[]'::jsonb END)`;
  const anyHttp = Prisma.sql`EXISTS (SELECT 1 FROM ${steps} st WHERE st->>'type' = 'http')`;
  const queried = (extra: Prisma.Sql) =>
    Prisma.sql`EXISTS (SELECT 1 FROM ${steps} st WHERE st->>'type' = 'http' AND st->>'status' = 'succeeded' AND (st->'output'->'ok') IS DISTINCT FROM 'false'::jsonb ${extra})`;
  return Prisma.sql`COALESCE((
    (t."status" <> 'succeeded' OR (t."error" IS NOT NULL AND t."error" <> 'null'::jsonb))
    OR (t."mode" <> 'invoke' AND (t."workflowVersionId" = ANY(${httpVersions}::text[]) OR ${anyHttp}) AND NOT ${queried(Prisma.empty)})
    OR (t."mode" = 'pipeline_live' AND (${queried(Prisma.sql`AND strpos(st::text, '[]') > 0`)} OR (t."payload" IS NOT NULL AND strpos(t."payload"::text, '[]') > 0)))), false)`;
}

/** The agent's versions whose workflow has an http node (a trace of one can be a no_query lead without an http step). */
async function httpVersionIds(db: Db, agentId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT v."id" FROM "WorkflowVersion" v
    WHERE v."agentId" = ${agentId}
      AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v."workflow"->'nodes') = 'array' THEN v."workflow"->'nodes' ELSE '[]'::jsonb END) n WHERE n->>'type' = 'http')`;
  return rows.map((r) => r.id);
}

/**
 * Online traces of the agent in [start, end) newest first after `after`, in batches, each with its lead signals
 * (null: not a lead, or not the wanted signal). The status is decided in SQL (a regression-pool sample has the trace:
 * in_pool; else a dismissal: dismissed; else new) and filtered there. Light columns only: the http steps (the only
 * steps the guardrail rules look at), the payload of pipeline_live traces, no input or answer. `unstamped` (storing
 * signals): only traces with none stored that can have one leave the database (`flagCandidateSql`). Stops after
 * `maxScan` traces or when the range is exhausted.
 */
async function* scanLeads(
  db: Db,
  q: Filters,
  range: { start: Date | null; end: Date | null },
  after: { at: Date; id: string } | null,
  opts: { maxScan: number; batch: number; ids?: string[]; unstamped?: { httpVersions: string[] } },
) {
  let cursor = after;
  let scanned = 0;
  // stamping (`storeLeadFlags`): only the traces not stored yet that can have a guardrail signal
  const candidates = opts.unstamped
    ? Prisma.sql`AND t."leadFlagsAt" IS NULL AND ${flagCandidateSql(opts.unstamped.httpVersions)}`
    : Prisma.empty;
  while (scanned < opts.maxScan) {
    const size = Math.min(opts.batch, opts.maxScan - scanned);
    const batch = await db.$queryRaw<TraceRow[]>`
      SELECT t."id", t."startedAt", t."status"::text AS "status", t."mode"::text AS "mode", t."sessionId", t."createdById",
          CASE WHEN t."mode" = 'pipeline_live' THEN t."payload" END AS "payload",
          (SELECT jsonb_agg(st) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(t."steps") = 'array' THEN t."steps" ELSE '[]'::jsonb END) st WHERE st->>'type' = 'http') AS "steps",
          t."error", t."workflowVersionId", f."score", f."comment", j."verdict" AS "judgeVerdict", ${statusSql} AS "leadStatus"
        FROM "Trace" t
        LEFT JOIN LATERAL (SELECT "score", "comment" FROM "TraceFeedback" WHERE "traceId" = t."id" ORDER BY "score" ASC, "createdAt" DESC LIMIT 1) f ON true
        LEFT JOIN "OnlineJudgment" j ON j."traceId" = t."id"
        WHERE t."agentId" = ${q.agentId} AND t."source" = ANY(${[...ONLINE_SOURCES]}::text[]) AND t."status" <> 'running'
          ${opts.ids ? Prisma.sql`AND t."id" = ANY(${opts.ids}::text[])` : Prisma.empty}
          ${range.start ? Prisma.sql`AND t."startedAt" >= ${range.start}::timestamp` : Prisma.empty}
          ${range.end ? Prisma.sql`AND t."startedAt" < ${range.end}::timestamp` : Prisma.empty}
          ${cursor ? Prisma.sql`AND (t."startedAt", t."id") < (${cursor.at}::timestamp, ${cursor.id})` : Prisma.empty}
          ${q.signal === "low_score" ? Prisma.sql`AND f."score" <= ${q.maxScore}` : Prisma.empty}
          ${q.signal === "judge_fail" ? Prisma.sql`AND j."verdict" = 'fail'` : Prisma.empty}
          ${q.signal === "judge_unknown" ? Prisma.sql`AND j."verdict" = 'unknown'` : Prisma.empty}
          ${q.status ? Prisma.sql`AND ${statusSql} = ${q.status}::text` : Prisma.empty}
          ${candidates}
        ORDER BY t."startedAt" DESC, t."id" DESC
      LIMIT ${size}`;
    for (const t of batch) {
      scanned++;
      cursor = { at: t.startedAt, id: t.id };
      const workflow = await versionWorkflow(db, t.workflowVersionId);
      yield { cursor, scanned, lead: leadOf(t, workflow, q) };
    }
    if (batch.length < size) return; // the range is exhausted
  }
}

/** The lead signals of one online trace (the guardrail rules' computeFlags), or null when it is not a (wanted) lead. */
function leadOf(t: TraceRow, workflow: Workflow | null, q: Filters): Scanned | null {
  const signals: LeadSignal[] = [];
  if (t.score !== null && t.score <= q.maxScore) signals.push("low_score");
  const flags = computeFlags({
    tier: t.mode as Tier,
    answer: "", // the lead signals never read the answer (empty_answer and refusal are not signals)
    payload: (t.payload as Record<string, unknown> | null) ?? null,
    failed: t.status !== "succeeded",
    error: t.error ? JSON.stringify(t.error).slice(0, 300) : null,
    steps: Array.isArray(t.steps) ? (t.steps as StepLike[]) : [],
    hasHttpNodes: workflow?.nodes.some((n) => n.type === "http") ?? false,
  }).filter((f) => FLAG_SIGNALS.includes(f.flag));
  for (const f of flags) signals.push(f.flag as LeadSignal); // the lead rules flag only lead signals
  if (t.judgeVerdict === "fail") signals.push("judge_fail");
  else if (t.judgeVerdict === "unknown") signals.push("judge_unknown");
  if (!signals.length || (q.signal && !signals.includes(q.signal))) return null;
  return { trace: t, workflow, signals, flags };
}

/** A stored judgment as the leads (and the lead.created event) show it. */
export function judgmentOut(j: {
  verdict: string;
  rationale: string;
  judgedBy: unknown;
  criteria: unknown;
  error: string | null;
  judgedAt: Date;
}) {
  return {
    verdict: j.verdict as "pass" | "fail" | "unknown",
    rationale: j.rationale,
    judgedBy: j.judgedBy as JudgeRef,
    error: j.error,
    criteria: Array.isArray(j.criteria) ? (j.criteria as Array<{ point: string; status: string }>) : [],
    judgedAt: j.judgedAt,
  };
}

export async function listLeads(db: Db, query: z.input<typeof LeadsQuery>) {
  const q = parseInput(LeadsQuery, query);
  await requireAgent(db, q.agentId);
  const leads: Scanned[] = [];
  let scanned = 0;
  let lastSeen: { at: Date; id: string } | null = null;
  let exhausted = true;
  for await (const step of scanLeads(db, q, dayBounds(q), parseCursor(q.cursor), {
    maxScan: LEAD_SCAN,
    batch: BATCH,
  })) {
    scanned = step.scanned;
    lastSeen = step.cursor;
    if (step.lead) leads.push(step.lead);
    if (leads.length >= q.limit || scanned >= LEAD_SCAN) {
      exhausted = false; // there may be more: the next page continues after lastSeen
      break;
    }
  }
  const ids = leads.map((l) => l.trace.id);
  // what a lead card shows and the scan did not read: the input, the answer, the payload; and the conversations
  const [heavy, conversations, dismissals, pooled, judgments] = await Promise.all([
    db.trace.findMany({ where: { id: { in: ids } }, select: { id: true, input: true, answer: true, payload: true } }),
    conversationsBefore(
      db,
      leads.map((l) => ({ id: l.trace.id, sessionId: l.trace.sessionId, workflow: l.workflow })),
      q.agentId,
    ),
    db.leadDismissal.findMany({ where: { traceId: { in: ids } } }),
    db.evalSample.findMany({
      where: { sourceTraceId: { in: ids }, setVersion: { set: { kind: "regression_pool" } } },
      orderBy: { createdAt: "desc" },
      select: {
        id: true,
        key: true,
        sourceTraceId: true,
        setVersion: { select: { version: true, status: true, setId: true, set: { select: { name: true } } } },
      },
    }),
    db.onlineJudgment.findMany({ where: { traceId: { in: ids } } }),
  ]);
  const judgmentOf = new Map(judgments.map((j) => [j.traceId, judgmentOut(j)]));
  const dismissedBy = new Map(dismissals.map((d) => [d.traceId, d]));
  const labels = await actorLabels(
    db,
    dismissals.map((d) => d.dismissedById),
  );
  const full = new Map(heavy.map((h) => [h.id, h]));
  const poolOf = new Map<string, (typeof pooled)[number]>();
  for (const p of pooled) if (p.sourceTraceId && !poolOf.has(p.sourceTraceId)) poolOf.set(p.sourceTraceId, p);
  const items = [];
  for (const l of leads) {
    const t = l.trace;
    const h = full.get(t.id);
    const pool = poolOf.get(t.id);
    const dismissed = dismissedBy.get(t.id);
    items.push({
      traceId: t.id,
      startedAt: t.startedAt,
      traceStatus: t.status,
      sessionId: t.sessionId,
      message: userMessage(h?.input, l.workflow),
      conversation: conversations.get(t.id) ?? [],
      answer: h?.answer ?? null,
      payload: h?.payload ?? null,
      score: t.score,
      comment: t.comment,
      signals: l.signals,
      flags: l.flags,
      judgment: judgmentOf.get(t.id) ?? null,
      status: pool ? ("in_pool" as const) : dismissed ? ("dismissed" as const) : ("new" as const),
      pool: pool
        ? {
            setId: pool.setVersion.setId,
            setName: pool.setVersion.set.name,
            version: pool.setVersion.version,
            versionStatus: pool.setVersion.status,
            sampleId: pool.id,
            key: pool.key,
          }
        : null,
      dismissal: dismissed
        ? {
            reason: dismissed.reason,
            by: dismissed.dismissedById,
            byLabel: dismissed.dismissedById ? (labels.get(dismissed.dismissedById) ?? dismissed.dismissedById) : null,
            at: dismissed.dismissedAt,
          }
        : null,
    });
  }
  const perDay = new Map<string, number>();
  for (const i of items)
    perDay.set(i.startedAt.toISOString().slice(0, 10), (perDay.get(i.startedAt.toISOString().slice(0, 10)) ?? 0) + 1);
  return {
    items,
    scanned,
    nextCursor: exhausted || !lastSeen ? null : cursorOf(lastSeen.at, lastSeen.id),
    perDay: [...perDay.entries()].sort().map(([day, count]) => ({ day, count })),
  };
}

type Range = { start: Date; end: Date | null };
const rangeSql = (r: Range) =>
  Prisma.sql`AND t."startedAt" >= ${r.start}::timestamp ${r.end ? Prisma.sql`AND t."startedAt" < ${r.end}::timestamp` : Prisma.empty}`;
const onlineSql = (agentId: string) =>
  Prisma.sql`t."agentId" = ${agentId} AND t."source" = ANY(${[...ONLINE_SOURCES]}::text[]) AND t."status" <> 'running'`;

/**
 * Stores the guardrail signals found for finished traces (`flags[i]`: trace `ids[i]`'s, comma-separated, "" for none),
 * for those that have none stored yet.
 */
async function stampLeadFlags(db: Db, ids: string[], flags: string[]): Promise<void> {
  if (!ids.length) return;
  await db.$executeRaw`
    UPDATE "Trace" AS t SET "leadFlags" = string_to_array(v.f, ','), "leadFlagsAt" = now()
    FROM unnest(${ids}::text[], ${flags}::text[]) AS v(id, f)
    WHERE t."id" = v.id AND t."leadFlagsAt" IS NULL AND t."status" <> 'running'`;
}

/**
 * Stores the guardrail lead signals (`leadFlags`, `leadFlagsAt`) of the agent's finished online traces in `range` that
 * have none stored yet: in one statement for those that cannot have one (`flagCandidateSql`), through the guardrail
 * rules (computeFlags, as the list) for the others, newest first, at most `max` of them. Returns how many went through
 * the rules and, when `max` cut them short, the oldest moment up to which every trace has its signals stored.
 */
async function storeLeadFlags(
  db: Db,
  agentId: string,
  range: Range,
  max: number,
): Promise<{ evaluated: number; coveredFrom: Date | null }> {
  const httpVersions = await httpVersionIds(db, agentId);
  // one statement: the traces without stored signals (an index finds them), those that cannot have one stored as
  // such, and how many are left for the rules (none, once the range is stored: then nothing more is read)
  const [left] = await db.$queryRaw<Array<{ n: number }>>`
    WITH unstamped AS (
      SELECT t."id", ${flagCandidateSql(httpVersions)} AS "candidate" FROM "Trace" t
      WHERE ${onlineSql(agentId)} ${rangeSql(range)} AND t."leadFlagsAt" IS NULL),
    stored AS (
      UPDATE "Trace" AS s SET "leadFlags" = ARRAY[]::text[], "leadFlagsAt" = now()
      FROM unstamped u WHERE s."id" = u."id" AND NOT u."candidate")
    SELECT count(*)::int AS n FROM unstamped WHERE "candidate"`;
  if (!left?.n) return { evaluated: 0, coveredFrom: null };
  let evaluated = 0;
  let last: Date | null = null;
  let ids: string[] = [];
  let flags: string[] = [];
  const flush = async () => {
    await stampLeadFlags(db, ids, flags);
    ids = [];
    flags = [];
  };
  for await (const step of scanLeads(db, rulesOf(agentId), range, null, {
    maxScan: max,
    batch: COUNT_BATCH,
    unstamped: { httpVersions },
  })) {
    evaluated = step.scanned;
    last = step.cursor.at;
    // leadOf is null for a trace with no signal at all; its flags are then none
    ids.push(step.cursor.id);
    flags.push((step.lead?.flags ?? []).map((f) => f.flag).join(","));
    if (ids.length >= COUNT_BATCH) await flush();
  }
  await flush();
  return { evaluated, coveredFrom: evaluated >= max ? last : null };
}

/**
 * The leads among the agent's finished online traces in `range`, newest first, with their status: by the stored
 * guardrail signals (`storeLeadFlags` first), a feedback score at or below maxScore, or a judged fail or unknown; with
 * the list's signal and status filters. Traces without stored signals count by score and judgment only.
 */
async function leadRows(db: Db, q: Filters, range: Range) {
  const lowScore = Prisma.sql`t."id" IN (SELECT fb."traceId" FROM "TraceFeedback" fb WHERE fb."score" <= ${q.maxScore})`;
  const judged = (verdicts: string[]) =>
    Prisma.sql`t."id" IN (SELECT oj."traceId" FROM "OnlineJudgment" oj WHERE oj."verdict" = ANY(${verdicts}::text[]))`;
  const signal = !q.signal
    ? Prisma.sql`(cardinality(t."leadFlags") > 0 OR ${lowScore} OR ${judged(["fail", "unknown"])})`
    : q.signal === "low_score"
      ? lowScore
      : q.signal === "judge_fail"
        ? judged(["fail"])
        : q.signal === "judge_unknown"
          ? judged(["unknown"])
          : Prisma.sql`${q.signal}::text = ANY(t."leadFlags")`;
  return db.$queryRaw<Array<{ id: string; startedAt: Date; status: "new" | "in_pool" | "dismissed" }>>`
    SELECT t."id", t."startedAt", ${statusSql} AS "status" FROM "Trace" t
    WHERE ${onlineSql(q.agentId)} ${rangeSql(range)} AND ${signal}
      ${q.status ? Prisma.sql`AND ${statusSql} = ${q.status}::text` : Prisma.empty}
    ORDER BY t."startedAt" DESC, t."id" DESC`;
}

/**
 * Leads of a whole time range by UTC day and status (the chart of the leads and the board's lead count), with the same
 * filters as the list. The range defaults to the last 30 days ending today and is at most 366 days (the one day-range
 * rule, server/core/params.ts). Only traces that can be leads leave the database (`candidateSql`: a low score, an
 * error, a missing query, an empty list), light columns only, COUNT_BATCH a round trip; the newest COUNT_SCAN of them
 * are looked at (`complete` says whether that covered the range; when it did not, `coveredFrom` is the oldest moment
 * counted).
 */
export async function leadsPerDay(db: Db, query: z.input<typeof LeadCountsQuery>) {
  const q = parseInput(LeadCountsQuery, query);
  await requireAgent(db, q.agentId);
  const { from, to, start, end } = dayRangeOf(q);
  const days = new Map<string, { day: string; total: number; new: number; in_pool: number; dismissed: number }>();
  for (let d = start.getTime(); d < end.getTime(); d += DAY_MS) {
    const day = new Date(d).toISOString().slice(0, 10);
    days.set(day, { day, total: 0, new: 0, in_pool: 0, dismissed: 0 });
  }
  const byStatus = { new: 0, in_pool: 0, dismissed: 0 };
  const stored = await storeLeadFlags(db, q.agentId, { start, end }, COUNT_SCAN);
  for (const lead of await leadRows(db, q, { start: stored.coveredFrom ?? start, end })) {
    const row = days.get(lead.startedAt.toISOString().slice(0, 10));
    if (row) {
      row.total++;
      row[lead.status]++;
    }
    byStatus[lead.status]++;
  }
  return {
    from,
    to,
    total: byStatus.new + byStatus.in_pool + byStatus.dismissed,
    byStatus,
    days: [...days.values()],
    scanned: stored.evaluated,
    complete: stored.coveredFrom === null,
    coveredFrom: stored.coveredFrom,
  };
}

export async function dismissLead(
  db: Db,
  traceId: string,
  input: z.input<typeof DismissLeadInput>,
  actor: Principal | null,
) {
  const data = DismissLeadInput.parse(input);
  await onlineTrace(db, traceId);
  const row = await db.leadDismissal.upsert({
    where: { traceId },
    create: { traceId, reason: data.reason, dismissedById: actorRef(actor) },
    update: { reason: data.reason, dismissedById: actorRef(actor), dismissedAt: new Date() },
  });
  return {
    traceId,
    status: "dismissed" as const,
    dismissal: { reason: row.reason, by: row.dismissedById, at: row.dismissedAt },
  };
}

/** Undo a dismissal (the lead is new again). */
export async function restoreLead(db: Db, traceId: string) {
  await onlineTrace(db, traceId);
  await db.leadDismissal.deleteMany({ where: { traceId } });
  return { traceId, status: "new" as const };
}

// ---------------------------------------------------------------- what the background evaluation reads

/** The lead rules' default low score (a feedback score at or below 2 of 5), as the list's default maxScore. */
const DEFAULT_MAX_SCORE = 2;
const rulesOf = (agentId: string, signal?: LeadSignal) =>
  ({ agentId, maxScore: DEFAULT_MAX_SCORE, ...(signal ? { signal } : {}) }) as Filters;

/**
 * The lead signals of these online traces of the agent now, by the same rules as the list (default maxScore): the
 * traces that are leads, with their signals. What the online worker records when an answer is stored, judged or
 * scored (server/eval/online/watch.ts).
 */
export async function leadSignalsOf(db: Db, agentId: string, traceIds: string[]): Promise<Map<string, LeadSignal[]>> {
  const out = new Map<string, LeadSignal[]>();
  if (!traceIds.length) return out;
  // the guardrail signals the rules found are stored on the traces as the counts store them (`storeLeadFlags`), so
  // the counts per day do not put these traces through the rules again
  const ids: string[] = [];
  const flags: string[] = [];
  for await (const step of scanLeads(db, rulesOf(agentId), { start: null, end: null }, null, {
    maxScan: traceIds.length,
    batch: Math.min(traceIds.length, BATCH),
    ids: traceIds,
  })) {
    ids.push(step.cursor.id);
    flags.push((step.lead?.flags ?? []).map((f) => f.flag).join(","));
    if (step.lead) out.set(step.lead.trace.id, step.lead.signals);
  }
  await stampLeadFlags(db, ids, flags);
  return out;
}

export type LeadShare = { answers: number; leads: string[]; from: Date | null; to: Date | null };

/** The agent's last `lastN` finished online answers, and the leads among them (with `signal`, when given), newest first. */
export async function leadsAmongLast(db: Db, agentId: string, lastN: number, signal?: LeadSignal): Promise<LeadShare> {
  const leads: string[] = [];
  let answers = 0;
  let from: Date | null = null;
  let to: Date | null = null;
  // every answer is scanned (a signal in the query would skip the others): the signal is checked on each lead
  for await (const step of scanLeads(db, rulesOf(agentId), { start: null, end: null }, null, {
    maxScan: lastN,
    batch: Math.min(lastN, BATCH),
  })) {
    answers = step.scanned;
    to ??= step.cursor.at;
    from = step.cursor.at;
    if (step.lead && (!signal || step.lead.signals.includes(signal))) leads.push(step.lead.trace.id);
  }
  return { answers, leads, from, to };
}

/** The agent's finished online answers since `since`, and the leads among them (with `signal`), newest first. */
export async function leadsSince(db: Db, agentId: string, since: Date, signal?: LeadSignal): Promise<LeadShare> {
  const [count] = await db.$queryRaw<Array<{ n: number; from: Date | null; to: Date | null }>>`
    SELECT count(*)::int AS n, min(t."startedAt") AS "from", max(t."startedAt") AS "to" FROM "Trace" t
    WHERE t."agentId" = ${agentId} AND t."source" = ANY(${[...ONLINE_SOURCES]}::text[]) AND t."status" <> 'running'
      AND t."startedAt" >= ${since}::timestamp`;
  const range = { start: since, end: null };
  const stored = await storeLeadFlags(db, agentId, range, COUNT_SCAN);
  const leads = (await leadRows(db, rulesOf(agentId, signal), { ...range, start: stored.coveredFrom ?? since })).map(
    (l) => l.id,
  );
  return { answers: count?.n ?? 0, leads, from: count?.from ?? null, to: count?.to ?? null };
}
