import type { Db } from "../../db/client";
import { executeWorkflow, inputFromMessage, type ChatTurn, type ExecuteResult, type TraceStep } from "../../runtime";
import type { Workflow } from "../../workflow";
import type { Tier } from "./schemas";
import type { Turn } from "../sets/schemas";
import { mergeTokens, type ModelTokens } from "../../core/prices";
import { tokensOfSteps } from "../suggestions/judge-agent";

/**
 * Answering one sample through the runtime at the run's tier (source "eval": never the online answer cache).
 *
 * Multi-turn scripts are played in order: preset turns (any role) are appended to the history without calling
 * the model; each non-preset user turn calls the workflow with the history so far, then the turn and its answer
 * are appended. When the script has no non-preset turn, the question is asked after the preset turns. The item's
 * answer/payload/trace are the LAST execution's; every turn (with its answer and trace id) is kept in `turns`;
 * the judge reads all turn answers together. Token and call counts are summed over the turns. A turn that fails
 * or is cancelled ends the script. Memory nodes use `memoryScope`: one isolated scope for all turns of the sample,
 * empty at the start, so an evaluation neither reads nor changes the agent's production memory.
 */
export type TurnRecord = Turn & {
  answer?: string | null;
  traceId?: string;
  status?: string;
  payload?: Record<string, unknown> | null;
};
export type AnswerOutcome = {
  status: "answered" | "failed" | "cancelled";
  answer: string | null;
  payload: Record<string, unknown> | null;
  traceId: string | null;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
  /** tokens by model (each llm step's model as the trace records it), for the cost */
  usage: ModelTokens[];
  error: string | null;
  steps: TraceStep[];
  turns: TurnRecord[] | null;
  judgeText: string;
};
export type AnswerTarget = {
  workflow: Workflow;
  tier: Tier;
  agentId: string;
  workflowVersionId: string;
  question: string;
  script: Turn[] | null;
  /** The isolated memory scope shared by the script's turns (starts empty; never the agent's production memory). */
  memoryScope: string;
  /**
   * The item's idempotency scope (the same on every attempt): each turn's execution gets `<scope>:t<turn>`, so a
   * model call made again after an instance died sends the same idempotency key (server/runtime ExecuteOptions).
   */
  idempotencyScope?: string;
  signal?: AbortSignal;
};

function errorText(r: ExecuteResult): string | null {
  return r.error ? `${r.error.code}: ${r.error.message}${r.error.nodeId ? ` (node ${r.error.nodeId})` : ""}` : null;
}

/** Tokens by model of an execution's steps (the one rule, beside the judge agents that need it too). */
export { tokensOfSteps };

export async function answerSample(db: Db, t: AnswerTarget): Promise<AnswerOutcome> {
  const history: ChatTurn[] = [];
  const turns: TurnRecord[] | null = t.script ? [] : null;
  const plan: Array<{ kind: "preset"; turn: Turn } | { kind: "ask"; content: string; turn: Turn | null }> = [];
  if (t.script) {
    for (const turn of t.script)
      plan.push(turn.preset ? { kind: "preset", turn } : { kind: "ask", content: turn.content, turn });
    if (!t.script.some((x) => !x.preset)) plan.push({ kind: "ask", content: t.question, turn: null });
  } else plan.push({ kind: "ask", content: t.question, turn: null });

  const out: AnswerOutcome = {
    status: "answered",
    answer: null,
    payload: null,
    traceId: null,
    latencyMs: 0,
    promptTokens: 0,
    completionTokens: 0,
    llmCalls: 0,
    usage: [],
    error: null,
    steps: [],
    turns,
    judgeText: "",
  };
  const answers: string[] = [];
  for (const [turn, step] of plan.entries()) {
    if (step.kind === "preset") {
      history.push({ role: step.turn.role, content: step.turn.content });
      turns?.push({ ...step.turn });
      continue;
    }
    if (t.signal?.aborted) {
      out.status = "cancelled";
      break;
    }
    let r: ExecuteResult;
    const started = Date.now();
    try {
      r = await executeWorkflow(db, {
        workflow: t.workflow,
        input: inputFromMessage(t.workflow, step.content),
        mode: t.tier,
        source: "eval",
        agentId: t.agentId,
        workflowVersionId: t.workflowVersionId,
        history: history.length ? [...history] : undefined,
        memoryScope: t.memoryScope,
        ...(t.idempotencyScope !== undefined ? { idempotencyScope: `${t.idempotencyScope}:t${turn}` } : {}),
        signal: t.signal,
      });
    } catch (e) {
      out.latencyMs += Date.now() - started;
      out.status = t.signal?.aborted ? "cancelled" : "failed";
      out.error = out.status === "failed" ? `EXECUTION_ERROR: ${(e as Error).message}`.slice(0, 2000) : null;
      break;
    }
    out.latencyMs += Math.round(r.durationMs);
    out.promptTokens += r.usage.promptTokens;
    out.completionTokens += r.usage.completionTokens;
    out.llmCalls += r.usage.llmCalls;
    out.usage = mergeTokens(out.usage, tokensOfSteps(r.steps));
    out.steps.push(...r.steps);
    out.answer = r.answer;
    out.payload = r.payload;
    out.traceId = r.traceId;
    if (r.answer) answers.push(r.answer);
    const userTurn: Turn = step.turn ?? { role: "user", content: step.content, preset: false };
    turns?.push({ ...userTurn, answer: r.answer, traceId: r.traceId, status: r.status, payload: r.payload });
    history.push({ role: "user", content: step.content });
    history.push({ role: "assistant", content: r.answer ?? "" });
    if (r.status !== "succeeded") {
      out.status = r.status === "cancelled" ? "cancelled" : "failed";
      out.error = errorText(r) ?? (r.status === "failed" ? "the execution failed" : null);
      break;
    }
  }
  out.judgeText = answers.join("\n");
  return out;
}
