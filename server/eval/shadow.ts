import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { type Principal, actorRef } from "../auth/service";
import { ApiError, errors, parseInput } from "../core/errors";
import { IdParam, VersionNumber, dayBounds, dayRangeQuery } from "../core/params";
import {
  addVersionTx,
  publishVersionTx,
  requireAgent,
  validateForProvisioning,
  type ProvisionOptions,
} from "../agents/service";
import { canonicalJson } from "../core/json";
import { cacheSource, executeWorkflow, messageField, workflowOf } from "../runtime";
import { sessionHistory } from "../runtime/service";
import { validateWorkflowWithCode } from "../runtime/validate-code";
import {
  extractTemplateRefs,
  renderTemplate,
  validateWorkflowRequest,
  WorkflowSchema,
  workflowField,
  workflowInvalid,
  type Finding,
  type Workflow,
  type WorkflowNode,
} from "../workflow";

/**
 * Intent shadow (our definition; the spec names the tab only): try a new intent/scene classifier on real traffic before
 * it goes live.
 *
 * A configuration per agent: the candidate (an agent version number, or a draft workflow validated like any other),
 * `liveRef` and `candidateRef` (templates such as `{{detect.result.scene}}`: which node output is "the intent" in the
 * live version and in the candidate), a sample rate and on/off.
 *
 * For each online chat answered by the agent (sampled; an answer served from the chat cache too), the candidate computes
 * its intent in the background: only the part of the candidate workflow the intent needs runs (the nodes `candidateRef`
 * names and their ancestors, ending in a node that outputs `candidateRef`), at tier `pipeline` (http nodes make no
 * request), with a time limit, as a trace of source `shadow` (isolated memory). It is started from the runtime's
 * online-answer hook after the answer is stored, so it never changes or delays what the user gets. The live intent is
 * `liveRef` rendered over the live trace's step outputs (for a cache hit: the trace that produced the cached answer).
 * Both are stored with the trace (`ShadowResult`, one per trace, tagged with the configuration's `candidateKey`). On a
 * server the sampled chats go through the durable queue (`enqueueShadow`, a job of kind `shadow` that any instance's
 * worker runs). Replay runs the candidate over the last N online traces for immediate numbers; the report gives the
 * agreement, per day, the confusion matrix and per-intent counts of the configured candidate's results; the
 * disagreements are paged (`listDisagreements`). Publishing the candidate makes it the live version (a draft is
 * provisioned as a new version first) and turns the shadow off.
 */
export const SHADOW_LIMITS = {
  timeoutMs: 30_000,
  maxReplay: 200,
  replayConcurrency: 4,
  liveConcurrency: 4,
  maxRefChars: 300,
  disagreementsPage: 20,
  maxDisagreementsPage: 100,
  reportFailures: 20,
  /** an agent's sample rate and on/off are re-read at most this often per instance (a change made here applies at once) */
  samplingTtlMs: 2_000,
  /** sampled chats wait at most this long (or until `enqueueBatch` of them) and go to the queue in one insert */
  enqueueFlushMs: 1_000,
  enqueueBatch: 100,
  /** a worker runs at most this many shadow jobs at once (queue eval-shadow), in slots no evaluation run uses */
  inFlightPerInstance: 1,
  /** and each first waits for a quiet event loop: utilisation under this share over idleWindowMs, at most idleWaitMs */
  idleUtilization: 0.5,
  idleWindowMs: 100,
  idleWaitMs: 5_000,
} as const;

const Ref = z
  .string()
  .trim()
  .min(5)
  .max(SHADOW_LIMITS.maxRefChars)
  .regex(/\{\{\s*[A-Za-z0-9_-]+\.[^{}]+\}\}/, {
    message: "must be a template naming a node output, e.g. {{detect.result.scene}}",
  });

