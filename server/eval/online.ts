import { z } from "zod";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { type Principal, actorLabels, actorRef } from "../auth/service";
import { ApiError, errors, parseInput } from "../core/errors";
import { IdParam, dayBounds, dayRangeOf, dayRangeQuery } from "../core/params";
import { requireAgent } from "../agents/service";
import { ONLINE_SOURCES, messageField, workflowOf } from "../runtime";
import type { Workflow } from "../workflow";
import { evalErrors, isFrozenViolation, isUniqueViolation } from "./errors";
import { compactName, computeFlags, type StepLike } from "./guardrails";
import { EVAL_LIMITS } from "./limits";
import {
  CreateVersionInput,
  LEAD_SIGNALS,
  LEAD_STATUSES,
  type GuardrailFlag,
  type LeadStatus,
  type Tier,
} from "./schemas";
import { createVersionTx, sampleOut, sampleSelect } from "./sets";

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
 * `leadsPerDay` counts the leads of a whole time range by day and status (bounded by COUNT_SCAN traces).
 *
 * Pool: `addTraceToPool` turns an online trace into a sample of a regression-pool set (never a golden set): the
 * question is the user's message (an earlier conversation of the session becomes a script whose earlier turns are
 * preset), the online answer is kept as `referenceAnswer`, `sourceTraceId` is the trace. It goes into the set's draft
 * (a new draft copied from the latest version when that one is frozen, created under the same lock). A trace already in
 * any version of the set is not added again (200, duplicate: true); adds to one set are serialised by a row lock on
 * the set, and the database's unique (version, source trace) backs it. `confirmSample` records that a person confirmed
 * the candidate (kept when later versions copy it).
 */
const FLAG_SIGNALS: readonly GuardrailFlag[] = ["execution_error", "empty_items", "no_query"];
export const LEAD_SCAN = 2000;
/** Traces a per-day count looks at, newest first, at most (the answer says whether the range was covered). */
export const COUNT_SCAN = 20_000;
const BATCH = 200;
/** The counts read candidates only (light columns), this many a round trip. */
const COUNT_BATCH = 1000;
const DAY_MS = 86_400_000;

const leadFilters = {
  agentId: z.string().min(1).max(64),
  maxScore: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .default(2)
    .meta({ description: "A feedback score at or below this is a lead (default 2)" }),
  signal: z.enum(LEAD_SIGNALS).optional(),
  status: z
    .enum(LEAD_STATUSES)
    .optional()
    .meta({ description: "new, in_pool (a regression-pool sample has the trace) or dismissed" }),
};
/** The leads of a range of days (open: a missing side is unbounded), a page at a time. */
export const LeadsQuery = dayRangeQuery(
  {
    ...leadFilters,
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(80).optional().meta({ description: "nextCursor of the previous page" }),
  },
  { bounded: false },
);
/** The same filters as the list; the range is bounded (the last 30 days by default, at most 366). */
export const LeadCountsQuery = dayRangeQuery(leadFilters, { bounded: true });

export const DismissLeadInput = z.object({ reason: z.string().trim().min(1).max(EVAL_LIMITS.maxBasisChars) });
export const TraceParam = z.object({ traceId: z.string().min(1).max(64) });

export const PoolAddInput = z.object({
  traceId: z.string().min(1).max(64),
  question: z
    .string()
    .trim()
    .min(1)
    .max(EVAL_LIMITS.maxQuestionChars)
    .optional()
    .meta({ description: "Default: the user's message of the trace" }),
  expectedPoints: z
    .array(z.string().trim().min(1).max(EVAL_LIMITS.maxPointChars))
    .max(EVAL_LIMITS.maxPointsPerSample)
    .optional(),
  classification: z.string().trim().max(EVAL_LIMITS.maxClassificationChars).optional(),
});
export const PoolParams = IdParam;

type Turn = { role: "user" | "assistant"; content: string; preset: boolean };

const cursorOf = (startedAt: Date, id: string) => `${startedAt.toISOString()}_${id}`;
function parseCursor(c: string | undefined): { at: Date; id: string } | null {
  if (!c) return null;
  const i = c.indexOf("_");
  const at = new Date(c.slice(0, i));
  if (i < 0 || Number.isNaN(at.getTime()))
    throw errors.badRequest("REQUEST_INVALID", "cursor is not a nextCursor of this list");
  return { at, id: c.slice(i + 1) };
}

