/**
 * The workflow engine: runs a validated workflow once and records it as a Trace.
 *
 * Walks the nodes in topological order. A node runs when it is a start node or when at least one of its incoming
 * edges is active; an edge becomes active when its source ran, and for a condition node only the edges of the
 * taken branch do. Nodes that do not run are recorded as `skipped` (templates naming them render ""). The first
 * end node that runs gives the answer (`output`) and the payload (`payload`).
 *
 * One AbortController per run carries the caller's signal and the time limit into every in-flight LLM, HTTP and
 * sandbox call; a node that ignores it is raced, so the run still ends on time. Every failure ends the run with a
 * stable code and the node id; nothing escapes as an unhandled rejection. Only the trace writes can reject.
 */
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { env } from "../core/env";
import { toStorable, toStorableText } from "../core/text";
import { getLlmProvider } from "../llm";
import {
  captureContent,
  contentAttribute,
  currentOtelTraceId,
  failSpan,
  inSpan,
  type Span,
} from "../telemetry/tracing";
import { renderTemplate, renderTemplatesDeep, type StartConfig, type EndConfig } from "../workflow";
import { RuntimeError, errorMessage } from "./errors";
import { HTTP_LIMITS, defaultResolver } from "./http/client";
import { originRules } from "./http/policy";
import { messageField, resolveStartOutputs } from "./input";
import { DEFAULT_REDACT_POLICY, RunRedactor, redactPolicyFrom, type RedactPolicy } from "./redact";
import type { NodeContext, NodeOutcome, RuntimeDeps, SandboxRunner, Scope } from "./nodes/context";
import { runCode } from "./nodes/code";
import { runCondition } from "./nodes/condition";
import { runHttp } from "./nodes/http";
import { runLlm } from "./nodes/llm";
import { runMemoryLoad, runMemorySave } from "./nodes/memory";
import { planFor, type PlanNode } from "./plan";
import {
  ONLINE_SOURCES,
  RUN_LIMITS,
  type ExecuteOptions,
  type ExecuteResult,
  type RunStatus,
  type TraceStep,
} from "./types";

type Handler = (ctx: NodeContext<never>) => Promise<NodeOutcome>;

let httpDeps: RuntimeDeps["http"] | undefined;
let redactPolicy: RedactPolicy | undefined;

/** The production dependencies: the configured LLM provider, the env's HTTP policy, the Python sandbox. */
export function defaultDeps(): RuntimeDeps {
  if (!httpDeps) {
    const e = env();
    httpDeps = {
      webhookBaseUrl: e.WEBHOOK_BASE_URL,
      policy: {
        rules: originRules(e.WEBHOOK_BASE_URL, e.HTTP_ALLOWED_ORIGINS),
        resolver: defaultResolver,
        ...HTTP_LIMITS,
      },
    };
    redactPolicy = redactPolicyFrom(e);
  }
  return { llm: getLlmProvider(), http: httpDeps, sandbox: loadSandbox, redact: redactPolicy };
}

async function loadSandbox(): Promise<SandboxRunner> {
  const mod = await import("./sandbox");
  return mod.getSandbox();
}

/** Runs a workflow and writes its Trace (status running, then final). */
export function executeWorkflow(db: Db, opts: ExecuteOptions): Promise<ExecuteResult> {
  return runWorkflow(db, opts, defaultDeps());
}

/** Extra trace fields set by a face (the chat face records its cache miss). */
export type RunExtras = { cache?: "miss" | "bypass" };

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * A step value as stored: credentials redacted by name (redact.ts; the request went out with them and later nodes
 * read them unredacted), anything larger than the limit as JSON a truncated preview. The run's known secrets are
 * replaced inside every stored text once the run ends (RunRedactor.value).
 */
function forTrace(value: unknown, type: string, redactor: RunRedactor): unknown {
  if (value === undefined) return null;
  value = redactor.step(type, value);
  const max = RUN_LIMITS.maxTraceValueChars;
  if (typeof value === "string")
    return value.length > max ? `${value.slice(0, max)}… [truncated, ${value.length} characters]` : value;
  if (value === null || typeof value !== "object") return value;
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return String(value);
  }
  return json.length > max ? { truncated: true, characters: json.length, preview: json.slice(0, max) } : value;
}

/** Rejects with the signal's reason as soon as it aborts, even if `promise` never settles. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e as Error);
      },
    );
  });
}

class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly nodeId?: string,
  ) {
    super(message);
  }
}

/** A node error as a stable code: the run's abort reason wins (CANCELLED, RUN_TIMEOUT), then RuntimeError codes. */
function classify(e: unknown, signal: AbortSignal): { code: string; message: string } {
  if (signal.aborted && signal.reason instanceof RuntimeError)
    return { code: signal.reason.code, message: signal.reason.message };
  if (e instanceof RuntimeError || e instanceof RunFailure) return { code: e.code, message: e.message };
  return { code: "INTERNAL", message: errorMessage(e) };
}