export const ShadowConfigInput = z
  .object({
    candidateVersion: VersionNumber.optional().meta({ description: "The candidate is this version of the agent" }),
    candidateWorkflow: workflowField(
      "Or: the candidate is this draft workflow (validated like any other); it wins over candidateVersion",
    ).optional(),
    candidateNote: z.string().trim().max(200).optional().meta({
      description:
        'Where the candidate comes from, for people (e.g. "file candidate.json"); publishing a draft uses it as the new version\'s note',
    }),
    liveRef: Ref.meta({ description: "The intent in the live version's trace, e.g. {{detect.result.scene}}" }),
    candidateRef: Ref.meta({ description: "The intent in the candidate, e.g. {{classify.result.scene}}" }),
    sampleRate: z.number().min(0).max(1).default(1).meta({ description: "Share of online chats shadowed (0..1)" }),
    enabled: z.boolean().default(true),
  })
  .refine((c) => c.candidateVersion !== undefined || c.candidateWorkflow !== undefined, {
    message: "give candidateVersion or candidateWorkflow",
    path: ["candidateVersion"],
  })
  .meta({ id: "ShadowConfigInput", anyOf: [{ required: ["candidateVersion"] }, { required: ["candidateWorkflow"] }] });

export const ShadowParams = z.object({ agentId: IdParam.shape.id });
export const ReplayInput = z.object({ limit: z.number().int().min(1).max(SHADOW_LIMITS.maxReplay).default(50) });
export const ShadowReportQuery = dayRangeQuery({}, { bounded: false });
export const DisagreementsQuery = dayRangeQuery(
  {
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(SHADOW_LIMITS.maxDisagreementsPage)
      .default(SHADOW_LIMITS.disagreementsPage),
    cursor: z.string().min(1).max(64).optional().meta({ description: "nextCursor of the previous page" }),
  },
  { bounded: false },
);

const notConfigured = () =>
  new ApiError(409, "SHADOW_NOT_CONFIGURED", "Configure the shadow first: PUT /api/eval/shadow/{agentId}");

type ConfigRow = {
  agentId: string;
  candidateVersion: number | null;
  candidateWorkflow: unknown;
  candidateNote: string;
  liveRef: string;
  candidateRef: string;
  sampleRate: number;
  enabled: boolean;
  updatedById: string | null;
  updatedAt: Date;
};
function configOut({
  agentId,
  candidateVersion,
  candidateWorkflow,
  candidateNote,
  liveRef,
  candidateRef,
  sampleRate,
  enabled,
  updatedById,
  updatedAt,
}: ConfigRow) {
  return {
    agentId,
    candidateVersion,
    candidateWorkflow: (candidateWorkflow as Workflow | null) ?? null,
    candidateNote,
    liveRef,
    candidateRef,
    sampleRate,
    enabled,
    updatedById,
    updatedAt,
  };
}

export async function getShadowConfig(db: Db, agentId: string) {
  await requireAgent(db, agentId);
  const c = await db.shadowConfig.findUnique({ where: { agentId } });
  return { config: c ? configOut(c) : null };
}

/**
 * Which results belong to a configuration: the candidate's workflow **content** and both intent references (not the
 * rate or on/off, not whether the candidate is a draft or a version). A draft and the version provisioned from it have
 * the same content (canonical JSON of the parsed workflow: key order, as jsonb stores it, does not matter), so
 * publishing a draft and configuring its version afterwards keeps the key and the report.
 */
export function candidateKeyOf(workflow: Workflow, refs: { liveRef: string; candidateRef: string }): string {
  return createHash("sha256")
    .update(canonicalJson([WorkflowSchema.parse(workflow), refs.liveRef, refs.candidateRef]))
    .digest("hex")
    .slice(0, 32);
}

/**
 * Sets the shadow. A draft candidate is validated like any workflow that is provisioned (the Python syntax of code
 * nodes included): errors answer 400 WORKFLOW_INVALID with the findings, warnings come back with the saved config.
 */