function userMessage(input: unknown, workflow: Workflow | null): string {
  const obj = (input ?? {}) as Record<string, unknown>;
  const field = workflow ? messageField(workflow) : undefined;
  if (field && typeof obj[field] === "string") return obj[field] as string;
  const firstString = Object.values(obj).find((v) => typeof v === "string");
  return typeof firstString === "string" ? firstString : JSON.stringify(obj);
}

/** The workflow of a trace's version (runtime's `workflowOf`, cached per version id), or null without one. */
function versionWorkflow(db: Db, versionId: string | null): Promise<Workflow | null> {
  return versionId ? workflowOf(db, versionId).catch(() => null) : Promise.resolve(null);
}

/** What the scan reads of a trace: light columns only (the leads found get their input, answer and payload after). */
type TraceRow = {
  id: string;
  startedAt: Date;
  status: string;
  mode: string;
  sessionId: string | null;
  createdById: string | null;
  /** pipeline_live traces only (the one tier whose empty item list is a signal) */
  payload: unknown;
  /** the http steps only (the only steps the guardrail rules look at) */
  steps: unknown;
  error: unknown;
  workflowVersionId: string | null;
  score: number | null;
  comment: string | null;
  leadStatus: LeadStatus;
};

/**
 * Earlier turns of each trace's session (same agent and caller, source chat), oldest first: the conversation each
 * message belongs to, for all the traces in one query (the last `maxScriptTurns / 2 - 1` turns before each).
 */
async function conversationsBefore(
  db: Db,
  traces: Array<Pick<TraceRow, "id" | "sessionId"> & { workflow: Workflow | null }>,
  agentId: string,
): Promise<Map<string, Turn[]>> {
  const out = new Map<string, Turn[]>(traces.map((t) => [t.id, []]));
  const inSession = traces.filter((t) => t.sessionId);
  if (!inSession.length) return out;
  const rows = await db.$queryRaw<Array<{ leadId: string; input: unknown; answer: string | null }>>`
    SELECT t."id" AS "leadId", p."input", p."answer"
    FROM "Trace" t
    CROSS JOIN LATERAL (
      SELECT e."id", e."input", e."answer", e."startedAt" FROM "Trace" e
      WHERE e."agentId" = ${agentId} AND e."sessionId" = t."sessionId" AND e."source" = 'chat'
        AND e."createdById" IS NOT DISTINCT FROM t."createdById" AND e."startedAt" < t."startedAt" AND e."id" <> t."id"
      ORDER BY e."startedAt" DESC, e."id" DESC
      LIMIT ${Math.floor(EVAL_LIMITS.maxScriptTurns / 2) - 1}
    ) p
    WHERE t."id" = ANY(${inSession.map((t) => t.id)}::text[])
    ORDER BY t."id", p."startedAt" ASC, p."id" ASC`;
  const workflowOfLead = new Map(inSession.map((t) => [t.id, t.workflow]));
  for (const r of rows) {
    const turns = out.get(r.leadId)!;
    turns.push({
      role: "user",
      content: userMessage(r.input, workflowOfLead.get(r.leadId) ?? null).slice(0, EVAL_LIMITS.maxTurnChars),
      preset: true,
    });
    if (r.answer) turns.push({ role: "assistant", content: r.answer.slice(0, EVAL_LIMITS.maxTurnChars), preset: true });
  }
  return out;
}

type Filters = z.output<typeof LeadCountsQuery>;
type Scanned = {
  trace: TraceRow;
  workflow: Workflow | null;
  signals: string[];
  flags: Array<{ flag: string; message: string }>;
};

/**
 * The traces that can be leads, as SQL (the counts per day scan only these): a superset of what `leadOf` decides with
 * the guardrail rules (computeFlags stays the one rule; this only keeps traces that cannot be a lead in the database).
 * Per signal: low_score a score at or below maxScore; execution_error a status other than succeeded or an error;
 * no_query (not at tier invoke) an http step or a version with http nodes, and no http step that succeeded with
 * `ok` not false; empty_items (pipeline_live) an empty list (`[]`) in a succeeded http step or in the payload.
 * Unit-tested to count exactly what the unfiltered scan finds (server/eval/online.test.ts).
 */