const HANDLERS: Record<Exclude<PlanNode["type"], "start" | "end">, Handler> = {
  llm: runLlm as Handler,
  http: runHttp as Handler,
  condition: runCondition as Handler,
  code: runCode as Handler,
  memory_load: runMemoryLoad as Handler,
  memory_save: runMemorySave as Handler,
};

type RunState = {
  steps: TraceStep[];
  answer: string | null;
  payload: Record<string, unknown> | null;
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
};

async function walk(
  db: Db,
  opts: ExecuteOptions,
  deps: RuntimeDeps,
  signal: AbortSignal,
  state: RunState,
  redactor: RunRedactor,
): Promise<void> {
  const plan = planFor(opts.workflow);
  const maxSteps = opts.limits?.maxSteps ?? RUN_LIMITS.maxSteps;
  const scope = Object.create(null) as Scope;
  const active = new Uint8Array(plan.edges.length);
  const history = opts.history ?? [];
  let executed = 0;
  let endReached = false;

  for (const v of plan.order) {
    const node = plan.nodes[v] as PlanNode;
    if (signal.aborted) {
      const { code, message } = classify(signal.reason, signal);
      throw new RunFailure(code, message, node.id);
    }
    if (node.type !== "start" && !node.incoming.some((e) => active[e] === 1)) {
      state.steps.push({
        nodeId: node.id,
        type: node.type,
        status: "skipped",
        input: null,
        output: null,
        startedAt: new Date().toISOString(),
        durationMs: 0,
      });
      continue;
    }
    if (++executed > maxSteps)
      throw new RunFailure("LIMIT_STEPS", `The run exceeded the limit of ${maxSteps} steps`, node.id);

    // one span per node that runs (server/telemetry/tracing.ts; a no-op while traces are off); an llm node's model
    // call is its child span with the GenAI conventions (server/llm)
    await inSpan(
      `node.${node.type}`,
      { attributes: { "flowbench.node.id": node.id, "flowbench.node.type": node.type } },
      async (span) => {
        const startedAt = new Date().toISOString();
        const t0 = performance.now();
        let noted: unknown = null;
        try {
          if (node.config === null)
            throw new RuntimeError(
              "NODE_CONFIG_INVALID",
              `The config of ${node.id} is invalid: ${node.configError ?? "see the validator"}`,
            );
          let outcome: NodeOutcome;
          if (node.type === "start") {
            noted = opts.input;
            outcome = {
              status: "succeeded",
              input: opts.input,
              output: resolveStartOutputs(node.config as StartConfig, opts.input, {
                sessionId: opts.sessionId,
                history,
              }),
            };
          } else if (node.type === "end") {
            const config = node.config as EndConfig;
            const answer = renderTemplate(config.output ?? "", scope);
            const payload =
              config.payload === undefined
                ? null
                : (renderTemplatesDeep(config.payload, scope) as Record<string, unknown>);
            if (!endReached) {
              endReached = true;
              state.answer = answer;
              state.payload = payload;
            }
            outcome = {
              status: "succeeded",
              input: null,
              output: payload ? { output: answer, payload } : { output: answer },
            };
          } else {
            const ctx: NodeContext<Record<string, unknown>> = {
              db,
              node,
              config: node.config,
              scope,
              signal,
              mode: opts.mode,
              agentId: opts.agentId,
              memoryScope: opts.memoryScope ?? "",
              history,
              idempotencyScope: opts.idempotencyScope,
              deps,
              noteInput: (input) => {
                noted = input;
              },
            };
            if (node.type === "llm") state.llmCalls++;
            outcome = await raceAbort(HANDLERS[node.type](ctx as NodeContext<never>), signal);
          }
          scope[node.id] = outcome.output;
          const step: TraceStep = {
            nodeId: node.id,
            type: node.type,
            status: outcome.status,
            input: forTrace(outcome.input, node.type, redactor),
            output: forTrace(outcome.output, node.type, redactor),
            startedAt,
            durationMs: round3(performance.now() - t0),
          };
          if (outcome.usage) {
            step.usage = outcome.usage;
            state.promptTokens += outcome.usage.promptTokens;
            state.completionTokens += outcome.usage.completionTokens;
          }
          if (outcome.provider) step.provider = outcome.provider;
          state.steps.push(step);
          span?.setAttribute("flowbench.node.status", outcome.status);
          if (span && captureContent()) {
            // the operator's opt-in: the step as the trace stores it (redacted by name, and by value so far)
            span.setAttributes({
              "flowbench.node.input": contentAttribute(redactor.value(step.input)),
              "flowbench.node.output": contentAttribute(redactor.value(step.output)),
            });
          }
          for (const e of node.outgoing) {
            const branch = plan.edges[e]?.branch ?? null;
            if (outcome.branch === undefined || branch === outcome.branch) active[e] = 1;
          }
        } catch (e) {
          const error = classify(e, signal);
          const step: TraceStep = {
            nodeId: node.id,
            type: node.type,
            status: "failed",
            input: forTrace(noted, node.type, redactor),
            output: null,
            error,
            startedAt,
            durationMs: round3(performance.now() - t0),
          };
          if (node.type === "llm") step.provider = deps.llm.name;
          state.steps.push(step);
          span?.setAttribute("flowbench.node.status", "failed");
          throw new RunFailure(error.code, `${node.id}: ${error.message}`, node.id);
        }
      },
    );
  }
  if (!endReached) throw new RunFailure("END_NOT_REACHED", "The run finished without reaching an end node");
}