export async function putShadowConfig(
  db: Db,
  agentId: string,
  input: z.input<typeof ShadowConfigInput>,
  actor: Principal | null,
  opts: ProvisionOptions = {},
) {
  const data = ShadowConfigInput.parse(input);
  await requireAgent(db, agentId);
  const draft = data.candidateWorkflow !== undefined;
  let warnings: Finding[] = [];
  let workflow: Workflow;
  if (draft) {
    const result = await validateWorkflowWithCode(
      { workflow: data.candidateWorkflow },
      { webhookBaseUrl: opts.webhookBaseUrl },
    );
    if (!result.valid) throw workflowInvalid(result);
    warnings = result.warnings;
    workflow = WorkflowSchema.parse(data.candidateWorkflow);
  } else workflow = await candidateWorkflowOf(db, agentId, data.candidateVersion ?? null, null);
  // the template's own syntax (the schema only checks its shape)
  for (const [name, ref] of [
    ["liveRef", data.liveRef],
    ["candidateRef", data.candidateRef],
  ] as const) {
    const scan = extractTemplateRefs(ref);
    if (!scan.refs.length || scan.errors.length)
      throw errors.badRequest(
        "REQUEST_INVALID",
        `${name} must be a template naming a node output, e.g. {{detect.result.scene}}`,
      );
  }
  // the candidate's intent must name nodes of the candidate
  const ids = new Set(workflow.nodes.map((n) => n.id));
  const missing = extractTemplateRefs(data.candidateRef).refs.filter((r) => !ids.has(r.nodeId));
  if (missing.length)
    throw errors.badRequest(
      "REQUEST_INVALID",
      `candidateRef names ${missing.map((m) => m.nodeId).join(", ")}, not a node of the candidate`,
    );
  const candidate = {
    candidateVersion: draft ? null : (data.candidateVersion ?? null),
    candidateWorkflow: draft ? (data.candidateWorkflow as object) : null,
    liveRef: data.liveRef,
    candidateRef: data.candidateRef,
  };
  const values = {
    ...candidate,
    candidateNote: data.candidateNote ?? "",
    candidateKey: candidateKeyOf(workflow, data),
    sampleRate: data.sampleRate,
    enabled: data.enabled,
    updatedById: actorRef(actor),
  };
  const row = await db.shadowConfig.upsert({
    where: { agentId },
    create: { agentId, ...values, candidateWorkflow: values.candidateWorkflow ?? undefined },
    update: { ...values, candidateWorkflow: values.candidateWorkflow ?? Prisma.DbNull },
  });
  samplingChanged(agentId);
  return { config: configOut(row), warnings };
}

async function candidateWorkflowOf(db: Db, agentId: string, version: number | null, draft: unknown): Promise<Workflow> {
  if (version !== null) {
    const row = await db.workflowVersion.findUnique({
      where: { agentId_version: { agentId, version } },
      select: { workflow: true },
    });
    if (!row) throw errors.notFound(`Version ${version} of agent ${agentId}`);
    return WorkflowSchema.parse(row.workflow);
  }
  const result = validateWorkflowRequest({ workflow: draft }, {});
  if (!result.valid) throw workflowInvalid(result);
  return WorkflowSchema.parse(draft);
}

/**
 * The part of `workflow` that `ref` needs: the nodes it names and their ancestors, ending in a node that outputs the
 * rendered ref. Edges between kept nodes stay (a condition's branches included).
 */
export function intentSubworkflow(workflow: Workflow, ref: string): Workflow {
  const targets = [...new Set(extractTemplateRefs(ref).refs.map((r) => r.nodeId))];
  const parents = new Map<string, string[]>();
  for (const e of workflow.edges) parents.set(e.target, [...(parents.get(e.target) ?? []), e.source]);
  const keep = new Set<string>();
  const stack = [...targets];
  while (stack.length) {
    const id = stack.pop()!;
    if (keep.has(id)) continue;
    keep.add(id);
    for (const p of parents.get(id) ?? []) stack.push(p);
  }
  const END = "__shadow_intent";
  const nodes: WorkflowNode[] = workflow.nodes.filter((n) => keep.has(n.id) && n.type !== "end");
  nodes.push({ id: END, type: "end", config: { output: ref }, position: { x: 0, y: 0 } } as WorkflowNode);
  const edges = workflow.edges.filter((e) => keep.has(e.source) && keep.has(e.target));
  for (const t of targets) {
    const node = workflow.nodes.find((n) => n.id === t);
    if (!node) continue;
    // a condition activates only the edges of the branch it takes: the intent end follows both
    if (node.type === "condition")
      edges.push({ source: t, target: END, condition: "true" }, {
        source: t,
        target: END,
        condition: "false",
      } as Workflow["edges"][number]);
    else edges.push({ source: t, target: END } as Workflow["edges"][number]);
  }
  return { nodes, edges };
}

