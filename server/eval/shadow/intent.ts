import type { Db } from "../../db/client";
import { cacheSource, executeWorkflow, messageField, workflowOf } from "../../runtime";
import { sessionHistory } from "../../runtime/service";
import { extractTemplateRefs, renderTemplate, type Workflow, type WorkflowNode } from "../../workflow";
import { SHADOW_LIMITS } from "./schemas";
import { globals } from "./state";
import { candidateWorkflowOf } from "./config";

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
