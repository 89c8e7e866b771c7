import { z } from "zod";
import { ATTRIBUTION_LIST, AssertionSchema, BAD_CASE_STATUSES, ITEM_STATUSES, RUN_MODES, RUN_STATUSES, SET_KINDS, TIERS, TurnSchema } from "./schemas";

/** Response shapes of the evaluation API, for the OpenAPI document (the services return exactly these fields). */
const date = z.iso.datetime();
const dateOrNull = date.nullable();

export const EvalVersionOut = z
  .object({
    id: z.string(),
    setId: z.string(),
    version: z.number().int(),
    status: z.enum(["draft", "frozen"]),
    note: z.string(),
    assertions: z.array(AssertionSchema).nullable().meta({ description: "Set-level rule assertions" }),
    frozenAt: dateOrNull,
    frozenById: z.string().nullable(),
    createdById: z.string().nullable(),
    createdAt: date,
    sampleCount: z.number().int(),
    runCount: z.number().int(),
  })
  .meta({ id: "EvalSetVersion" });

export const EvalSetOut = z
  .object({
    id: z.string(),
    agentId: z.string(),
    agentName: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.enum(SET_KINDS),
    gateThreshold: z.number().int().meta({ description: "Human-confirmed passes the gate needs (absolute count)" }),
    latestVersion: z.number().int().optional(),
    createdById: z.string().nullable(),
    createdAt: date,
    updatedAt: date,
  })
  .meta({ id: "EvalSet" });
export const EvalSetDetailOut = EvalSetOut.extend({ versions: z.array(EvalVersionOut) }).meta({ id: "EvalSetDetail" });

export const EvalSampleOut = z
  .object({
    id: z.string(),
    setVersionId: z.string(),
    key: z.string(),
    position: z.number().int(),
    question: z.string(),
    expectedPoints: z.array(z.string()),
    classification: z.string(),
    script: z.array(TurnSchema).nullable(),
    assertions: z.array(AssertionSchema).nullable(),
    sourceTraceId: z.string().nullable(),
    createdAt: date,
  })
  .meta({ id: "EvalSample" });

export const ProgressOut = z
  .object({
    total: z.number().int(),
    pending: z.number().int(),
    answering: z.number().int(),
    answered: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    done: z.number().int().meta({ description: "answered + failed + cancelled" }),
    suggested: z.number().int(),
    judged: z.number().int().meta({ description: "items with a verdict" }),
  })
  .meta({ id: "EvalRunProgress" });

export const EvalRunOut = z
  .object({
    id: z.string(),
    shortId: z.string().meta({ description: "Short readable Run ID, e.g. R-7K2F9 (accepted wherever {id} is)" }),
    status: z.enum(RUN_STATUSES),
    mode: z.enum(RUN_MODES),
    tier: z.enum(TIERS),
    environment: z.string(),
    concurrency: z.number().int(),
    setId: z.string(),
    setName: z.string(),
    setKind: z.enum(SET_KINDS),
    gateThreshold: z.number().int(),
    setVersionId: z.string(),
    setVersion: z.number().int(),
    agentId: z.string(),
    agentName: z.string(),
    workflowVersionId: z.string(),
    workflowVersion: z.number().int().meta({ description: "The agent's workflow version snapshotted at creation" }),
    rerunOfId: z.string().nullable(),
    error: z.string().nullable(),
    createdById: z.string().nullable(),
    createdByLabel: z.string().nullable().meta({ description: "Who created the run, for people: a user's name or e-mail, or `token <name>`" }),
    createdAt: date,
    startedAt: dateOrNull,
    answeredAt: dateOrNull,
    completedAt: dateOrNull,
    progress: ProgressOut,
  })
  .meta({ id: "EvalRun" });