/** The live intent: `liveRef` rendered over the live trace's step outputs. */
export function liveIntentOf(steps: unknown, liveRef: string): string | null {
  const scope: Record<string, Record<string, unknown>> = {};
  for (const s of Array.isArray(steps)
    ? (steps as Array<{ nodeId?: string; output?: unknown; status?: string }>)
    : []) {
    if (s.nodeId && s.output && typeof s.output === "object" && s.status === "succeeded")
      scope[s.nodeId] = s.output as Record<string, unknown>;
  }
  const value = renderTemplate(liveRef, scope).trim();
  return value || null;
}

const norm = (s: string | null) => (s ?? "").trim().toLowerCase();

type Globals = {
  __flowbenchShadowRunning?: number;
  __flowbenchShadowCandidates?: Map<string, Workflow>;
  __flowbenchShadowSampling?: Map<string, { at: number; enabled: boolean; sampleRate: number }>;
  __flowbenchShadowBuffer?: {
    jobs: Array<{ queue: ShadowQueue; job: ShadowJob }>;
    timer: ReturnType<typeof setTimeout> | null;
  };
};
const globals = globalThis as typeof globalThis & Globals;

/**
 * The candidate's intent subgraph, built once per configuration (`candidateKey` covers the candidate and the
 * references; a version is immutable, a draft is in the key), so a shadow job does not parse and validate it again.
 */
async function candidateIntentWorkflow(
  db: Db,
  agentId: string,
  config: { candidateKey: string; candidateVersion: number | null; candidateWorkflow: unknown; candidateRef: string },
): Promise<Workflow> {
  const cache = (globals.__flowbenchShadowCandidates ??= new Map());
  const key = `${agentId}:${config.candidateKey}`;
  const hit = config.candidateKey ? cache.get(key) : undefined;
  if (hit) return hit;
  const sub = intentSubworkflow(
    await candidateWorkflowOf(db, agentId, config.candidateVersion, config.candidateWorkflow),
    config.candidateRef,
  );
  if (cache.size >= 50) cache.delete(cache.keys().next().value as string);
  if (config.candidateKey) cache.set(key, sub);
  return sub;
}

/**
 * Computes and stores the candidate's intent for one online trace (upsert: one result per trace). A cache hit is an
 * online answer like any other: its live intent is read from the trace that produced the cached answer (the same
 * published version; the hit itself records only the cache step), and the candidate runs on the hit's own input.
 */
