/** Reading traces and recording user feedback on online ones. */
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { ApiError, errors } from "../core/errors";
import type { Principal } from "../auth/service";
import { FeedbackInput, TracesQuery, type FeedbackOut, type TraceDetailOut, type TraceOut } from "./schemas";
import { ONLINE_SOURCES, type ExecutionMode, type ExecutionSource, type TraceStep } from "./types";
import { notifyOnlineFeedback } from "./hooks";

export { ONLINE_SOURCES };

const summarySelect = {
  id: true,
  agentId: true,
  workflowVersionId: true,
  source: true,
  mode: true,
  status: true,
  sessionId: true,
  input: true,
  answer: true,
  payload: true,
  error: true,
  cache: true,
  llmProvider: true,
  promptTokens: true,
  completionTokens: true,
  durationMs: true,
  startedAt: true,
  finishedAt: true,
  createdById: true,
  otelTraceId: true,
  feedback: { select: { score: true, createdAt: true }, orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.TraceSelect;

type SummaryRow = Prisma.TraceGetPayload<{ select: typeof summarySelect }>;
type TraceOutT = z.output<typeof TraceOut>;

/** The synthetic step a cache hit records: it points at the trace whose answer was reused. */
export function cacheStep(sourceTraceId: string, question: string, startedAt: Date, durationMs: number): TraceStep {
  return {
    nodeId: "cache",
    type: "cache",
    status: "succeeded",
    input: { question },
    output: { sourceTraceId },
    startedAt: startedAt.toISOString(),
    durationMs,
  };
}

/** The trace a cache hit's answer came from (the hit's only step names it), or null when `cache` is not "hit". */
export function cacheSource(cache: string, steps: unknown): string | null {
  if (cache !== "hit" || !Array.isArray(steps)) return null;
  const out = (steps[0] as { output?: { sourceTraceId?: unknown } } | undefined)?.output?.sourceTraceId;
  return typeof out === "string" ? out : null;
}

function toTraceOut(row: SummaryRow, steps?: unknown): TraceOutT {
  const scores = row.feedback.map((f) => f.score);
  const { feedback: _feedback, promptTokens, completionTokens, ...rest } = row;
  return {
    ...rest,
    source: rest.source as ExecutionSource,
    mode: rest.mode as ExecutionMode,
    cache: rest.cache as TraceOutT["cache"],
    payload: (rest.payload ?? null) as Record<string, unknown> | null,
    error: (rest.error ?? null) as TraceOutT["error"],
    startedAt: rest.startedAt.toISOString(),
    finishedAt: rest.finishedAt?.toISOString() ?? null,
    cacheSourceTraceId: cacheSource(rest.cache, steps),
    usage: { promptTokens, completionTokens },
    feedbackSummary: {
      count: scores.length,
      averageScore: scores.length ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100 : null,
      lastScore: scores.at(-1) ?? null,
    },
  };
}

export async function listTraces(
  db: Db,
  query: z.input<typeof TracesQuery>,
): Promise<{ items: TraceOutT[]; nextCursor: string | null }> {
  const q = TracesQuery.parse(query);
  const score =
    q.minScore !== undefined || q.maxScore !== undefined ? { score: { gte: q.minScore, lte: q.maxScore } } : undefined;
  const rows = await db.trace.findMany({
    where: {
      agentId: q.agentId,
      source: q.source,
      status: q.status,
      sessionId: q.sessionId,
      ...(score ? { feedback: { some: score } } : {}),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: summarySelect,
  });
  const page = rows.slice(0, q.limit);
  // Steps are heavy; only cache hits need theirs (one tiny step naming the original trace).
  const hits = page.filter((r) => r.cache === "hit").map((r) => r.id);
  const hitSteps = hits.length
    ? new Map(
        (await db.trace.findMany({ where: { id: { in: hits } }, select: { id: true, steps: true } })).map((r) => [
          r.id,
          r.steps,
        ]),
      )
    : new Map<string, unknown>();
  return {
    items: page.map((row) => toTraceOut(row, hitSteps.get(row.id))),
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getTrace(db: Db, id: string): Promise<z.output<typeof TraceDetailOut>> {
  const row = await db.trace.findUnique({
    where: { id },
    select: { ...summarySelect, steps: true, feedback: { orderBy: { createdAt: "asc" } } },
  });
  if (!row) throw errors.notFound(`Trace ${id}`);
  const { steps, feedback, ...rest } = row;
  return {
    ...toTraceOut({ ...rest, feedback }, steps),
    steps: (Array.isArray(steps) ? steps : []) as unknown as z.output<typeof TraceDetailOut>["steps"],
    feedback: feedback.map((f) => ({ ...f, createdAt: f.createdAt.toISOString() })),
  };
}

/** Records a user's 1..5 score on an online (chat/api) trace. Each call adds a row. */
export async function addFeedback(
  db: Db,
  traceId: string,
  input: z.input<typeof FeedbackInput>,
  actor: Principal | null,
): Promise<z.output<typeof FeedbackOut>> {
  const data = FeedbackInput.parse(input);
  const trace = await db.trace.findUnique({ where: { id: traceId }, select: { source: true, agentId: true } });
  if (!trace) throw errors.notFound(`Trace ${traceId}`);
  if (!ONLINE_SOURCES.includes(trace.source as ExecutionSource)) {
    throw new ApiError(
      409,
      "TRACE_NOT_ONLINE",
      `Feedback is recorded on online traces (source ${ONLINE_SOURCES.join(" or ")}); this one is ${trace.source}`,
    );
  }
  const row = await db.traceFeedback.create({
    data: { traceId, score: data.score, comment: data.comment ?? "", createdById: actor?.userId ?? null },
  });
  if (trace.agentId) notifyOnlineFeedback({ agentId: trace.agentId, traceId, score: data.score });
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** The error stored on a trace whose process ended before the run did. */
export const INTERRUPTED_ERROR = {
  code: "INTERRUPTED",
  message: "The server stopped before this run finished (restart or crash); its result is unknown.",
};

/**
 * Traces left `running` by a process that died mid-run become `interrupted`, so lists and reports never show
 * phantom running work. `startedBefore` bounds which ones: on the embedded database only this process runs work, so
 * at start-up every running trace is orphaned (`new Date()`); on a database server other instances may be running
 * theirs, so only traces older than the longest a run can take count (see `staleRunningCutoff`).
 */
export async function markInterruptedTraces(db: Db, startedBefore: Date): Promise<number> {
  const now = new Date();
  const r = await db.trace.updateMany({
    where: { status: "running", startedAt: { lt: startedBefore } },
    data: { status: "interrupted", finishedAt: now, error: INTERRUPTED_ERROR },
  });
  return r.count;
}

/** A running trace older than this cannot belong to a live run: the longest run time limit plus a minute. */
export function staleRunningCutoff(longestRunMs: number, now = Date.now()): Date {
  return new Date(now - longestRunMs - 60_000);
}