export const SuggestionOut = z
  .object({
    verdict: z.enum(["pass", "fail", "unknown"]),
    judge: z.string().meta({ description: "builtin-coverage or llm:<provider>" }),
    coverage: z.array(z.object({ point: z.string(), status: z.enum(["covered", "partial", "missing", "unclear"]), score: z.number(), matched: z.array(z.string()), missing: z.array(z.string()), evidence: z.string().optional() })),
    failedRules: z.array(z.object({ type: z.string(), label: z.string(), passed: z.boolean(), message: z.string(), scope: z.enum(["set", "sample"]) })),
    rulesPassed: z.number().int(),
    flags: z.array(z.object({ flag: z.string(), message: z.string() })),
    rationale: z.string(),
    judgeError: z.string().optional(),
  })
  .meta({ id: "EvalSuggestion", description: "Machine suggestion: assistance only, never counted by a gate" });

export const VerdictOut = z
  .object({
    verdict: z.enum(["pass", "fail"]),
    source: z.enum(["human", "adopted"]),
    basis: z.string().nullable(),
    attribution: z.enum(ATTRIBUTION_LIST).nullable(),
    classification: z.string().nullable(),
    byId: z.string().nullable(),
    byLabel: z.string().nullable().optional().meta({ description: "Who, for people (in the single-item answer)" }),
    at: dateOrNull,
  })
  .meta({ id: "EvalVerdict" });

export const EvalItemOut = z
  .object({
    id: z.string(),
    runId: z.string(),
    sampleId: z.string(),
    key: z.string(),
    position: z.number().int(),
    question: z.string(),
    expectedPoints: z.array(z.string()),
    sampleClassification: z.string(),
    script: z.array(TurnSchema).nullable(),
    assertions: z.array(AssertionSchema).nullable(),
    sourceTraceId: z.string().nullable(),
    status: z.enum(ITEM_STATUSES),
    attempts: z.number().int(),
    answer: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).nullable().meta({ description: "Structured answer payload, e.g. goods_list" }),
    turns: z.array(z.unknown()).nullable().meta({ description: "Multi-turn scripts: every played turn with its answer and trace id" }),
    traceId: z.string().nullable(),
    latencyMs: z.number().int().nullable(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    llmCalls: z.number().int(),
    error: z.string().nullable(),
    answeredAt: dateOrNull,
    suggestion: SuggestionOut.nullable(),
    suggestedAt: dateOrNull,
    judgeTokens: z.number().int(),
    judgeCalls: z.number().int(),
    verdict: VerdictOut.nullable(),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
  })
  .meta({ id: "EvalRunItem" });

export const VerdictChangeOut = z
  .object({ id: z.string(), before: z.unknown(), after: z.unknown(), byId: z.string().nullable(), byLabel: z.string().nullable(), at: date })
  .meta({ id: "EvalVerdictChange" });

export const EvalQueueRowOut = z
  .object({
    id: z.string(),
    key: z.string(),
    position: z.number().int(),
    question: z.string().meta({ description: "The question, cut at 240 characters" }),
    classification: z.string().meta({ description: "The verdict's classification, else the sample's" }),
    status: z.enum(ITEM_STATUSES),
    suggestion: z.object({ verdict: z.enum(["pass", "fail", "unknown"]), flags: z.array(z.string()) }).nullable(),
    verdict: z.object({ verdict: z.enum(["pass", "fail"]), source: z.enum(["human", "adopted"]) }).nullable(),
    spotCheck: z.boolean().meta({ description: "Suggestion fail or unknown, or any guardrail flag" }),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
  })
  .meta({ id: "EvalQueueRow" });

export const EvalQueueOut = z
  .object({
    run: EvalRunOut,
    counts: z.object({
      total: z.number().int(),
      judged: z.number().int(),
      human: z.number().int().meta({ description: "Verdicts typed by a person (including adopted ones a person changed)" }),
      adopted: z.number().int().meta({ description: "Machine suggestions adopted in bulk, not yet changed by a person" }),
      spotCheckLeft: z.number().int().meta({ description: "Spot-check items without a human verdict (no verdict, or adopted)" }),
      matching: z.number().int().meta({ description: "Items matching the filters" }),
      adoptable: z.number().int().meta({ description: "Items without a verdict whose suggestion is pass or fail: what bulk adopt would write" }),
      unknownOpen: z.number().int().meta({ description: "Items without a verdict whose suggestion is unknown: adopt leaves them to a person" }),
    }),
    items: z.array(EvalQueueRowOut),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "EvalQueue" });

