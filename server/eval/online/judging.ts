import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { type Principal, actorRef } from "../../auth/service";
import { parseInput } from "../../core/errors";
import { requireAgent } from "../../agents/service";
import { getLlmProvider } from "../../runtime";
import type { Workflow } from "../../workflow";
import { evalError } from "../errors";
import { llmJudgeRef, type JudgeResult } from "../suggestions/judge";
import { checkJudge, describeJudge, resolveJudge, runJudgeAgent, storedJudgeSpec } from "../suggestions/judge-agent";
import { unknownJudgeResult } from "../suggestions/judge-answer";
import { referenceFreeJudge } from "../suggestions/reference-free";
import type { JudgeSpecT } from "../suggestions/schemas";
import { liveIntentOf } from "../shadow/intent";
import { ONLINE_JUDGING_LIMITS, OnlineJudgingFilters, OnlineJudgingInput } from "./schemas";
import { watchChanged } from "./watch-state";
import { conversationsBefore, userMessage, versionWorkflow } from "./traces";

/**
 * Sampled online judging (issue 25): per agent, a rule says which share of its online answers a judge looks at, in the
 * background after the chat answered (the online worker's queue, ./worker.ts), and with which judge.
 *
 * - The rule: `samplingRate` 0..1 (an answer is sampled when the hash of its trace id falls below it: ./sampler.ts),
 *   `filters` (source chat or api; minLength of the user's message; scenario: the value a template reads from the
 *   trace's steps, one of `values`), `judge` and `enabled`. Online answers have no expected points, so the built-in
 *   point-coverage judge is refused (400 JUDGE_NEEDS_POINTS); the LLM judge judges with its reference-free rubric
 *   (../suggestions/reference-free.ts: addresses the question, uses what the agent's queries returned, invents
 *   nothing); a judge agent gets `expected_points: []` with the question, the answer, the payload and the scenario.
 * - One judgment per trace (OnlineJudgment): fail and unknown make the trace a lead with the signal judge_fail /
 *   judge_unknown and the judge's rationale (./leads.ts). An answer whose run failed or is empty is not judged (the
 *   guardrail signals already make it a lead). The LLM judge without a model provider, a judge agent that fails, or a
 *   reply that cannot be read is `unknown` with the reason, never a pass.
 */
type Filters = z.output<typeof OnlineJudgingFilters>;

type Globals = { __flowbenchOnlineRules?: Map<string, { at: number; rule: RuleRow | null }> };
const globals = globalThis as typeof globalThis & Globals;

type RuleRow = {
  agentId: string;
  samplingRate: number;
  filters: unknown;
  judge: unknown;
  enabled: boolean;
  updatedById: string | null;
  updatedAt: Date;
};

/** The agent's rule, re-read at most every ONLINE_JUDGING_LIMITS.ruleTtlMs (a change made here applies at once). */
export async function cachedRule(db: Db, agentId: string): Promise<RuleRow | null> {
  const cache = (globals.__flowbenchOnlineRules ??= new Map());
  const hit = cache.get(agentId);
  if (hit && Date.now() - hit.at < ONLINE_JUDGING_LIMITS.ruleTtlMs) return hit.rule;
  const rule = await db.onlineJudgingRule.findUnique({ where: { agentId } });
  if (cache.size >= 1000) cache.clear();
  cache.set(agentId, { at: Date.now(), rule });
  return rule;
}

export function ruleChanged(agentId: string): void {
  globals.__flowbenchOnlineRules?.delete(agentId);
  watchChanged(agentId);
}

const filtersOf = (stored: unknown): Filters => {
  const parsed = OnlineJudgingFilters.safeParse(stored ?? {});
  return parsed.success ? parsed.data : {};
};

async function ruleOut(db: Db, r: RuleRow) {
  const judge = storedJudgeSpec(r.judge) ?? ({ type: "llm" } as JudgeSpecT);
  return {
    agentId: r.agentId,
    samplingRate: r.samplingRate,
    filters: filtersOf(r.filters),
    judge,
    judgeLabel: judge.type === "llm" ? "LLM judge (reference-free rubric)" : (await describeJudge(db, judge)).label,
    enabled: r.enabled,
    updatedById: r.updatedById,
    updatedAt: r.updatedAt,
  };
}

export async function getOnlineJudging(db: Db, agentId: string) {
  await requireAgent(db, agentId);
  const [rule, counts] = await Promise.all([
    db.onlineJudgingRule.findUnique({ where: { agentId } }),
    db.onlineJudgment.groupBy({
      by: ["verdict"],
      where: { agentId, judgedAt: { gte: new Date(Date.now() - 7 * 86_400_000) } },
      _count: { _all: true },
    }),
  ]);
  const n = (v: string) => counts.find((c) => c.verdict === v)?._count._all ?? 0;
  return {
    rule: rule ? await ruleOut(db, rule) : null,
    last7Days: {
      judged: n("pass") + n("fail") + n("unknown"),
      pass: n("pass"),
      fail: n("fail"),
      unknown: n("unknown"),
    },
  };
}

export async function putOnlineJudging(
  db: Db,
  agentId: string,
  input: z.input<typeof OnlineJudgingInput>,
  actor: Principal | null,
) {
  const body = parseInput(OnlineJudgingInput, input);
  await requireAgent(db, agentId);
  if (body.judge.type === "builtin")
    throw evalError(
      "JUDGE_NEEDS_POINTS",
      "The built-in judge checks answers against expected points, which online answers do not have: choose the LLM judge (reference-free rubric) or a judge agent",
      [{ path: "judge.type", value: "builtin" }],
    );
  await checkJudge(db, body.judge);
  const data = {
    samplingRate: body.samplingRate,
    filters: body.filters as Prisma.InputJsonValue,
    judge: body.judge as Prisma.InputJsonValue,
    enabled: body.enabled,
    updatedById: actorRef(actor),
  };
  await db.onlineJudgingRule.upsert({ where: { agentId }, create: { agentId, ...data }, update: data });
  ruleChanged(agentId);
  return getOnlineJudging(db, agentId);
}