/**
 * The memory scope of an execution: online sources (chat, api) use the agent's production memory (""); every other
 * source (eval, test_run, and anything added later) is isolated: the caller's scope if it gave one, else a scope of
 * this execution's own (`<source>:<traceId>`, deleted when the run ends), so evaluations and test runs never read or
 * change what online users get.
 */
export function memoryScopeFor(
  opts: Pick<ExecuteOptions, "source" | "memoryScope">,
  traceId: string,
): { scope: string; ownScope: boolean } {
  if (ONLINE_SOURCES.includes(opts.source)) return { scope: "", ownScope: false };
  if (opts.memoryScope) return { scope: opts.memoryScope, ownScope: false };
  return { scope: `${opts.source}:${traceId}`, ownScope: true };
}

/** Deletes an isolated memory scope (never the production scope ""). */
export async function clearMemoryScope(db: Db, scope: string): Promise<number> {
  if (!scope) return 0;
  return (await db.agentMemory.deleteMany({ where: { scope } })).count;
}

/** The redaction of one run's stored data (redact.ts): the policy, and the start's message field kept readable. */
export function runRedactor(
  workflow: ExecuteOptions["workflow"],
  policy: RedactPolicy = DEFAULT_REDACT_POLICY,
): RunRedactor {
  let field: string | undefined;
  try {
    field = messageField(workflow);
  } catch {
    field = undefined; // a workflow without a valid start: the run fails and records why
  }
  return new RunRedactor(policy, field);
}

/**
 * executeWorkflow with explicit dependencies (tests, benchmarks) and face-specific trace fields. The run is one span
 * (`agent.run`, a child of the request or job that started it; a no-op while traces are off) whose trace id the
 * stored Trace keeps (`otelTraceId`), and whose attribute `flowbench.trace_id` names the stored Trace.
 */
export function runWorkflow(
  db: Db,
  opts: ExecuteOptions,
  deps: RuntimeDeps,
  extras: RunExtras = {},
): Promise<ExecuteResult> {
  const attributes = {
    "gen_ai.operation.name": "invoke_agent",
    "flowbench.source": opts.source,
    "flowbench.mode": opts.mode,
    ...(opts.agentId ? { "gen_ai.agent.id": opts.agentId } : {}),
    ...(opts.workflowVersionId ? { "flowbench.workflow_version_id": opts.workflowVersionId } : {}),
  };
  return inSpan("agent.run", { attributes }, async (span) => {
    const result = await runTraced(db, opts, deps, extras, span);
    span?.setAttributes({
      "flowbench.run.status": result.status,
      "flowbench.usage.prompt_tokens": result.usage.promptTokens,
      "flowbench.usage.completion_tokens": result.usage.completionTokens,
    });
    if (result.error) failSpan(span, result.error.code);
    return result;
  });
}