export const GateResultOut = z
  .object({
    passed: z.boolean(),
    status: z.enum(["pass", "fail"]),
    summary: z.string(),
    reasons: z.array(z.object({ code: z.string(), message: z.string() })),
    counts: z.object({ questions: z.number().int(), judged: z.number().int(), unjudged: z.number().int(), pass: z.number().int(), fail: z.number().int(), threshold: z.number().int(), missingPasses: z.number().int() }),
    unjudged: z.array(z.string()),
    failing: z.array(z.string()),
  })
  .meta({ id: "EvalGateResult" });

export const GateOut = z
  .object({
    runId: z.string(),
    shortId: z.string(),
    setId: z.string(),
    setName: z.string(),
    setVersion: z.number().int(),
    input: z.object({ runId: z.string(), shortId: z.string(), runStatus: z.string(), setKind: z.enum(SET_KINDS), threshold: z.number().int(), questions: z.array(z.object({ key: z.string(), verdict: z.enum(["pass", "fail"]).nullable() })) }),
    result: GateResultOut,
  })
  .meta({ id: "EvalGate" });

const groupOut = z.object({ total: z.number().int(), machinePass: z.number().int(), machineFail: z.number().int(), machineUnknown: z.number().int(), humanPass: z.number().int(), humanFail: z.number().int(), judged: z.number().int(), machinePassRate: z.number().nullable(), humanPassRate: z.number().nullable() });
export const ReportOut = z
  .object({
    run: EvalRunOut,
    generatedAt: date,
    set: z.object({ id: z.string(), name: z.string(), kind: z.enum(SET_KINDS), version: z.number().int(), gateThreshold: z.number().int() }),
    totals: z.object({ items: z.number().int(), pending: z.number().int(), answering: z.number().int(), answered: z.number().int(), failed: z.number().int(), cancelled: z.number().int() }),
    completeness: z.object({ judged: z.number().int(), total: z.number().int(), ratio: z.number().nullable(), human: z.number().int(), adopted: z.number().int() }),
    machine: z.object({ pass: z.number().int(), fail: z.number().int(), unknown: z.number().int(), none: z.number().int(), passRate: z.number().nullable(), note: z.string() }),
    human: z.object({ pass: z.number().int(), fail: z.number().int(), unjudged: z.number().int(), passRate: z.number().nullable(), passRateOfJudged: z.number().nullable(), note: z.string() }),
    breakdown: z.object({
      byTier: z.array(groupOut.extend({ tier: z.enum(TIERS) })),
      byClassification: z.array(groupOut.extend({ classification: z.string() })),
      byAttribution: z.array(z.object({ attribution: z.string(), fails: z.number().int() })),
      byFlag: z.array(z.object({ flag: z.string(), items: z.number().int() })),
    }),
    agreement: z.object({
      pairs: z.number().int(),
      agreed: z.number().int(),
      rawAgreement: z.number().nullable(),
      expectedAgreement: z.number().nullable(),
      kappa: z.number().nullable().meta({ description: "Cohen's kappa; null without pairs or without variance" }),
      matrix: z.record(z.string(), z.number().int()),
      note: z.string().nullable(),
      excludedUnknown: z.number().int(),
      excludedAdopted: z.number().int(),
      basis: z.string(),
    }),
    latency: z.object({ items: z.number().int(), totalMs: z.number(), meanMs: z.number().nullable(), p50Ms: z.number().nullable(), p95Ms: z.number().nullable(), maxMs: z.number().nullable() }),
    tokens: z.object({
      answering: z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int(), modelCalls: z.number().int() }),
      judging: z.object({ tokens: z.number().int(), modelCalls: z.number().int() }),
    }),
    gate: GateResultOut,
  })
  .meta({ id: "EvalReport" });