function candidateSql(q: Filters, httpVersions: string[]): Prisma.Sql {
  const steps = Prisma.sql`jsonb_array_elements(CASE WHEN jsonb_typeof(t."steps") = 'array' THEN t."steps" ELSE '[]'::jsonb END)`;
  const anyHttp = Prisma.sql`EXISTS (SELECT 1 FROM ${steps} st WHERE st->>'type' = 'http')`;
  const queried = (extra: Prisma.Sql) =>
    Prisma.sql`EXISTS (SELECT 1 FROM ${steps} st WHERE st->>'type' = 'http' AND st->>'status' = 'succeeded' AND (st->'output'->'ok') IS DISTINCT FROM 'false'::jsonb ${extra})`;
  const bySignal: Record<(typeof LEAD_SIGNALS)[number], Prisma.Sql> = {
    low_score: Prisma.sql`f."score" <= ${q.maxScore}`,
    execution_error: Prisma.sql`(t."status" <> 'succeeded' OR (t."error" IS NOT NULL AND t."error" <> 'null'::jsonb))`,
    no_query: Prisma.sql`(t."mode" <> 'invoke' AND (t."workflowVersionId" = ANY(${httpVersions}::text[]) OR ${anyHttp}) AND NOT ${queried(Prisma.empty)})`,
    empty_items: Prisma.sql`(t."mode" = 'pipeline_live' AND (${queried(Prisma.sql`AND strpos(st::text, '[]') > 0`)} OR (t."payload" IS NOT NULL AND strpos(t."payload"::text, '[]') > 0)))`,
  };
  const wanted = q.signal ? [bySignal[q.signal]] : Object.values(bySignal);
  return Prisma.sql`AND (${Prisma.join(wanted, " OR ")})`;
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
 * steps the guardrail rules look at), the payload of pipeline_live traces, no input or answer. `candidates` (the
 * counts): only traces that can be leads leave the database (`candidateSql`). Stops after `maxScan` traces or when
 * the range is exhausted.
 */