export async function shadowTrace(
  db: Db,
  traceId: string,
  source: "live" | "replay",
): Promise<{ status: "ok" | "failed" | "skipped" }> {
  const trace = await db.trace.findUnique({
    where: { id: traceId },
    select: {
      id: true,
      agentId: true,
      input: true,
      steps: true,
      cache: true,
      startedAt: true,
      source: true,
      workflowVersionId: true,
      sessionId: true,
      createdById: true,
    },
  });
  if (!trace?.agentId) return { status: "skipped" };
  const config = await db.shadowConfig.findUnique({ where: { agentId: trace.agentId } });
  if (!config) return { status: "skipped" };
  const liveWorkflow = trace.workflowVersionId ? await workflowOf(db, trace.workflowVersionId).catch(() => null) : null;
  const field = liveWorkflow ? messageField(liveWorkflow) : undefined;
  const input = (trace.input ?? {}) as Record<string, unknown>;
  const message =
    field && typeof input[field] === "string" ? (input[field] as string) : JSON.stringify(input).slice(0, 500);
  const original = cacheSource(trace.cache, trace.steps);
  const liveSteps = original
    ? ((await db.trace.findUnique({ where: { id: original }, select: { steps: true } }))?.steps ?? null)
    : trace.steps;
  const liveIntent = liveIntentOf(liveSteps, config.liveRef);
  let candidateIntent: string | null = null;
  let error: string | null = null;
  let candidateTraceId: string | null = null;
  try {
    const intentWorkflow = await candidateIntentWorkflow(db, trace.agentId, config);
    // a turn of a conversation: the candidate sees the history the live version was answered with
    const history =
      trace.sessionId && liveWorkflow
        ? await sessionHistory(db, trace.agentId, trace.sessionId, trace.createdById, liveWorkflow, trace)
        : [];
    const result = await executeWorkflow(db, {
      workflow: intentWorkflow,
      input,
      history,
      mode: "pipeline",
      source: "shadow",
      agentId: trace.agentId,
      limits: { timeoutMs: SHADOW_LIMITS.timeoutMs },
    });
    candidateTraceId = result.traceId;
    if (result.status === "succeeded") candidateIntent = (result.answer ?? "").trim() || null;
    else
      error = result.error
        ? `${result.error.code}: ${result.error.message}`.slice(0, 500)
        : `the candidate run ${result.status}`;
  } catch (e) {
    error = ((e as Error).message ?? String(e)).slice(0, 500);
  }
  const status = error ? "failed" : "ok";
  const agree =
    error || liveIntent === null || candidateIntent === null ? null : norm(liveIntent) === norm(candidateIntent);
  const data = {
    agentId: trace.agentId,
    source,
    liveIntent,
    candidateIntent,
    agree,
    status,
    error,
    candidateTraceId,
    message,
    traceStartedAt: trace.startedAt,
    candidateKey: config.candidateKey,
  };
  await db.shadowResult.upsert({ where: { traceId }, create: { traceId, ...data }, update: data });
  return { status };
}

type ShadowJob = { kind: "shadow"; runId: string; itemId: string };
type ShadowQueue = { enqueue(jobs: ShadowJob[]): Promise<void> };

/** An agent's sample rate and on/off, re-read at most every SHADOW_LIMITS.samplingTtlMs. */
async function samplingOf(db: Db, agentId: string): Promise<{ enabled: boolean; sampleRate: number }> {
  const cache = (globals.__flowbenchShadowSampling ??= new Map());
  const hit = cache.get(agentId);
  if (hit && Date.now() - hit.at < SHADOW_LIMITS.samplingTtlMs) return hit;
  const c = await db.shadowConfig.findUnique({ where: { agentId }, select: { enabled: true, sampleRate: true } });
  const entry = { at: Date.now(), enabled: c?.enabled ?? false, sampleRate: c?.sampleRate ?? 0 };
  if (cache.size >= 1000) cache.clear();
  cache.set(agentId, entry);
  return entry;
}

/** Forget an agent's cached sampling (its configuration changed in this process). */
function samplingChanged(agentId: string): void {
  globals.__flowbenchShadowSampling?.delete(agentId);
}

/** Sends the sampled chats waiting in this process to the queue, in one insert per queue. */
export async function flushShadowJobs(): Promise<void> {
  const buffer = globals.__flowbenchShadowBuffer;
  if (!buffer) return;
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const waiting = buffer.jobs.splice(0);
  const byQueue = new Map<ShadowQueue, ShadowJob[]>();
  for (const w of waiting) byQueue.set(w.queue, [...(byQueue.get(w.queue) ?? []), w.job]);
  for (const [queue, jobs] of byQueue) {
    // the shadow is a sample: jobs that could not be queued are dropped with a log line, never retried into a chat
    await queue
      .enqueue(jobs)
      .catch((e: unknown) =>
        console.error(`[flowbench] intent shadow: ${jobs.length} sampled chat(s) not queued: ${(e as Error).message}`),
      );
  }
}

