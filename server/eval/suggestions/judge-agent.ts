import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { mergeTokens, type ModelTokens } from "../../core/prices";
import { env } from "../../core/env";
import { executeWorkflow, getLlmProvider, workflowOf, type TraceStep } from "../../runtime";
import { validateWorkflowWithCode } from "../../runtime/validate-code";
import { workflowInvalid, type Workflow } from "../../workflow";
import { evalError } from "../errors";
import { EVAL_LIMITS } from "../limits";
import { BUILTIN_JUDGE, llmJudgeRef, type JudgeResult } from "./judge";
import { judgeResultOfAnswer, parseJudgeAnswer, unknownJudgeResult } from "./judge-answer";
import { JudgeSpec, type JudgeRef, type JudgeSpecT } from "./schemas";

/**
 * Judges as agents: which judge a set or a run uses, and running a judge agent on one answer.
 *
 * - A judge is `{ type: "builtin" }`, `{ type: "llm" }` or `{ type: "agent", agentId, version }` (pinned). Its key
 *   (`judgeKey`) names it in stored suggestions: `builtin`, `llm`, `agent:<agentId>@<version>`.
 * - `defaultJudge()`: what a set that never chose a judge uses, as before judges could be chosen: the LLM judge when a
 *   model provider is configured and EVAL_JUDGE is `auto`, else the built-in judge. A run resolves it when created.
 * - `checkJudge` (choosing a set's judge): an agent judge must exist at that version (404 JUDGE_VERSION_NOT_FOUND),
 *   be of kind judge (400 JUDGE_NOT_A_JUDGE) and still pass validation with the judge contract (400 WORKFLOW_INVALID).
 * - `runJudgeAgent`: the judge agent's version runs through the runtime (source eval, tier pipeline_live, its own
 *   memory scope, at most EVAL_LIMITS.judgeAgentTimeoutMs) with the inputs `question`, `expected_points`, `answer`,
 *   `payload`, `script`, `scenario`; its answer is read with `parseJudgeAnswer`. A failed or timed-out run, a judge
 *   version that no longer exists, or an answer that is not a judge answer is an `unknown` result with the reason
 *   (`error`), never a crash and never a pass. Its model tokens are judging tokens.
 */
export function judgeKey(spec: JudgeSpecT): string {
  return spec.type === "agent" ? `agent:${spec.agentId}@${spec.version}` : spec.type;
}

export function defaultJudge(): JudgeSpecT {
  if (env().EVAL_JUDGE === "builtin") return { type: "builtin" };
  return getLlmProvider().offline ? { type: "builtin" } : { type: "llm" };
}

/** The spec a stored judge (a set's spec, or a run's JudgeRef) names; null when none is stored or it is unreadable. */
export function storedJudgeSpec(stored: unknown): JudgeSpecT | null {
  if (!stored || typeof stored !== "object") return null;
  const { type, agentId, version } = stored as { type?: unknown; agentId?: unknown; version?: unknown };
  const parsed = JudgeSpec.safeParse(type === "agent" ? { type, agentId, version } : { type });
  return parsed.success ? parsed.data : null;
}

/** A run's judge as recorded at its creation (a JudgeRef); runs created before judges could be chosen: the default. */
export function runJudgeRef(stored: unknown): JudgeRef {
  const spec = storedJudgeSpec(stored);
  if (spec && typeof (stored as { label?: unknown }).label === "string") {
    const { label, model } = stored as { label: string; model?: unknown };
    return {
      type: spec.type,
      key: judgeKey(spec),
      ...(spec.type === "agent" ? { agentId: spec.agentId, version: spec.version } : {}),
      ...(typeof model === "string" ? { model } : {}),
      label,
    };
  }
  return defaultJudge().type === "llm" ? llmJudgeRef() : BUILTIN_JUDGE;
}

/** How a judge is recorded (on a run at its creation, in its suggestions): an agent judge is labelled with its name. */
export async function describeJudge(db: Db | Prisma.TransactionClient, spec: JudgeSpecT): Promise<JudgeRef> {
  if (spec.type === "builtin") return BUILTIN_JUDGE;
  if (spec.type === "llm") return llmJudgeRef();
  const agent = await db.agent.findUnique({ where: { id: spec.agentId }, select: { name: true } });
  return {
    type: "agent",
    key: judgeKey(spec),
    agentId: spec.agentId,
    version: spec.version,
    label: agent ? `${agent.name} v${spec.version}` : `judge agent ${spec.agentId} v${spec.version}`,
  };
}

/** A judge ready to use on a run's items (an agent judge with its workflow loaded once). */
export type ResolvedJudge =
  | { type: "builtin"; ref: JudgeRef }
  | { type: "llm"; ref: JudgeRef }
  | { type: "agent"; ref: JudgeRef; workflow: Workflow; workflowVersionId: string; agentId: string }
  | { type: "agent"; ref: JudgeRef; broken: string };