async function* scanLeads(
  db: Db,
  q: Filters,
  range: { start: Date | null; end: Date | null },
  after: { at: Date; id: string } | null,
  opts: { maxScan: number; batch: number; candidates: boolean },
) {
  let cursor = after;
  let scanned = 0;
  const statusSql = Prisma.sql`(CASE
      WHEN EXISTS (SELECT 1 FROM "EvalSample" s JOIN "EvalSetVersion" v ON v."id" = s."setVersionId" JOIN "EvalSet" e ON e."id" = v."setId"
                   WHERE s."sourceTraceId" = t."id" AND e."kind" = 'regression_pool') THEN 'in_pool'
      WHEN EXISTS (SELECT 1 FROM "LeadDismissal" d WHERE d."traceId" = t."id") THEN 'dismissed'
      ELSE 'new' END)`;
  const candidates = opts.candidates ? candidateSql(q, await httpVersionIds(db, q.agentId)) : Prisma.empty;
  while (scanned < opts.maxScan) {
    const size = Math.min(opts.batch, opts.maxScan - scanned);
    const batch = await db.$queryRaw<TraceRow[]>`
      SELECT t."id", t."startedAt", t."status"::text AS "status", t."mode"::text AS "mode", t."sessionId", t."createdById",
          CASE WHEN t."mode" = 'pipeline_live' THEN t."payload" END AS "payload",
          (SELECT jsonb_agg(st) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(t."steps") = 'array' THEN t."steps" ELSE '[]'::jsonb END) st WHERE st->>'type' = 'http') AS "steps",
          t."error", t."workflowVersionId", f."score", f."comment", ${statusSql} AS "leadStatus"
        FROM "Trace" t
        LEFT JOIN LATERAL (SELECT "score", "comment" FROM "TraceFeedback" WHERE "traceId" = t."id" ORDER BY "score" ASC, "createdAt" DESC LIMIT 1) f ON true
        WHERE t."agentId" = ${q.agentId} AND t."source" = ANY(${[...ONLINE_SOURCES]}::text[]) AND t."status" <> 'running'
          ${range.start ? Prisma.sql`AND t."startedAt" >= ${range.start}::timestamp` : Prisma.empty}
          ${range.end ? Prisma.sql`AND t."startedAt" < ${range.end}::timestamp` : Prisma.empty}
          ${cursor ? Prisma.sql`AND (t."startedAt", t."id") < (${cursor.at}::timestamp, ${cursor.id})` : Prisma.empty}
          ${q.signal === "low_score" ? Prisma.sql`AND f."score" <= ${q.maxScore}` : Prisma.empty}
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
  const signals: string[] = [];
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
  for (const f of flags) signals.push(f.flag);
  if (!signals.length || (q.signal && !signals.includes(q.signal))) return null;
  return { trace: t, workflow, signals, flags };
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
    candidates: false,
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
  const [heavy, conversations, dismissals, pooled] = await Promise.all([
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
  ]);
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
  let scanned = 0;
  let last: Date | null = null;
  for await (const step of scanLeads(db, q, { start, end }, null, {
    maxScan: COUNT_SCAN,
    batch: COUNT_BATCH,
    candidates: true,
  })) {
    scanned = step.scanned;
    last = step.cursor.at;
    if (!step.lead) continue;
    const status = step.lead.trace.leadStatus;
    const row = days.get(step.lead.trace.startedAt.toISOString().slice(0, 10));
    if (row) {
      row.total++;
      row[status]++;
    }
    byStatus[status]++;
  }
  const complete = scanned < COUNT_SCAN;
  return {
    from,
    to,
    total: byStatus.new + byStatus.in_pool + byStatus.dismissed,
    byStatus,
    days: [...days.values()],
    scanned,
    complete,
    coveredFrom: complete || !last ? null : last,
  };
}

async function onlineTrace(db: Db | Prisma.TransactionClient, traceId: string) {
  const t = await db.trace.findUnique({
    where: { id: traceId },
    select: {
      id: true,
      agentId: true,
      source: true,
      startedAt: true,
      sessionId: true,
      createdById: true,
      input: true,
      answer: true,
      workflowVersionId: true,
    },
  });
  if (!t) throw errors.notFound(`Trace ${traceId}`);
  if (!(ONLINE_SOURCES as readonly string[]).includes(t.source)) throw evalErrors.traceNotOnline(t.source);
  return t;
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

export async function addTraceToPool(
  db: Db,
  setId: string,
  input: z.input<typeof PoolAddInput>,
  actor: Principal | null,
) {
  const data = PoolAddInput.parse(input);
  const set = await db.evalSet.findUnique({
    where: { id: setId },
    select: { id: true, name: true, kind: true, agentId: true },
  });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  if (set.kind !== "regression_pool") throw evalErrors.notPool(set.name, set.kind);
  const trace = await onlineTrace(db, data.traceId);
  if (trace.agentId !== set.agentId) throw evalErrors.traceOtherAgent();
  const workflow = await versionWorkflow(db, trace.workflowVersionId);
  const message = userMessage(trace.input, workflow);
  const conversation =
    (await conversationsBefore(db, [{ id: trace.id, sessionId: trace.sessionId, workflow }], set.agentId)).get(
      trace.id,
    ) ?? [];

  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        // one add at a time per set: the duplicate check and the new draft below cannot race
        await tx.$queryRaw`SELECT "id" FROM "EvalSet" WHERE "id" = ${setId} FOR UPDATE`;
        const existing = await tx.evalSample.findFirst({
          where: { sourceTraceId: trace.id, setVersion: { setId } },
          orderBy: { setVersion: { version: "desc" } },
          select: { ...sampleSelect, setVersion: { select: { version: true } } },
        });
        if (existing) {
          const { setVersion, ...sample } = existing;
          return {
            status: 200 as const,
            body: { duplicate: true, version: setVersion.version, sample: sampleOut(sample), likelyDuplicateOf: null },
          };
        }
        // the latest version is frozen (or there is none): a new draft copied from it, under the same lock, so
        // concurrent adds after a freeze make one draft
        const latest = await tx.evalSetVersion.findFirst({
          where: { setId },
          orderBy: { version: "desc" },
          select: { id: true, version: true, status: true },
        });
        const draft =
          latest && latest.status === "draft"
            ? latest
            : await createVersionTx(
                tx,
                setId,
                CreateVersionInput.parse({ note: "regression pool: new online samples" }),
                actor,
              );
        const count = await tx.evalSample.count({ where: { setVersionId: draft.id } });
        if (count >= EVAL_LIMITS.maxSamplesPerVersion) {
          throw evalErrors.limit(
            `A version holds at most ${EVAL_LIMITS.maxSamplesPerVersion} samples`,
            "maxSamplesPerVersion",
            EVAL_LIMITS.maxSamplesPerVersion,
          );
        }
        const question = (data.question ?? message).slice(0, EVAL_LIMITS.maxQuestionChars);
        const others = await tx.evalSample.findMany({
          where: { setVersionId: draft.id },
          select: { key: true, question: true, position: true },
        });
        const norm = compactName(question);
        const likely = others.find((o) => compactName(o.question) === norm);
        const position = others.reduce((m, o) => Math.max(m, o.position), 0) + 1;
        const key = uniqueKey(`t-${trace.id.slice(-8)}`, new Set(others.map((o) => o.key)));
        const script: Turn[] | null = conversation.length
          ? [...conversation, { role: "user", content: question, preset: false }]
          : null;
        const row = await tx.evalSample.create({
          data: {
            setVersionId: draft.id,
            key,
            position,
            question,
            expectedPoints: data.expectedPoints ?? [],
            classification: data.classification ?? "",
            ...(script ? { script } : {}),
            sourceTraceId: trace.id,
            referenceAnswer: trace.answer,
            addedById: actorRef(actor),
          },
          select: sampleSelect,
        });
        return {
          status: 201 as const,
          body: {
            duplicate: false,
            version: draft.version,
            sample: sampleOut(row),
            likelyDuplicateOf: likely ? likely.key : null,
          },
        };
      });
    } catch (e) {
      // a version created elsewhere at the same moment (POST .../versions) took the number: try again
      if (!(isUniqueViolation(e) && attempt < 3)) throw e;
    }
  }
}

export const ConfirmParams = IdParam;

/**
 * A person confirms that an online-sourced candidate belongs in the pool (the board's "Confirm"). Confirming is a
 * property of the sample's trace in the pool: `confirmedAt` and `confirmedById` are written on every draft sample of
 * the set with that trace (there may be more than one draft) and new drafts copy it (`createVersionTx`). Regression-pool
 * drafts only (a golden set: 409 SET_NOT_REGRESSION_POOL; a frozen version: 409 SET_VERSION_FROZEN). Idempotent: the
 * first confirmation is kept.
 */
export async function confirmSample(db: Db, sampleId: string, actor: Principal | null) {
  const found = await poolSample(db, sampleId);
  if (found.sample.confirmedAt) return sampleOut(found.sample);
  return writeConfirmation(db, found, { confirmedAt: new Date(), confirmedById: actorRef(actor) });
}

/**
 * Takes a confirmation back (the sample is a candidate again), on every draft of the set with the trace. Once a frozen
 * version holds the trace it is in the pool for good (confirmed, or taken in by that freeze): 409 SET_VERSION_FROZEN
 * (remove the sample from the draft instead).
 */
export async function unconfirmSample(db: Db, sampleId: string) {
  const found = await poolSample(db, sampleId);
  const { sample, setId } = found;
  const frozenIn = sample.sourceTraceId
    ? await db.evalSample.findFirst({
        where: { sourceTraceId: sample.sourceTraceId, setVersion: { setId, status: "frozen" } },
        orderBy: { setVersion: { version: "asc" } },
        select: { setVersion: { select: { version: true } } },
      })
    : null;
  if (frozenIn) {
    throw new ApiError(
      409,
      "SET_VERSION_FROZEN",
      `${sample.key} is in frozen version ${frozenIn.setVersion.version} of the pool, so it stays in the pool: remove it from this draft instead of taking the confirmation back`,
    );
  }
  if (!sample.confirmedAt) return sampleOut(sample);
  return writeConfirmation(db, found, { confirmedAt: null, confirmedById: null });
}

async function poolSample(db: Db, sampleId: string) {
  const s = await db.evalSample.findUnique({
    where: { id: sampleId },
    select: {
      ...sampleSelect,
      setVersion: {
        select: { version: true, status: true, setId: true, set: { select: { name: true, kind: true } } },
      },
    },
  });
  if (!s) throw errors.notFound(`Sample ${sampleId}`);
  if (s.setVersion.set.kind !== "regression_pool")
    throw evalErrors.notPool(s.setVersion.set.name, s.setVersion.set.kind);
  if (s.setVersion.status === "frozen") throw evalErrors.frozen(`Version ${s.setVersion.version}`);
  const { setVersion, ...sample } = s;
  return { sample, versionNo: setVersion.version, setId: setVersion.setId };
}

/** The sample and every other draft sample of its set with the same trace (one confirmation per trace in the pool). */
async function writeConfirmation(
  db: Db,
  { sample, versionNo, setId }: Awaited<ReturnType<typeof poolSample>>,
  data: { confirmedAt: Date | null; confirmedById: string | null },
) {
  try {
    await db.evalSample.updateMany({
      where: sample.sourceTraceId
        ? {
            OR: [
              { id: sample.id },
              {
                sourceTraceId: sample.sourceTraceId,
                setVersion: { setId, status: "draft" },
                confirmedAt: data.confirmedAt ? null : { not: null },
              },
            ],
          }
        : { id: sample.id },
      data,
    });
    return sampleOut(await db.evalSample.findUniqueOrThrow({ where: { id: sample.id }, select: sampleSelect }));
  } catch (e) {
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${versionNo}`); // frozen meanwhile
    throw e;
  }
}