/**
 * The online-answer hook of a server: sampled chats become jobs of the durable queue (queue.ts, kind `shadow`), which
 * any instance's worker runs; the chat never waits for it. Per chat the work is in memory (the agent's sampling is
 * cached for SHADOW_LIMITS.samplingTtlMs); the sampled chats are inserted together every SHADOW_LIMITS.enqueueFlushMs
 * (or per SHADOW_LIMITS.enqueueBatch), so a burst of chats costs one insert. A process that dies loses at most that
 * second of samples.
 */
export async function enqueueShadow(
  db: Db,
  answer: { agentId: string; traceId: string },
  queue: ShadowQueue,
  random: () => number = Math.random,
): Promise<boolean> {
  const config = await samplingOf(db, answer.agentId);
  if (!config.enabled || random() >= config.sampleRate) return false;
  const buffer = (globals.__flowbenchShadowBuffer ??= { jobs: [], timer: null });
  buffer.jobs.push({ queue, job: { kind: "shadow", runId: `shadow:${answer.agentId}`, itemId: answer.traceId } });
  if (buffer.jobs.length >= SHADOW_LIMITS.enqueueBatch) await flushShadowJobs();
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushShadowJobs(), SHADOW_LIMITS.enqueueFlushMs);
    buffer.timer.unref?.();
  }
  return true;
}

/**
 * In process, without the queue (benchmarks, a process without a worker): sampled, in the background, at most
 * SHADOW_LIMITS.liveConcurrency at once per instance; a chat arriving while that many run is not shadowed (the shadow
 * is a sample; the user's answer never waits for it).
 */
export async function shadowOnlineAnswer(
  db: Db,
  answer: { agentId: string; traceId: string },
  random: () => number = Math.random,
): Promise<void> {
  const config = await samplingOf(db, answer.agentId);
  if (!config.enabled || random() >= config.sampleRate) return;
  if ((globals.__flowbenchShadowRunning ?? 0) >= SHADOW_LIMITS.liveConcurrency) return;
  globals.__flowbenchShadowRunning = (globals.__flowbenchShadowRunning ?? 0) + 1;
  try {
    await shadowTrace(db, answer.traceId, "live");
  } finally {
    globals.__flowbenchShadowRunning = (globals.__flowbenchShadowRunning ?? 1) - 1;
  }
}

