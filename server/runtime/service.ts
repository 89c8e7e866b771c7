/**
 * The runtime's service functions (declared as operations in operations.ts, served by REST and tRPC): online chat
 * on the published version (with sessions and the answer cache), test runs of drafts or the latest version. Traces
 * and feedback are in traces.ts, publishing in versions.ts.
 */
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { env } from "../core/env";
import { ApiError, errors } from "../core/errors";
import { actorRef, conversationRef, type Principal } from "../auth/service";
import { cacheableWorkflow, chatCacheKey, storeCached, takeCached } from "./cache";
import { defaultDeps, runRedactor, runWorkflow } from "./executor";
import { notifyOnlineAnswer } from "./hooks";
import { inputFromMessage, messageField } from "./input";
import type { RuntimeDeps } from "./nodes/context";
import { ChatInput, TestRunInput, type ChatOut } from "./schemas";
import { cacheStep, getTrace } from "./traces";
import type { ChatTurn, ExecuteResult } from "./types";
import { validateWorkflowWithCode, type CodeValidateOptions } from "./validate-code";
import { loadPublished, loadVersion, toWorkflow } from "./versions";
import { workflowInvalid, type Workflow } from "../workflow";

export type FaceOptions = {
  /** The caller's request signal: a client that goes away cancels the run. */
  signal?: AbortSignal;
  /** Replaced in tests. */
  deps?: RuntimeDeps;
  /** Defaults to CHAT_CACHE_TTL_SECONDS. */
  cacheTtlSeconds?: number;
  /** For the test-run validation (tests inject a syntax checker). */
  validate?: CodeValidateOptions;
};

/** Earlier exchanges of a session given to llm nodes (the newest 20, i.e. up to 40 messages). */
export const SESSION_HISTORY_TURNS = 20;

/** Traces and chat history belong to the user, or to the token when it has no user (never shared among tokens). */
const actorId = (actor: Principal | null): string | null => actorRef(actor);

/** A failed run as an API error that names the trace: 400 for input errors, 504 for the time limit, else 502. */
export function runFailed(result: ExecuteResult): ApiError {
  const error = result.error ?? { code: "INTERNAL", message: "The run failed" };
  const extra = { traceId: result.traceId };
  if (error.code === "INPUT_REQUIRED" || error.code === "INPUT_INVALID_TYPE")
    return new ApiError(400, error.code, error.message, [error], extra);
  if (error.code === "RUN_TIMEOUT") return new ApiError(504, "RUN_TIMEOUT", error.message, [error], extra);
  return new ApiError(
    502,
    "RUN_FAILED",
    `The run failed at ${error.nodeId ?? "the workflow"}: ${error.message}`,
    [error],
    extra,
  );
}

function runInput(
  workflow: Workflow,
  message: string | undefined,
  input: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return { ...(message !== undefined ? inputFromMessage(workflow, message) : {}), ...(input ?? {}) };
}

/**
 * The session's earlier turns by the same caller, oldest first, from its successful chat traces; with `before`, the
 * turns that came before that trace (the history it was answered with: the intent shadow replays it).
 */