function uniqueKey(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

// ---------------------------------------------------------------- the board

export const BOARD_STAGES = [
  "candidate",
  "confirmed",
  "expectations",
  "frozen",
  "in_run",
  "bad_case",
  "verified",
] as const;
export type BoardStage = (typeof BOARD_STAGES)[number];
export const BoardQuery = z.object({ agentId: z.string().min(1).max(64) });

type HistoryEntry = {
  kind: "added" | "confirmed" | "expectations" | "frozen" | "run" | "bad_case" | "verified";
  at: Date | null;
  by: string | null;
  version?: number;
  points?: number;
  run?: { id: string; shortId: string };
  verdict?: "pass" | "fail" | null;
  status?: string;
  /** frozen: the sample was not confirmed when this freeze took it into the pool */
  unconfirmed?: boolean;
};

/**
 * The online loop as one board: every online-sourced sample of the agent's regression pools (by set and key, in its
 * newest version) with the stage of its way through the loop:
 *   candidate (added to a draft, not confirmed) -> confirmed (a person confirmed it belongs in the pool) ->
 *   expectations (confirmed, with expected points) -> frozen (in frozen version N, not in a run yet) -> in_run (its
 *   latest run R and verdict) -> bad_case (a Bad Case not verified yet) -> verified (its Bad Case was verified by a
 *   later run).
 * Once in a run, the stage comes from the sample's LATEST run item: its own Bad Case when it has one; otherwise an
 * earlier Bad Case still open keeps the sample in bad_case (the card shows the latest run's verdict: passed -> verify
 * it); an earlier verified Bad Case shows verified only while the latest run passes it (a later fail is in_run again,
 * fail: a regression, ready for a new Bad Case). Each card carries its history (added, confirmed, expectations, frozen
 * in vN, each run's verdict, the Bad Case and its verifying run) and links (source trace, annotation item, the
 * comparison of the Bad Case's run with the latest run).
 */
export async function loopBoard(db: Db, query: z.input<typeof BoardQuery>) {
  const q = BoardQuery.parse(query);
  await requireAgent(db, q.agentId);
  const samples = await db.evalSample.findMany({
    where: { sourceTraceId: { not: null }, setVersion: { set: { agentId: q.agentId, kind: "regression_pool" } } },
    select: {
      id: true,
      key: true,
      question: true,
      expectedPoints: true,
      sourceTraceId: true,
      addedById: true,
      confirmedAt: true,
      confirmedById: true,
      createdAt: true,
      setVersion: {
        select: {
          id: true,
          version: true,
          status: true,
          frozenAt: true,
          frozenById: true,
          setId: true,
          set: { select: { name: true } },
        },
      },
    },
    take: 5000,
  });
  type S = (typeof samples)[number];
  const byKey = new Map<string, S[]>();
  for (const s of samples) {
    const k = `${s.setVersion.setId}\u0000${s.key}`;
    byKey.set(k, [...(byKey.get(k) ?? []), s]);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.setVersion.version - b.setVersion.version);
  const keys = [...byKey.values()].map((list) => list.at(-1)!);
  const items = keys.length
    ? await db.evalRunItem.findMany({
        where: {
          sample: {
            key: { in: [...new Set(keys.map((k) => k.key))] },
            setVersion: { setId: { in: [...new Set(keys.map((k) => k.setVersion.setId))] } },
          },
        },
        orderBy: [{ run: { createdAt: "desc" } }, { runId: "desc" }],
        select: {
          id: true,
          status: true,
          verdict: true,
          sample: { select: { key: true, setVersion: { select: { setId: true, version: true } } } },
          run: { select: { id: true, shortId: true, status: true, createdAt: true, rerunOfId: true } },
          badCase: {
            select: {
              id: true,
              status: true,
              verifiedRunId: true,
              createdAt: true,
              createdById: true,
              updatedAt: true,
            },
          },
        },
        take: 20_000,
      })
    : [];
  type I = (typeof items)[number];
  const itemsOf = new Map<string, I[]>();
  for (const i of items) {
    const k = `${i.sample.setVersion.setId}\u0000${i.sample.key}`;
    itemsOf.set(k, [...(itemsOf.get(k) ?? []), i]);
  }
  const verifyingIds = [
    ...new Set(items.flatMap((i) => [i.badCase?.verifiedRunId, i.run.rerunOfId]).filter((r): r is string => !!r)),
  ];
  const shortIds = new Map([
    ...items.map((i) => [i.run.id, i.run.shortId] as const),
    ...(verifyingIds.length
      ? (await db.evalRun.findMany({ where: { id: { in: verifyingIds } }, select: { id: true, shortId: true } })).map(
          (r) => [r.id, r.shortId] as const,
        )
      : []),
  ]);
  const labels = await actorLabels(db, [
    ...samples.flatMap((s) => [s.addedById, s.confirmedById, s.setVersion.frozenById]),
    ...items.map((i) => i.badCase?.createdById),
  ]);
  const label = (ref: string | null | undefined) => (ref ? (labels.get(ref) ?? ref) : null);

  const cards = keys.map((s) => {
    const k = `${s.setVersion.setId}\u0000${s.key}`;
    const versions = byKey.get(k)!;
    const runItems = itemsOf.get(k) ?? [];
    const latest = runItems[0] ?? null;
    // the Bad Case that speaks for the sample: the latest item's own, else the newest earlier one
    const caseItem = latest?.badCase ? latest : (runItems.find((i) => i.badCase) ?? null);
    const badCase = caseItem?.badCase ?? null;
    const points = (s.expectedPoints as string[]) ?? [];
    const first = versions[0]!;
    const firstFrozen = versions.find((v) => v.setVersion.status === "frozen");
    // confirming is a property of the trace in the pool: a person's confirmation in any version, or a freeze that took
    // it in unconfirmed ("Freeze with N unconfirmed"); either way later drafts never ask for it again
    const byPerson =
      versions.filter((v) => v.confirmedAt).sort((a, b) => a.confirmedAt!.getTime() - b.confirmedAt!.getTime())[0] ??
      null;
    const frozenUnconfirmed =
      !!firstFrozen &&
      !(byPerson && firstFrozen.setVersion.frozenAt && byPerson.confirmedAt! <= firstFrozen.setVersion.frozenAt);
    const confirmedVia = byPerson ? ("person" as const) : firstFrozen ? ("freeze" as const) : null;
    const confirmed = confirmedVia !== null;
    let stage: BoardStage;
    if (latest) {
      if (latest.badCase) stage = latest.badCase.status === "verified" ? "verified" : "bad_case";
      else if (badCase && badCase.status !== "verified") stage = "bad_case";
      else if (badCase && latest.verdict === "pass") stage = "verified";
      else stage = "in_run";
    } else if (s.setVersion.status === "frozen") stage = "frozen";
    else stage = !confirmed ? "candidate" : points.length ? "expectations" : "confirmed";

    const history: HistoryEntry[] = [
      { kind: "added", at: first.createdAt, by: label(first.addedById), version: first.setVersion.version },
    ];
    if (byPerson) history.push({ kind: "confirmed", at: byPerson.confirmedAt, by: label(byPerson.confirmedById) });
    if (points.length) history.push({ kind: "expectations", at: null, by: null, points: points.length });
    if (firstFrozen)
      history.push({
        kind: "frozen",
        at: firstFrozen.setVersion.frozenAt,
        by: label(firstFrozen.setVersion.frozenById),
        version: firstFrozen.setVersion.version,
        ...(frozenUnconfirmed ? { unconfirmed: true } : {}),
      });
    for (const i of [...runItems].reverse().slice(-5)) {
      history.push({
        kind: "run",
        at: i.run.createdAt,
        by: null,
        run: { id: i.run.id, shortId: i.run.shortId },
        verdict: i.verdict,
        version: i.sample.setVersion.version,
      });
      if (i.badCase)
        history.push({
          kind: "bad_case",
          at: i.badCase.createdAt,
          by: label(i.badCase.createdById),
          status: i.badCase.status,
          run: { id: i.run.id, shortId: i.run.shortId },
        });
    }
    for (const i of runItems) {
      const r = i.badCase?.status === "verified" ? i.badCase.verifiedRunId : null;
      if (r)
        history.push({
          kind: "verified",
          at: i.badCase!.updatedAt,
          by: null,
          run: { id: r, shortId: shortIds.get(r) ?? r },
        });
    }
    history.sort((a, b) => (a.at && b.at ? a.at.getTime() - b.at.getTime() : 0));
    return {
      stage,
      setId: s.setVersion.setId,
      setName: s.setVersion.set.name,
      version: s.setVersion.version,
      versionStatus: s.setVersion.status,
      versionId: s.setVersion.id,
      sampleId: s.id,
      key: s.key,
      question: s.question,
      expectedPoints: points.length,
      points,
      confirmed,
      confirmedVia,
      sourceTraceId: s.sourceTraceId!,
      run: latest
        ? {
            id: latest.run.id,
            shortId: latest.run.shortId,
            status: latest.run.status,
            itemId: latest.id,
            itemStatus: latest.status,
            verdict: latest.verdict,
          }
        : null,
      badCase: badCase ? { id: badCase.id, status: badCase.status, runShortId: caseItem!.run.shortId } : null,
      // the Bad Case's run against the latest run; else the latest run against the run it re-ran
      compare:
        caseItem && latest && caseItem.run.id !== latest.run.id
          ? { a: caseItem.run.shortId, b: latest.run.shortId }
          : latest?.run.rerunOfId
            ? { a: shortIds.get(latest.run.rerunOfId) ?? latest.run.rerunOfId, b: latest.run.shortId }
            : null,
      history,
    };
  });
  const order = (c: { stage: BoardStage }) => BOARD_STAGES.indexOf(c.stage);
  cards.sort((a, b) => order(a) - order(b) || a.setName.localeCompare(b.setName) || a.key.localeCompare(b.key));
  const counts = Object.fromEntries(
    BOARD_STAGES.map((st) => [st, cards.filter((c) => c.stage === st).length]),
  ) as Record<BoardStage, number>;
  return { counts, cards, drafts: await draftCounts(db, q.agentId) };
}

/**
 * Every draft version of the agent's regression pools with its online-sourced samples counted exactly (whatever the
 * board shows): how many, and how many are still candidates (what the board's Freeze names before freezing): nobody
 * confirmed their trace in any version of the pool and no frozen version took it in.
 */
async function draftCounts(db: Db, agentId: string) {
  const rows = await db.$queryRaw<
    Array<{
      setId: string;
      setName: string;
      version: number;
      versionId: string;
      online: bigint | number;
      unconfirmed: bigint | number;
    }>
  >`
    SELECT e."id" AS "setId", e."name" AS "setName", v."version", v."id" AS "versionId",
      count(s."id") AS "online",
      count(s."id") FILTER (WHERE s."confirmedAt" IS NULL AND NOT EXISTS (
        SELECT 1 FROM "EvalSample" o JOIN "EvalSetVersion" ov ON ov."id" = o."setVersionId"
        WHERE o."sourceTraceId" = s."sourceTraceId" AND ov."setId" = e."id"
          AND (o."confirmedAt" IS NOT NULL OR ov."status" = 'frozen'))) AS "unconfirmed"
    FROM "EvalSetVersion" v
    JOIN "EvalSet" e ON e."id" = v."setId"
    LEFT JOIN "EvalSample" s ON s."setVersionId" = v."id" AND s."sourceTraceId" IS NOT NULL
    WHERE e."agentId" = ${agentId} AND e."kind" = 'regression_pool' AND v."status" = 'draft'
    GROUP BY e."id", e."name", v."version", v."id"
    ORDER BY e."name", v."version"`;
  return rows.map((r) => ({
    setId: r.setId,
    setName: r.setName,
    version: Number(r.version),
    versionId: r.versionId,
    onlineSamples: Number(r.online),
    unconfirmed: Number(r.unconfirmed),
  }));
}