/** The candidate over the last `limit` online chat traces of the agent (cache hits included), a few at a time; numbers right away. */
export async function replayShadow(db: Db, agentId: string, input: z.input<typeof ReplayInput>) {
  const { limit } = ReplayInput.parse(input ?? {});
  await requireAgent(db, agentId);
  const config = await db.shadowConfig.findUnique({ where: { agentId }, select: { agentId: true } });
  if (!config) throw notConfigured();
  const traces = await db.trace.findMany({
    where: { agentId, source: "chat", status: { in: ["succeeded", "failed"] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true },
  });
  let ok = 0;
  let failed = 0;
  for (let i = 0; i < traces.length; i += SHADOW_LIMITS.replayConcurrency) {
    const batch = traces.slice(i, i + SHADOW_LIMITS.replayConcurrency);
    const results = await Promise.all(batch.map((t) => shadowTrace(db, t.id, "replay")));
    for (const r of results) r.status === "ok" ? ok++ : failed++;
  }
  return { replayed: traces.length, ok, failed, report: await shadowReport(db, agentId, {}) };
}

/** The report's and the disagreements' filter: the agent, the configured candidate's results, the days (UTC). */
async function resultsWhere(db: Db, agentId: string, q: z.output<typeof ShadowReportQuery>) {
  await requireAgent(db, agentId);
  const config = await db.shadowConfig.findUnique({ where: { agentId }, select: { candidateKey: true } });
  const { start, end } = dayBounds(q);
  return {
    agentId,
    candidateKey: config?.candidateKey ?? "",
    ...(start || end ? { traceStartedAt: { ...(start ? { gte: start } : {}), ...(end ? { lt: end } : {}) } } : {}),
  };
}

const disagreementSelect = {
  traceId: true,
  message: true,
  liveIntent: true,
  candidateIntent: true,
  traceStartedAt: true,
  source: true,
  candidateTraceId: true,
} as const;
type DisagreementRow = {
  traceId: string;
  message: string;
  liveIntent: string | null;
  candidateIntent: string | null;
  traceStartedAt: Date;
  source: string;
  candidateTraceId: string | null;
};
const disagreementOut = (r: DisagreementRow) => ({
  traceId: r.traceId,
  message: r.message,
  live: r.liveIntent ?? "",
  candidate: r.candidateIntent ?? "",
  at: r.traceStartedAt,
  source: r.source,
  candidateTraceId: r.candidateTraceId,
});

/** The disagreements of the configured candidate, newest first, a page at a time (cursor: the last row's trace id). */
export async function listDisagreements(db: Db, agentId: string, query: z.input<typeof DisagreementsQuery>) {
  const q = parseInput(DisagreementsQuery, query ?? {});
  const where = { ...(await resultsWhere(db, agentId, q)), agree: false };
  const rows = await db.shadowResult.findMany({
    where,
    orderBy: [{ traceStartedAt: "desc" }, { traceId: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { traceId: q.cursor }, skip: 1 } : {}),
    select: disagreementSelect,
  });
  const page = rows.slice(0, q.limit);
  return {
    items: page.map(disagreementOut),
    nextCursor: rows.length > q.limit ? page.at(-1)!.traceId : null,
    total: await db.shadowResult.count({ where }),
  };
}

/**
 * The configured candidate's results, aggregated in the database (no cap on how many): agreement, per day (UTC), the
 * confusion matrix, per-intent counts, the first page of disagreements (the rest: listDisagreements) and the latest
 * failures.
 */
export async function shadowReport(db: Db, agentId: string, query: z.input<typeof ShadowReportQuery>) {
  const q = parseInput(ShadowReportQuery, query ?? {});
  const where = await resultsWhere(db, agentId, q);
  const [results, failed, missingLive, cells, days, first, failures] = await Promise.all([
    db.shadowResult.count({ where }),
    db.shadowResult.count({ where: { ...where, status: "failed" } }),
    db.shadowResult.count({ where: { ...where, status: "ok", liveIntent: null } }),
    db.shadowResult.groupBy({
      by: ["liveIntent", "candidateIntent", "agree"],
      where: { ...where, agree: { not: null } },
      _count: { _all: true },
    }),
    db.$queryRaw<Array<{ day: string; total: bigint | number; agreed: bigint | number }>>`
      SELECT to_char("traceStartedAt", 'YYYY-MM-DD') AS "day", COUNT(*) AS "total", COUNT(*) FILTER (WHERE "agree") AS "agreed"
      FROM "ShadowResult"
      WHERE "agentId" = ${where.agentId} AND "candidateKey" = ${where.candidateKey} AND "agree" IS NOT NULL
        AND (${where.traceStartedAt?.gte ?? null}::timestamp IS NULL OR "traceStartedAt" >= ${where.traceStartedAt?.gte ?? null}::timestamp)
        AND (${where.traceStartedAt?.lt ?? null}::timestamp IS NULL OR "traceStartedAt" < ${where.traceStartedAt?.lt ?? null}::timestamp)
      GROUP BY 1 ORDER BY 1`,
    listDisagreements(db, agentId, q),
    db.shadowResult.findMany({
      where: { ...where, status: "failed" },
      orderBy: [{ traceStartedAt: "desc" }, { traceId: "desc" }],
      take: SHADOW_LIMITS.reportFailures,
      select: { traceId: true, error: true, traceStartedAt: true },
    }),
  ]);
  const rate = (n: number, d: number) => (d ? Math.round((n / d) * 10000) / 10000 : null);
  const matrix = new Map<string, { live: string; candidate: string; count: number }>();
  const intents = new Map<string, { live: number; candidate: number }>();
  let compared = 0;
  let agreed = 0;
  for (const c of cells) {
    const n = c._count._all;
    compared += n;
    if (c.agree) agreed += n;
    const live = c.liveIntent ?? "";
    const candidate = c.candidateIntent ?? "";
    const key = JSON.stringify([live, candidate]);
    matrix.set(key, { live, candidate, count: (matrix.get(key)?.count ?? 0) + n });
    for (const [which, intent] of [
      ["live", live],
      ["candidate", candidate],
    ] as const) {
      const i = intents.get(intent) ?? { live: 0, candidate: 0 };
      i[which] += n;
      intents.set(intent, i);
    }
  }
  return {
    agentId,
    results,
    compared,
    agreed,
    agreement: rate(agreed, compared),
    failed,
    missingLive,
    perDay: days.map((d) => ({
      day: d.day,
      total: Number(d.total),
      agreed: Number(d.agreed),
      agreement: rate(Number(d.agreed), Number(d.total)),
    })),
    matrix: [...matrix.values()],
    intents: [...intents.entries()]
      .map(([intent, c]) => ({ intent, ...c }))
      .sort((a, b) => b.live + b.candidate - (a.live + a.candidate)),
    disagreements: first.items,
    disagreementsNextCursor: first.nextCursor,
    failures: failures.map((r) => ({ traceId: r.traceId, error: r.error ?? "", at: r.traceStartedAt })),
  };
}

/**
 * Makes the candidate the live version: a version candidate is published; a draft is first provisioned as the next
 * version of the agent (validated like any provisioning; its note: the candidate's note) and then published. Online
 * chat answers with it from the next message. The shadow then names that version as its candidate and is turned off
 * (the live version is now the candidate: comparing it with itself measures nothing); its results stay, as the same
 * candidate's (the key is the workflow's content, the same for the draft and its version).
 *
 * One transaction holding the configuration's row lock: provisioning, publishing and the configuration change happen
 * together or not at all (a failure leaves no orphan version), and publishes of one agent run one after the other (the
 * second of a double click finds the version the first provisioned and publishes it again: one version). The draft's
 * validation (the Python syntax check starts the sandbox) runs before, outside the lock; only when the draft changed in
 * between is the new one validated under it.
 */
export async function publishShadowCandidate(
  db: Db,
  agentId: string,
  actor: Principal | null,
  opts: ProvisionOptions = {},
) {
  await requireAgent(db, agentId);
  const seen = await db.shadowConfig.findUnique({
    where: { agentId },
    select: { candidateVersion: true, candidateWorkflow: true, candidateKey: true },
  });
  if (!seen) throw notConfigured();
  const validated =
    seen.candidateVersion === null
      ? { key: seen.candidateKey, result: await validateForProvisioning(seen.candidateWorkflow, opts) }
      : null;
  const out = await db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT "agentId" FROM "ShadowConfig" WHERE "agentId" = ${agentId} FOR UPDATE`;
      const config = await tx.shadowConfig.findUnique({ where: { agentId } });
      if (!config) throw notConfigured();
      let version = config.candidateVersion;
      let provisioned = false;
      if (version === null) {
        const result =
          validated?.key === config.candidateKey
            ? validated.result
            : await validateForProvisioning(config.candidateWorkflow, opts);
        const note = (
          config.candidateNote ? `intent-shadow candidate (${config.candidateNote})` : "intent-shadow candidate"
        ).slice(0, 500);
        const added = await addVersionTx(tx, agentId, { workflow: config.candidateWorkflow, note }, result, actor);
        version = added.version.version;
        provisioned = true;
      }
      const published = await publishVersionTx(tx, agentId, version);
      const row = await tx.shadowConfig.update({
        where: { agentId },
        data: {
          candidateVersion: version,
          candidateWorkflow: Prisma.DbNull,
          enabled: false,
          updatedById: actorRef(actor),
        },
      });
      return {
        version,
        provisioned,
        publishedVersion: published.agent.publishedVersion ?? version,
        config: configOut(row),
      };
    },
    { timeout: 60_000 },
  );
  samplingChanged(agentId);
  return out;
}