export async function sessionHistory(
  db: Db,
  agentId: string,
  sessionId: string,
  actor: string | null,
  workflow: Workflow,
  before?: { id: string; startedAt: Date },
): Promise<ChatTurn[]> {
  const rows = await db.trace.findMany({
    where: {
      agentId,
      sessionId,
      source: "chat",
      status: "succeeded",
      createdById: actor,
      ...(before ? { startedAt: { lt: before.startedAt }, id: { not: before.id } } : {}),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: SESSION_HISTORY_TURNS,
    select: { input: true, answer: true },
  });
  const field = messageField(workflow);
  const turns: ChatTurn[] = [];
  for (const row of rows.reverse()) {
    const input = (row.input ?? {}) as Record<string, unknown>;
    const text = field && typeof input[field] === "string" ? (input[field] as string) : JSON.stringify(input);
    turns.push({ role: "user", content: text });
    if (row.answer !== null) turns.push({ role: "assistant", content: row.answer });
  }
  return turns;
}

/**
 * Online chat: runs the agent's PUBLISHED version at pipeline_live. With a sessionId, the session's earlier turns
 * are the history. Repeated questions are answered from the cache (see cache.ts) unless the session has history,
 * the workflow keeps memory, or the TTL is 0; a hit still writes a trace (`cache: "hit"`, pointing at the original).
 */
export async function chat(
  db: Db,
  agentId: string,
  body: z.input<typeof ChatInput>,
  actor: Principal | null,
  opts: FaceOptions = {},
): Promise<z.output<typeof ChatOut>> {
  const data = ChatInput.parse(body);
  const version = await loadPublished(db, agentId);
  const input = runInput(version.workflow, data.message, data.input);
  const sessionId = data.sessionId ?? null;
  const speaker = conversationRef(actor);
  const history = sessionId ? await sessionHistory(db, agentId, sessionId, speaker, version.workflow) : [];
  const ttl = opts.cacheTtlSeconds ?? env().CHAT_CACHE_TTL_SECONDS;
  const key =
    ttl > 0 && history.length === 0 && cacheableWorkflow(version.workflow)
      ? chatCacheKey(version.workflow, input)
      : null;

  if (key) {
    const t0 = performance.now();
    const startedAt = new Date();
    const hit = await takeCached(db, version.id, key, startedAt);
    if (hit) {
      const payload = hit.payload;
      // the trace of a hit stores what the original trace stored (answer and payload redacted with that run's
      // secrets); if that trace is gone, the cached answer redacted by name
      const redactor = runRedactor(version.workflow, (opts.deps ?? defaultDeps()).redact);
      const source = await db.trace.findUnique({
        where: { id: hit.traceId },
        select: { answer: true, payload: true },
      });
      const durationMs = Math.round((performance.now() - t0) * 1000) / 1000;
      const trace = await db.trace.create({
        data: {
          agentId,
          workflowVersionId: version.id,
          source: "chat",
          mode: "pipeline_live",
          status: "succeeded",
          sessionId,
          input: redactor.input(input) as Prisma.InputJsonValue,
          answer: source ? source.answer : redactor.message(redactor.output(hit.answer)),
          payload: ((source ? source.payload : redactor.value(redactor.output(payload))) ?? undefined) as
            | Prisma.InputJsonValue
            | undefined,
          steps: [cacheStep(hit.traceId, key.question, startedAt, durationMs)] as unknown as Prisma.InputJsonValue,
          cache: "hit",
          durationMs: Math.round(durationMs),
          startedAt,
          finishedAt: new Date(),
          createdById: speaker,
        },
        select: { id: true },
      });
      // an answer from the cache is still an online answer a user got (the intent shadow samples it too)
      notifyOnlineAnswer({ agentId, traceId: trace.id, workflowVersionId: version.id });
      return { answer: hit.answer, payload, traceId: trace.id, cache: "hit", sessionId };
    }
  }

  const result = await runWorkflow(
    db,
    {
      workflow: version.workflow,
      input,
      mode: "pipeline_live",
      source: "chat",
      agentId,
      workflowVersionId: version.id,
      sessionId: sessionId ?? undefined,
      actorId: speaker,
      history,
      signal: opts.signal,
    },
    opts.deps ?? defaultDeps(),
    { cache: key ? "miss" : "bypass" },
  );
  notifyOnlineAnswer({ agentId, traceId: result.traceId, workflowVersionId: version.id });
  if (result.status !== "succeeded" || result.answer === null) throw runFailed(result);
  if (key)
    await storeCached(db, {
      workflowVersionId: version.id,
      key,
      answer: result.answer,
      payload: result.payload,
      traceId: result.traceId,
      ttlSeconds: ttl,
    });
  return {
    answer: result.answer,
    payload: result.payload,
    traceId: result.traceId,
    cache: key ? "miss" : "bypass",
    sessionId,
  };
}

/**
 * A canvas test run: a draft workflow (validated first, with the Python syntax check; 400 with the findings) or the
 * agent's latest version, with `source: "test_run"`. Returns the recorded trace with its steps, whatever the run's
 * outcome (a failed run is a result to show, not an HTTP error).
 */
export async function testRun(
  db: Db,
  agentId: string,
  body: z.input<typeof TestRunInput>,
  actor: Principal | null,
  opts: FaceOptions = {},
) {
  const data = TestRunInput.parse(body);
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: { id: true, latestVersion: true, kind: true },
  });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
  let workflow: Workflow;
  let workflowVersionId: string | undefined;
  if (data.workflow !== undefined) {
    // a judge's draft is held to the judge contract too, like its versions
    const validation = await validateWorkflowWithCode(
      { workflow: data.workflow, kind: agent.kind },
      { webhookBaseUrl: env().WEBHOOK_BASE_URL, ...opts.validate },
    );
    if (!validation.valid) throw workflowInvalid(validation);
    workflow = toWorkflow(data.workflow);
  } else {
    if (agent.latestVersion < 1) throw errors.notFound(`A version of agent ${agentId}`);
    const version = await loadVersion(db, agentId, agent.latestVersion);
    workflow = version.workflow;
    workflowVersionId = version.id;
  }
  const result = await runWorkflow(
    db,
    {
      workflow,
      input: runInput(workflow, data.message, data.input),
      mode: data.mode,
      source: "test_run",
      agentId,
      workflowVersionId,
      sessionId: data.sessionId,
      actorId: actorId(actor),
      history: data.history,
      signal: opts.signal,
    },
    opts.deps ?? defaultDeps(),
  );
  return getTrace(db, result.traceId);
}