async function runTraced(
  db: Db,
  opts: ExecuteOptions,
  deps: RuntimeDeps,
  extras: RunExtras,
  span: Span | undefined,
): Promise<ExecuteResult> {
  const t0 = performance.now();
  const redactor = runRedactor(opts.workflow, deps.redact);
  const storedInput = toStorable(redactor.input(opts.input ?? {}));
  const trace = await db.trace.create({
    data: {
      agentId: opts.agentId ?? null,
      workflowVersionId: opts.workflowVersionId ?? null,
      source: opts.source,
      mode: opts.mode,
      status: "running",
      sessionId: opts.sessionId ?? null,
      input: storedInput as Prisma.InputJsonValue,
      cache: extras.cache ?? "bypass",
      llmProvider: deps.llm.name,
      createdById: opts.actorId ?? null,
      otelTraceId: currentOtelTraceId() ?? null,
    },
    select: { id: true },
  });
  span?.setAttribute("flowbench.trace_id", trace.id);

  const memory = memoryScopeFor(opts, trace.id);
  opts = { ...opts, memoryScope: memory.scope };
  const controller = new AbortController();
  const timeoutMs = opts.limits?.timeoutMs ?? RUN_LIMITS.timeoutMs;
  const timer = setTimeout(
    () => controller.abort(new RuntimeError("RUN_TIMEOUT", `The run exceeded its time limit of ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onCancel = () => controller.abort(new RuntimeError("CANCELLED", "The run was cancelled by its caller"));
  if (opts.signal?.aborted) onCancel();
  else opts.signal?.addEventListener("abort", onCancel, { once: true });

  const state: RunState = { steps: [], answer: null, payload: null, promptTokens: 0, completionTokens: 0, llmCalls: 0 };
  let status: RunStatus = "succeeded";
  let error: ExecuteResult["error"];
  try {
    await walk(db, opts, deps, controller.signal, state, redactor);
  } catch (e) {
    const failure = e instanceof RunFailure ? e : new RunFailure(classify(e, controller.signal).code, errorMessage(e));
    status = failure.code === "CANCELLED" ? "cancelled" : "failed";
    error = { code: failure.code, message: failure.message };
    if (failure.nodeId !== undefined) error.nodeId = failure.nodeId;
    state.answer = null;
    state.payload = null;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onCancel);
    if (memory.ownScope) await clearMemoryScope(db, memory.scope).catch(() => undefined);
  }

  // What the run produced is stored as it is returned: text PostgreSQL cannot store (a code node returning "\x00",
  // an http or model answer carrying NUL or a lone surrogate) becomes U+FFFD (server/core/text.ts), so the write
  // below never fails on it and the caller, the trace, the answer cache and an evaluation item all see the same text.
  state.answer = state.answer === null ? null : toStorableText(state.answer);
  state.payload = toStorable(state.payload);
  // Credentials: the steps were redacted by name as they were recorded, and the answer and payload are now (the
  // caller still gets them as they are; the trace stores them redacted); then every secret the run saw is replaced
  // wherever else it was copied (a prompt or code input templating it, an answer, an error message with the url).
  const storedPayload = redactor.output(state.payload);
  const storedAnswer = state.answer === null ? null : redactor.output(state.answer);
  state.steps = toStorable(
    redactor.value(
      state.steps.map((s) =>
        s.error ? { ...s, error: { ...s.error, message: redactor.message(s.error.message) } } : s,
      ),
    ),
  );
  if (error) error = toStorable({ ...error, message: redactor.message(error.message) });
  // the input was stored before the run saw its secrets: a value a node later found to be one is replaced there too
  const finalInput = redactor.value(storedInput);

  const durationMs = round3(performance.now() - t0);
  // One raw statement: for a 100-node run the steps are ~100 KB of JSON, and Prisma's Json input handling
  // costs about as much again as PostgreSQL's jsonb parsing (see scripts/bench-runtime.ts).
  await db.$executeRaw`
    UPDATE "Trace" SET
      "status" = CAST(${status} AS "TraceStatus"),
      "input" = COALESCE(CAST(${finalInput === storedInput ? null : JSON.stringify(finalInput)} AS jsonb), "input"),
      "answer" = ${storedAnswer === null ? null : redactor.message(storedAnswer)},
      "payload" = CAST(${storedPayload === null ? null : JSON.stringify(redactor.value(storedPayload))} AS jsonb),
      "steps" = CAST(${JSON.stringify(state.steps)} AS jsonb),
      "error" = CAST(${error ? JSON.stringify(error) : null} AS jsonb),
      "promptTokens" = ${state.promptTokens},
      "completionTokens" = ${state.completionTokens},
      "durationMs" = ${Math.round(durationMs)},
      "finishedAt" = CAST(${new Date().toISOString()} AS timestamp(3))
    WHERE "id" = ${trace.id}`;
  const result: ExecuteResult = {
    traceId: trace.id,
    status,
    answer: state.answer,
    payload: state.payload,
    durationMs,
    usage: { promptTokens: state.promptTokens, completionTokens: state.completionTokens, llmCalls: state.llmCalls },
    steps: state.steps,
    llmProvider: deps.llm.name,
  };
  if (error) result.error = error;
  return result;
}