/** The judge a spec names, as a suggestion records it before it ran (`label` names an agent judge by its name). */
export async function resolveJudge(db: Db, spec: JudgeSpecT): Promise<ResolvedJudge> {
  if (spec.type === "builtin") return { type: "builtin", ref: BUILTIN_JUDGE };
  if (spec.type === "llm") return { type: "llm", ref: llmJudgeRef() };
  const base = { type: "agent" as const, key: judgeKey(spec), agentId: spec.agentId, version: spec.version };
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId: spec.agentId, version: spec.version } },
    select: { id: true, agent: { select: { name: true, kind: true } } },
  });
  if (!row)
    return {
      type: "agent",
      ref: { ...base, label: `judge agent ${spec.agentId} v${spec.version}` },
      broken: `the judge agent ${spec.agentId} has no version ${spec.version} (deleted?)`,
    };
  const ref: JudgeRef = { ...base, label: `${row.agent.name} v${spec.version}` };
  if (row.agent.kind !== "judge") return { type: "agent", ref, broken: `${ref.label} is not a judge agent` };
  return {
    type: "agent",
    ref,
    workflow: await workflowOf(db, row.id),
    workflowVersionId: row.id,
    agentId: spec.agentId,
  };
}

/** Checks a judge a set is to use: see the module comment. */
export async function checkJudge(db: Db | Prisma.TransactionClient, spec: JudgeSpecT): Promise<void> {
  if (spec.type !== "agent") return;
  const agent = await db.agent.findUnique({ where: { id: spec.agentId }, select: { name: true, kind: true } });
  if (!agent) throw evalError("JUDGE_VERSION_NOT_FOUND", `Agent ${spec.agentId} does not exist`);
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId: spec.agentId, version: spec.version } },
    select: { workflow: true },
  });
  if (!row)
    throw evalError("JUDGE_VERSION_NOT_FOUND", `"${agent.name}" (${spec.agentId}) has no version ${spec.version}`);
  if (agent.kind !== "judge")
    throw evalError(
      "JUDGE_NOT_A_JUDGE",
      `"${agent.name}" (${spec.agentId}) is an agent of kind ${agent.kind}, not a judge: create judges with kind "judge"`,
    );
  const result = await validateWorkflowWithCode(
    { workflow: row.workflow, kind: "judge" },
    { webhookBaseUrl: env().WEBHOOK_BASE_URL },
  );
  if (!result.valid) throw workflowInvalid(result);
}

/** Tokens by model of an execution's steps: an llm step records its model in its output (server/runtime/nodes/llm.ts). */
export function tokensOfSteps(steps: readonly TraceStep[]): ModelTokens[] {
  return mergeTokens(
    steps.flatMap((s) => {
      if (!s.usage) return [];
      const out = s.output as { model?: unknown } | null | undefined;
      const model = typeof out?.model === "string" && out.model ? out.model : (s.provider ?? "unrecorded");
      return [{ model, promptTokens: s.usage.promptTokens, completionTokens: s.usage.completionTokens }];
    }),
  );
}

export type JudgeAgentInput = {
  question: string;
  points: string[];
  answer: string;
  payload: Record<string, unknown> | null;
  script: unknown[] | null;
  scenario: string;
};

/** One judging by a judge agent (see the module comment). */
export async function runJudgeAgent(
  db: Db,
  judge: Extract<ResolvedJudge, { type: "agent" }>,
  input: JudgeAgentInput,
  opts: { signal?: AbortSignal; idempotencyScope?: string } = {},
): Promise<JudgeResult> {
  if ("broken" in judge) return unknownJudgeResult(judge.ref, judge.broken, input.points);
  const values: Record<string, unknown> = {
    question: input.question,
    expected_points: input.points,
    answer: input.answer,
    scenario: input.scenario,
    ...(input.payload ? { payload: input.payload } : {}),
    ...(input.script ? { script: input.script } : {}),
  };
  let r: Awaited<ReturnType<typeof executeWorkflow>>;
  try {
    r = await executeWorkflow(db, {
      workflow: judge.workflow,
      input: values,
      mode: "pipeline_live",
      source: "eval",
      agentId: judge.agentId,
      workflowVersionId: judge.workflowVersionId,
      signal: opts.signal,
      ...(opts.idempotencyScope !== undefined ? { idempotencyScope: opts.idempotencyScope } : {}),
      limits: { timeoutMs: EVAL_LIMITS.judgeAgentTimeoutMs },
    });
  } catch (e) {
    return unknownJudgeResult(judge.ref, `the judge agent could not run: ${(e as Error).message}`, input.points);
  }
  const tokens = tokensOfSteps(r.steps);
  const usage = {
    promptTokens: r.usage.promptTokens,
    completionTokens: r.usage.completionTokens,
    calls: r.usage.llmCalls,
    ...(tokens[0] ? { model: tokens[0].model } : {}),
  };
  const ref: JudgeRef = tokens[0] ? { ...judge.ref, model: tokens[0].model } : judge.ref;
  if (r.status !== "succeeded") {
    const why = r.error
      ? `${r.error.code}: ${r.error.message}${r.error.nodeId ? ` (node ${r.error.nodeId})` : ""}`
      : r.status;
    return { ...unknownJudgeResult(ref, `the judge agent's run ${r.status}: ${why}`, input.points), usage, tokens };
  }
  const parsed = parseJudgeAnswer(r.answer);
  if (!parsed.ok) return { ...unknownJudgeResult(ref, parsed.reason, input.points), usage, tokens };
  return { ...judgeResultOfAnswer(parsed.answer, ref), usage, tokens };
}