/** What the filters read of a trace. */
export type FilterTrace = { source: string; input: unknown; steps: unknown; workflow: Workflow | null };

/** Whether a sampled answer passes the rule's filters (source, the user message's length, the scenario). */
export function passesFilters(stored: unknown, t: FilterTrace): boolean {
  const f = filtersOf(stored);
  if (f.source && t.source !== f.source) return false;
  if (f.minLength && userMessage(t.input, t.workflow).length < f.minLength) return false;
  if (f.scenario) {
    const value = (liveIntentOf(t.steps, f.scenario.ref) ?? "").toLowerCase();
    if (!f.scenario.values.some((v) => v.toLowerCase() === value)) return false;
  }
  return true;
}

/** Whether the filters need the trace's input or steps (else the sample decision needs nothing but the id). */
export function filtersNeedTrace(stored: unknown): boolean {
  const f = filtersOf(stored);
  return !!(f.source || f.minLength || f.scenario);
}

type HttpStep = { type?: string; status?: string; output?: unknown };

/**
 * Judges one sampled online answer with its agent's rule (see the module comment) and stores the judgment; answers
 * the trace's judgment (the stored one when it was judged before) or null when it is not judged: not online, its rule
 * gone or disabled, its run failed or gave no answer.
 */
export async function judgeOnlineTrace(
  db: Db,
  traceId: string,
  opts: { signal?: AbortSignal } = {},
): Promise<{ agentId: string; verdict: string } | null> {
  // judged already (a retried job): the stored judgment, so the lead it makes is still recorded
  const before = await db.onlineJudgment.findUnique({ where: { traceId }, select: { agentId: true, verdict: true } });
  if (before) return before;
  const t = await db.trace.findUnique({
    where: { id: traceId },
    select: {
      id: true,
      agentId: true,
      source: true,
      status: true,
      input: true,
      answer: true,
      payload: true,
      steps: true,
      sessionId: true,
      workflowVersionId: true,
    },
  });
  if (!t?.agentId || (t.source !== "chat" && t.source !== "api")) return null;
  const rule = await db.onlineJudgingRule.findUnique({ where: { agentId: t.agentId } });
  const spec = rule?.enabled ? storedJudgeSpec(rule.judge) : null;
  if (!rule || !spec || spec.type === "builtin") return null;
  if (t.status !== "succeeded" || !t.answer?.trim()) return null;
  const workflow = await versionWorkflow(db, t.workflowVersionId);
  const question = userMessage(t.input, workflow);
  const payload = (t.payload as Record<string, unknown> | null) ?? null;
  let result: JudgeResult;
  if (spec.type === "llm") {
    const provider = getLlmProvider();
    const conversation = (
      await conversationsBefore(db, [{ id: t.id, sessionId: t.sessionId, workflow }], t.agentId)
    ).get(t.id);
    const steps = Array.isArray(t.steps) ? (t.steps as HttpStep[]) : [];
    if (provider.offline)
      result = unknownJudgeResult(
        llmJudgeRef(),
        "no model provider is configured (OPENAI_BASE_URL): the LLM judge cannot run; choose a judge agent or configure a provider",
      );
    else
      result = await referenceFreeJudge(provider, {
        question,
        answer: t.answer,
        conversation,
        queryResults: steps.filter((s) => s.type === "http" && s.status === "succeeded").map((s) => s.output),
        payload,
        signal: opts.signal,
        idempotencyScope: `online-judge:${t.id}`,
      }).catch((e: unknown) =>
        unknownJudgeResult(llmJudgeRef(), `the LLM judge failed: ${(e as Error).message}`.slice(0, 300)),
      );
  } else {
    const judge = await resolveJudge(db, spec);
    const scenario = filtersOf(rule.filters).scenario;
    result =
      judge.type === "agent"
        ? await runJudgeAgent(
            db,
            judge,
            {
              question,
              points: [],
              answer: t.answer,
              payload,
              script: null,
              scenario: scenario ? (liveIntentOf(t.steps, scenario.ref) ?? "") : "",
            },
            { signal: opts.signal, idempotencyScope: `online-judge:${t.id}` },
          )
        : unknownJudgeResult(judge.ref, "not a judge agent");
  }
  const tokens =
    result.tokens ?? (result.usage ? [{ model: result.usage.model ?? "unrecorded", ...result.usage }] : []);
  const made = await db.onlineJudgment.createMany({
    data: [
      {
        traceId: t.id,
        agentId: t.agentId,
        verdict: result.verdict,
        rationale: result.rationale.slice(0, 1000),
        judgedBy: (result.judgedBy ?? llmJudgeRef()) as unknown as Prisma.InputJsonValue,
        criteria: result.coverage.map((c) => ({ point: c.point, status: c.status })) as Prisma.InputJsonValue,
        error: result.error ?? null,
        tokens: tokens.map((x) => ({
          model: x.model,
          promptTokens: x.promptTokens,
          completionTokens: x.completionTokens,
        })) as Prisma.InputJsonValue,
      },
    ],
    skipDuplicates: true,
  });
  if (made.count) return { agentId: t.agentId, verdict: result.verdict };
  return db.onlineJudgment.findUnique({ where: { traceId }, select: { agentId: true, verdict: true } });
}