const sideOut = z.object({ itemId: z.string(), human: z.enum(["pass", "fail"]).nullable(), machine: z.enum(["pass", "fail", "unknown"]).nullable() }).nullable();
const outcome = z.enum(["both_pass", "fixed", "regressed", "both_fail", "incomplete", "only_a", "only_b"]);
const runSide = z.object({ id: z.string(), shortId: z.string(), setVersion: z.number().int(), tier: z.string(), mode: z.string(), workflowVersion: z.number().int(), environment: z.string() });
const rates = z.object({ a: z.number().nullable(), b: z.number().nullable(), delta: z.number().nullable() });
export const CompareOut = z
  .object({
    runA: runSide,
    runB: runSide,
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    summary: z.record(outcome, z.number().int()),
    machineSummary: z.record(outcome, z.number().int()),
    passRates: z.object({ human: rates, machine: rates }),
    questions: z.array(z.object({ key: z.string(), question: z.string(), classification: z.string(), a: sideOut, b: sideOut, outcome, machineOutcome: outcome })),
  })
  .meta({ id: "EvalCompare" });

const usageNumbers = {
  runs: z.number().int(),
  answeredItems: z.number().int(),
  answering: z.object({ modelCalls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int(), tokens: z.number().int() }),
  judging: z.object({ modelCalls: z.number().int(), tokens: z.number().int() }),
};
export const UsageOut = z
  .object({
    from: z.string(),
    to: z.string(),
    agentId: z.string().nullable(),
    totals: z.object(usageNumbers),
    days: z.array(z.object({ day: z.string(), agentId: z.string(), agentName: z.string().nullable(), ...usageNumbers })),
  })
  .meta({ id: "EvalUsage" });

export const BadCaseOut = z
  .object({
    id: z.string(),
    status: z.enum(BAD_CASE_STATUSES),
    title: z.string(),
    notes: z.string(),
    attribution: z.string().nullable(),
    itemId: z.string(),
    runId: z.string(),
    runShortId: z.string(),
    sampleId: z.string(),
    sampleKey: z.string(),
    question: z.string(),
    classification: z.string().meta({ description: "Business scenario: the verdict's classification, else the sample's" }),
    agentId: z.string(),
    setId: z.string(),
    setName: z.string(),
    createdById: z.string().nullable(),
    createdByLabel: z.string().nullable(),
    createdAt: date,
    updatedAt: date,
  })
  .meta({ id: "EvalBadCase" });

export const RowErrorOut = z.object({ row: z.number().int(), field: z.string(), message: z.string() }).meta({ id: "EvalRowError" });

export const EvalVocabularyOut = z
  .object({
    attributions: z.record(z.string(), z.string()).meta({ description: "attribution -> meaning (failure points in the chain)" }),
    guardrailFlags: z.record(z.string(), z.string()).meta({ description: "flag -> meaning" }),
    ruleTypes: z.array(z.string()),
    rules: z.array(
      z.object({
        type: z.string(),
        fields: z.array(z.object({ name: z.string(), kind: z.enum(["text", "number", "json", "choice"]), optional: z.boolean(), choices: z.array(z.string()).optional() })),
      }),
    ),
    tiers: z.array(z.object({ tier: z.enum(TIERS), meaning: z.string() })),
    modes: z.array(z.enum(RUN_MODES)),
    setKinds: z.array(z.enum(SET_KINDS)),
    runStatuses: z.array(z.enum(RUN_STATUSES)),
    itemStatuses: z.array(z.enum(ITEM_STATUSES)),
    badCaseStatuses: z.array(z.enum(BAD_CASE_STATUSES)),
    lifecycle: z.string(),
    limits: z.record(z.string(), z.number()),
  })
  .meta({ id: "EvalVocabulary" });
