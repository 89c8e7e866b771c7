import { z } from "zod";
import { FindingOut } from "../agents/schemas";
import { OUTCOMES } from "./compare";
import {
  ATTRIBUTION_LIST,
  AssertionSchema,
  BAD_CASE_STATUSES,
  ITEM_STATUSES,
  LEAD_SIGNALS,
  LEAD_STATUSES,
  RUN_MODES,
  RUN_STATUSES,
  SET_KINDS,
  TIERS,
  TurnSchema,
} from "./schemas";

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
    referenceAnswer: z.string().nullable().meta({
      description: "Online-sourced samples: the answer online users got (for reference; never the expectation)",
    }),
    addedById: z
      .string()
      .nullable()
      .meta({ description: "Who added the sample to the pool (online loop); kept in later versions" }),
    confirmedAt: date.nullable().meta({
      description: "Online loop: when a person confirmed the candidate belongs in the pool (kept in later versions)",
    }),
    confirmedById: z.string().nullable(),
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
    adopted: z
      .number()
      .int()
      .meta({ description: "of those, verdicts adopted from machine suggestions (not changed by a person since)" }),
    human: z.number().int().meta({
      description:
        "of those, verdicts typed by people (judged - adopted; an adopted verdict a person changed counts here)",
    }),
    fails: z.number().int().meta({ description: "items whose verdict is fail" }),
    unfiledFails: z.number().int().meta({ description: "failed items without a Bad Case yet" }),
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
    gateThreshold: z
      .number()
      .int()
      .meta({ description: "The threshold that gates this run: the set's threshold when the run was created (fixed)" }),
    setGateThreshold: z
      .number()
      .int()
      .meta({ description: "The set's current threshold (applies to runs created from now on)" }),
    setVersionId: z.string(),
    setVersion: z.number().int(),
    agentId: z.string(),
    agentName: z.string(),
    workflowVersionId: z.string(),
    workflowVersion: z.number().int().meta({ description: "The agent's workflow version snapshotted at creation" }),
    rerunOfId: z.string().nullable(),
    error: z.string().nullable(),
    createdById: z.string().nullable(),
    createdByLabel: z
      .string()
      .nullable()
      .meta({ description: "Who created the run, for people: a user's name or e-mail, or `token <name>`" }),
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
    coverage: z.array(
      z.object({
        point: z.string(),
        status: z.enum(["covered", "partial", "missing", "unclear"]),
        score: z.number(),
        matched: z.array(z.string()),
        missing: z.array(z.string()),
        evidence: z.string().optional(),
      }),
    ),
    failedRules: z.array(
      z.object({
        type: z.string(),
        label: z.string(),
        passed: z.boolean(),
        message: z.string(),
        scope: z.enum(["set", "sample"]),
      }),
    ),
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
    payload: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "Structured answer payload, e.g. goods_list" }),
    turns: z
      .array(z.unknown())
      .nullable()
      .meta({ description: "Multi-turn scripts: every played turn with its answer and trace id" }),
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
    verdictVersion: z.number().int().meta({
      description:
        "How many verdict changes the item has had (0: none); send it back as expectedVersion to detect concurrent edits",
    }),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
  })
  .meta({ id: "EvalRunItem" });

export const VerdictChangeOut = z
  .object({
    id: z.string(),
    version: z.number().int().meta({
      description:
        "1, 2, 3 ... : the item's verdictVersion after this change; each row's before is the previous row's after",
    }),
    before: z.unknown(),
    after: z.unknown(),
    byId: z.string().nullable(),
    byLabel: z.string().nullable(),
    at: date,
  })
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
    spotCheckLeft: z.boolean().meta({
      description:
        "A spot-check item without a verdict a person typed (no verdict, or adopted): the tag the queue shows",
    }),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
  })
  .meta({ id: "EvalQueueRow" });

const reviewCounts = {
  total: z.number().int(),
  judged: z.number().int(),
  human: z.number().int().meta({ description: "Verdicts typed by a person (including adopted ones a person changed)" }),
  adopted: z.number().int().meta({ description: "Machine suggestions adopted in bulk, not yet changed by a person" }),
  spotCheckLeft: z
    .number()
    .int()
    .meta({ description: "Spot-check items without a human verdict (no verdict, or adopted)" }),
  adoptable: z
    .number()
    .int()
    .meta({ description: "Items without a verdict whose suggestion is pass or fail: what bulk adopt would write" }),
  unknownOpen: z
    .number()
    .int()
    .meta({ description: "Items without a verdict whose suggestion is unknown: adopt leaves them to a person" }),
};

export const EvalReviewProgressOut = z
  .object({ progress: ProgressOut, counts: z.object(reviewCounts) })
  .meta({ id: "EvalReviewProgress" });

export const EvalQueueOut = z
  .object({
    run: EvalRunOut,
    counts: z
      .object({ ...reviewCounts, matching: z.number().int().meta({ description: "Items matching the filters" }) })
      .nullable()
      .meta({
        description:
          "The review progress (as GET …/progress counts it) and the items matching the filters: on the first page (no cursor) only, null on the pages after it",
      }),
    items: z.array(EvalQueueRowOut),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "EvalQueue" });

export const EvalQueueNeighboursOut = z
  .object({
    itemId: z.string(),
    position: z.number().int().nullable().meta({
      description: "1-based place among the items matching the filters; null when the item does not match them",
    }),
    matching: z.number().int().meta({ description: "Items matching the filters" }),
    firstPosition: z.number().int().meta({
      description:
        "The place among the matching items of the first one of `before`, the item itself (when it matches) and `after`, in that order",
    }),
    before: z
      .array(EvalQueueRowOut)
      .meta({ description: "Up to 20 matching items before it, in queue order: its previous item is the last" }),
    after: z
      .array(EvalQueueRowOut)
      .meta({ description: "Up to 20 matching items after it, in queue order: its next item is the first" }),
    nextOpen: EvalQueueRowOut.nullable().meta({
      description: "The next matching item without a verdict after it, else the first one before it",
    }),
  })
  .meta({ id: "EvalQueueNeighbours" });

export const GateResultOut = z
  .object({
    passed: z.boolean().meta({ description: "status is pass" }),
    status: z.enum(["pass", "fail", "pending"]).meta({
      description:
        "pass; fail = decided (all judged and checked below the threshold, the threshold out of reach even if every open question passed, a regression pool, a cancelled or failed run); pending = not decided yet (still answering, questions without a verdict, spot-checks left)",
    }),
    summary: z.string().meta({ description: "One line starting with PASS, FAIL or PENDING" }),
    reasons: z.array(z.object({ code: z.string(), message: z.string() })),
    missing: z
      .array(z.string())
      .meta({ description: 'What a pending gate waits for, in words ("13 spot-checks left"); empty unless pending' }),
    counts: z.object({
      questions: z.number().int(),
      judged: z.number().int(),
      unjudged: z.number().int(),
      pass: z.number().int().meta({ description: "Human-confirmed passes: typed + adopted" }),
      passTyped: z.number().int().meta({ description: "Passes a person typed" }),
      passAdopted: z.number().int().meta({ description: "Passes adopted from machine suggestions" }),
      fail: z.number().int(),
      typed: z.number().int().meta({ description: "Verdicts a person typed (pass or fail)" }),
      adopted: z.number().int().meta({ description: "Verdicts adopted in bulk, not changed by a person" }),
      spotChecksLeft: z
        .number()
        .int()
        .meta({ description: "Spot-check questions without a verdict a person typed (no verdict, or adopted)" }),
      threshold: z.number().int(),
      missingPasses: z.number().int(),
      reachablePasses: z.number().int().meta({
        description:
          "The most passes still possible: passes now plus every open question (no verdict, or an adopted fail still to spot-check)",
      }),
    }),
    unjudged: z.array(z.string()),
    spotChecksLeft: z.array(z.string()).meta({ description: "Keys of the spot-check questions left" }),
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
    input: z.object({
      runId: z.string(),
      shortId: z.string(),
      runStatus: z.string(),
      setKind: z.enum(SET_KINDS),
      threshold: z.number().int(),
      questions: z.array(
        z.object({
          key: z.string(),
          verdict: z.enum(["pass", "fail"]).nullable(),
          source: z
            .enum(["human", "adopted"])
            .nullable()
            .optional()
            .meta({ description: "Who made the verdict: typed by a person or adopted in bulk" }),
          spotCheck: z
            .boolean()
            .optional()
            .meta({ description: "On the spot-check list (suggestion fail or unknown, or any guardrail flag)" }),
        }),
      ),
    }),
    result: GateResultOut,
  })
  .meta({ id: "EvalGate" });

const groupOut = z.object({
  total: z.number().int(),
  machinePass: z.number().int(),
  machineFail: z.number().int(),
  machineUnknown: z.number().int(),
  humanPass: z.number().int(),
  humanFail: z.number().int(),
  judged: z.number().int(),
  machinePassRate: z.number().nullable(),
  humanPassRate: z.number().nullable(),
});
export const ReportOut = z
  .object({
    run: EvalRunOut,
    generatedAt: date,
    set: z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(SET_KINDS),
      version: z.number().int(),
      gateThreshold: z
        .number()
        .int()
        .meta({ description: "The threshold that gates this run (fixed when the run was created)" }),
      currentGateThreshold: z
        .number()
        .int()
        .meta({ description: "The set's threshold today; differs when it was changed after the run" }),
    }),
    totals: z.object({
      items: z.number().int(),
      pending: z.number().int(),
      answering: z.number().int(),
      answered: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
    }),
    completeness: z.object({
      judged: z.number().int(),
      total: z.number().int(),
      ratio: z.number().nullable(),
      human: z.number().int(),
      adopted: z.number().int(),
    }),
    machine: z.object({
      pass: z.number().int(),
      fail: z.number().int(),
      unknown: z.number().int(),
      none: z.number().int(),
      passRate: z.number().nullable(),
      counted: z.number().int().meta({
        description:
          "The questions passRate divides by: while the run is answering, those answered so far (answered or failed); then all",
      }),
      note: z.string(),
    }),
    human: z.object({
      pass: z.number().int(),
      fail: z.number().int(),
      unjudged: z.number().int(),
      passRate: z.number().nullable(),
      passRateOfJudged: z.number().nullable(),
      note: z.string(),
    }),
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
      typed: z.number().int().meta({
        description:
          "Verdicts people typed: pairs + excludedUnknown, the same number as completeness.human (the pairs leave out typed verdicts whose suggestion was unknown or missing)",
      }),
      basis: z.string(),
    }),
    latency: z.object({
      items: z.number().int(),
      totalMs: z.number(),
      meanMs: z.number().nullable(),
      p50Ms: z.number().nullable(),
      p95Ms: z.number().nullable(),
      maxMs: z.number().nullable(),
    }),
    tokens: z.object({
      answering: z.object({
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        totalTokens: z.number().int(),
        modelCalls: z.number().int(),
      }),
      judging: z.object({ tokens: z.number().int(), modelCalls: z.number().int() }),
    }),
    gate: GateResultOut,
  })
  .meta({ id: "EvalReport" });

const sideOut = z
  .object({
    itemId: z.string(),
    human: z.enum(["pass", "fail"]).nullable(),
    machine: z.enum(["pass", "fail", "unknown"]).nullable(),
  })
  .nullable();
const outcome = z.enum(OUTCOMES);
const runSide = z.object({
  id: z.string(),
  shortId: z.string(),
  setVersion: z.number().int(),
  tier: z.string(),
  mode: z.string(),
  workflowVersion: z.number().int(),
  environment: z.string(),
  judged: z
    .number()
    .int()
    .meta({ description: "Questions of the run with a human verdict (0: its human pass rate is null)" }),
  suggested: z
    .number()
    .int()
    .meta({ description: "Questions of the run with a machine suggestion (0: its machine pass rate is null)" }),
});
const rates = z.object({
  a: z.number().nullable().meta({ description: "null when the run has no verdict (human) or no suggestion (machine)" }),
  b: z.number().nullable(),
  delta: z.number().nullable().meta({ description: "b - a; null when either side is null" }),
});
export const CompareOut = z
  .object({
    runA: runSide,
    runB: runSide,
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    summary: z.record(outcome, z.number().int()),
    machineSummary: z.record(outcome, z.number().int()),
    passRates: z.object({ human: rates, machine: rates }),
    questions: z
      .array(
        z.object({
          key: z.string(),
          question: z.string(),
          classification: z.string(),
          a: sideOut,
          b: sideOut,
          outcome,
          machineOutcome: outcome,
          badCase: z
            .object({
              id: z.string(),
              status: z.enum(BAD_CASE_STATUSES),
              result: z.enum(["fixed", "still_failing", "not_judged", "not_in_b"]),
            })
            .nullable()
            .meta({ description: "Run A's Bad Case for this question, and what run B's human verdict says about it" }),
        }),
      )
      .meta({
        description:
          "The questions of the page (every question after the filters when no `limit` is given), in run A's order then run B's",
      }),
    page: z
      .object({
        offset: z.number().int(),
        limit: z
          .number()
          .int()
          .nullable()
          .meta({ description: "The page size asked for; null: every question after the filters" }),
        total: z.number().int().meta({ description: "Questions left after the outcome and text filters (all pages)" }),
        matching: z
          .record(outcome, z.number().int())
          .meta({ description: "Questions per outcome under the text filter `q` (equal to summary without it)" }),
      })
      .meta({
        description:
          "Where `questions` is in the filtered list; summary, machineSummary and badCases always count the whole comparison",
      }),
    badCases: z
      .object({
        fixed: z.number().int(),
        stillFailing: z.number().int(),
        notJudged: z.number().int(),
        notInB: z.number().int(),
      })
      .meta({ description: "Run A's Bad Cases by what run B's human verdict says (the whole comparison)" }),
  })
  .meta({ id: "EvalCompare" });

const usageNumbers = {
  runs: z.number().int(),
  answeredItems: z.number().int(),
  answering: z.object({
    modelCalls: z.number().int(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    tokens: z.number().int(),
  }),
  judging: z.object({ modelCalls: z.number().int(), tokens: z.number().int() }),
};
export const UsageOut = z
  .object({
    from: z.string(),
    to: z.string(),
    agentId: z.string().nullable(),
    totals: z.object(usageNumbers),
    days: z.array(
      z.object({ day: z.string(), agentId: z.string(), agentName: z.string().nullable(), ...usageNumbers }),
    ),
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
    classification: z
      .string()
      .meta({ description: "Business scenario: the verdict's classification, else the sample's" }),
    agentId: z.string(),
    setId: z.string(),
    setName: z.string(),
    createdById: z.string().nullable(),
    createdByLabel: z.string().nullable(),
    createdAt: date,
    updatedAt: date,
    verifiedRunId: z
      .string()
      .nullable()
      .meta({ description: "The later run whose human pass verified the fix (status verified)" }),
  })
  .meta({ id: "EvalBadCase" });

const BadCaseLaterItem = z.object({
  runId: z.string(),
  runShortId: z.string(),
  runStatus: z.string(),
  itemId: z.string(),
  itemStatus: z.string().meta({ description: "The item's answering state (pending, answering, answered, failed…)" }),
  verdict: z.enum(["pass", "fail"]).nullable(),
  verdictSource: z.enum(["human", "adopted"]).nullable(),
  byLabel: z.string().nullable().meta({ description: "Who gave (or adopted) the verdict" }),
  at: dateOrNull,
});

export const BadCaseDetailOut = BadCaseOut.extend({
  expectedPoints: z
    .array(z.string())
    .meta({ description: "The question's expected points (of the failed run's version)" }),
  verifiableBy: BadCaseLaterItem.nullable().meta({
    description:
      "The evidence `verified` needs: the newest later run of the set with a pass (typed or adopted) for the question, who gave it; null while there is none (setting verified is then 409 BAD_CASE_NOT_VERIFIED)",
  }),
  latestRun: BadCaseLaterItem.nullable().meta({
    description: "The newest later run of the set with the question (a re-run), its item and verdict, whatever it is",
  }),
  history: z.array(
    z.object({
      kind: z.enum(["created", "status"]),
      fromStatus: z.string().nullable(),
      toStatus: z.string(),
      runId: z.string().nullable(),
      runShortId: z.string().nullable(),
      byId: z.string().nullable(),
      byLabel: z.string().nullable(),
      at: date,
    }),
  ),
}).meta({ id: "EvalBadCaseDetail" });

export const RowErrorOut = z
  .object({ row: z.number().int(), field: z.string(), message: z.string() })
  .meta({ id: "EvalRowError" });

export const EvalVocabularyOut = z
  .object({
    attributions: z
      .record(z.string(), z.string())
      .meta({ description: "attribution -> meaning (failure points in the chain)" }),
    guardrailFlags: z.record(z.string(), z.string()).meta({ description: "flag -> meaning" }),
    ruleTypes: z.array(z.string()),
    rules: z.array(
      z.object({
        type: z.string(),
        fields: z.array(
          z.object({
            name: z.string(),
            kind: z.enum(["text", "number", "json", "choice"]),
            optional: z.boolean(),
            choices: z.array(z.string()).optional(),
          }),
        ),
      }),
    ),
    tiers: z.array(z.object({ tier: z.enum(TIERS), meaning: z.string() })),
    modes: z.array(z.enum(RUN_MODES)),
    setKinds: z.array(z.enum(SET_KINDS)),
    runStatuses: z.array(z.enum(RUN_STATUSES)),
    itemStatuses: z.array(z.enum(ITEM_STATUSES)),
    badCaseStatuses: z.array(z.enum(BAD_CASE_STATUSES)),
    leadSignals: z
      .array(z.object({ id: z.enum(LEAD_SIGNALS), label: z.string(), meaning: z.string() }))
      .meta({ description: "The online loop's lead signals: the name people read and what each means" }),
    leadStatuses: z
      .array(z.object({ id: z.enum(LEAD_STATUSES), label: z.string(), meaning: z.string() }))
      .meta({ description: "A lead's statuses" }),
    compareOutcomes: z
      .array(z.object({ id: z.enum(OUTCOMES), label: z.string(), meaning: z.string() }))
      .meta({ description: "A question's outcome in the comparison of two runs" }),
    lifecycle: z.string(),
    limits: z.record(z.string(), z.number()),
  })
  .meta({ id: "EvalVocabulary" });

const TurnOut = z.object({ role: z.enum(["user", "assistant"]), content: z.string(), preset: z.boolean() });

export const LeadOut = z
  .object({
    traceId: z.string(),
    startedAt: date,
    traceStatus: z.string(),
    sessionId: z.string().nullable(),
    message: z.string().meta({ description: "The user's message" }),
    conversation: z.array(TurnOut).meta({ description: "Earlier turns of the session (same caller), oldest first" }),
    answer: z.string().nullable(),
    payload: z.unknown(),
    score: z.number().int().nullable().meta({ description: "The lowest feedback score (1..5), if any" }),
    comment: z.string().nullable(),
    signals: z.array(z.enum(LEAD_SIGNALS)),
    flags: z.array(z.object({ flag: z.string(), message: z.string() })),
    status: z.enum(LEAD_STATUSES),
    pool: z
      .object({
        setId: z.string(),
        setName: z.string(),
        version: z.number().int(),
        versionStatus: z.string(),
        sampleId: z.string(),
        key: z.string(),
      })
      .nullable(),
    dismissal: z
      .object({
        reason: z.string(),
        by: z.string().nullable(),
        byLabel: z
          .string()
          .nullable()
          .meta({ description: "Who dismissed it, for people (name, e-mail or token name)" }),
        at: date,
      })
      .nullable(),
  })
  .meta({ id: "EvalLead" });

export const LeadsPageOut = z.object({
  items: z.array(LeadOut),
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: "Continues the scan; null when every trace in range was looked at" }),
  scanned: z.number().int().meta({ description: "Online traces looked at for this page (at most 2000)" }),
  perDay: z
    .array(z.object({ day: z.string(), count: z.number().int() }))
    .meta({ description: "Leads of this page per day (UTC)" }),
});

const LeadDayCounts = {
  total: z.number().int(),
  new: z.number().int(),
  in_pool: z.number().int(),
  dismissed: z.number().int(),
};
export const LeadCountsOut = z
  .object({
    from: z.string().meta({ description: "First day counted (UTC)" }),
    to: z.string().meta({ description: "Last day counted (UTC, inclusive)" }),
    total: z.number().int(),
    byStatus: z.object({ new: z.number().int(), in_pool: z.number().int(), dismissed: z.number().int() }),
    days: z
      .array(z.object({ day: z.string(), ...LeadDayCounts }))
      .meta({ description: "Every day of the range, oldest first (zero days included)" }),
    scanned: z.number().int().meta({
      description:
        "Online traces looked at that could be leads (a low score, an error, a missing query or an empty list; the others never leave the database): at most 20,000, newest first",
    }),
    complete: z.boolean().meta({
      description: "false: the range holds more such traces than were looked at; counts cover coveredFrom .. to",
    }),
    coveredFrom: dateOrNull,
  })
  .meta({ id: "EvalLeadCounts" });

export const LeadStatusOut = z.object({
  traceId: z.string(),
  status: z.enum(["new", "dismissed"]),
  dismissal: z.object({ reason: z.string(), by: z.string().nullable(), at: date }).optional(),
});

export const PoolAddOut = z
  .object({
    duplicate: z
      .boolean()
      .meta({ description: "true: the trace was already in this pool; the existing sample is returned" }),
    version: z.number().int().meta({ description: "The pool version holding the sample" }),
    sample: EvalSampleOut,
    likelyDuplicateOf: z
      .string()
      .nullable()
      .meta({ description: "Key of a sample of the same version whose normalised question is the same" }),
  })
  .meta({ id: "EvalPoolAdd" });

export const ShadowConfigOut = z
  .object({
    config: z
      .object({
        agentId: z.string(),
        candidateVersion: z.number().int().nullable(),
        candidateWorkflow: z.unknown(),
        candidateNote: z.string().meta({ description: "Where the candidate comes from, for people" }),
        liveRef: z.string(),
        candidateRef: z.string(),
        sampleRate: z.number(),
        enabled: z.boolean(),
        updatedById: z.string().nullable(),
        updatedAt: date,
      })
      .nullable(),
  })
  .meta({ id: "ShadowConfig" });

export const ShadowConfigPutOut = ShadowConfigOut.extend({
  warnings: z
    .array(FindingOut)
    .meta({ description: "Warnings of the draft candidate's validation (empty for a version candidate)" }),
}).meta({ id: "ShadowConfigSaved" });

const ShadowDisagreement = z
  .object({
    traceId: z.string().meta({ description: "The online chat's trace" }),
    message: z.string(),
    live: z.string(),
    candidate: z.string(),
    at: date,
    source: z.string().meta({ description: "live (a sampled online chat) or replay" }),
    candidateTraceId: z.string().nullable().meta({ description: "The candidate's own run (source shadow)" }),
  })
  .meta({ id: "ShadowDisagreement" });

export const ShadowDisagreementsOut = z
  .object({
    items: z.array(ShadowDisagreement),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last page" }),
    total: z.number().int().meta({ description: "Disagreements of the configured candidate in the range" }),
  })
  .meta({ id: "ShadowDisagreements" });

export const ShadowPublishOut = z
  .object({
    version: z.number().int().meta({ description: "The version now live (online chat answers with it)" }),
    provisioned: z
      .boolean()
      .meta({ description: "True when the candidate was a draft and this version was provisioned from it" }),
    publishedVersion: z.number().int(),
    config: ShadowConfigOut.shape.config.unwrap(),
  })
  .meta({ id: "ShadowPublished" });

export const ShadowReportOut = z
  .object({
    agentId: z.string(),
    results: z.number().int().meta({ description: "Traces shadowed (live and replay)" }),
    compared: z.number().int().meta({ description: "Results with both intents" }),
    agreed: z.number().int(),
    agreement: z.number().nullable(),
    failed: z.number().int().meta({ description: "Candidate runs that failed" }),
    missingLive: z.number().int().meta({ description: "Traces whose live intent could not be read (liveRef)" }),
    perDay: z.array(
      z.object({
        day: z.string(),
        total: z.number().int(),
        agreed: z.number().int(),
        agreement: z.number().nullable(),
      }),
    ),
    matrix: z
      .array(z.object({ live: z.string(), candidate: z.string(), count: z.number().int() }))
      .meta({ description: "Confusion matrix live x candidate (non-zero cells)" }),
    intents: z.array(z.object({ intent: z.string(), live: z.number().int(), candidate: z.number().int() })),
    disagreements: z.array(ShadowDisagreement).meta({
      description:
        "The first page of disagreements, newest first (the rest: GET …/disagreements?cursor=disagreementsNextCursor)",
    }),
    disagreementsNextCursor: z.string().nullable(),
    failures: z.array(z.object({ traceId: z.string(), error: z.string(), at: date })),
  })
  .meta({ id: "ShadowReport" });

export const ReplayOut = z.object({
  replayed: z.number().int(),
  ok: z.number().int(),
  failed: z.number().int(),
  report: ShadowReportOut,
});

const BOARD_STAGE = z.enum(["candidate", "confirmed", "expectations", "frozen", "in_run", "bad_case", "verified"]);
const RunRef = z.object({ id: z.string(), shortId: z.string() });
export const LoopBoardOut = z
  .object({
    counts: z.record(BOARD_STAGE, z.number().int()),
    cards: z.array(
      z.object({
        stage: BOARD_STAGE,
        setId: z.string(),
        setName: z.string(),
        version: z.number().int(),
        versionStatus: z.string(),
        versionId: z.string(),
        sampleId: z
          .string()
          .meta({ description: "The sample in its newest version (edit it while that version is a draft)" }),
        key: z.string(),
        question: z.string(),
        expectedPoints: z.number().int(),
        points: z.array(z.string()).meta({ description: "The expected points" }),
        confirmed: z.boolean().meta({
          description:
            "The sample's trace is in the pool for good: a person confirmed it in some version (POST /api/eval/samples/{id}/confirm), or a frozen version took it in unconfirmed; later drafts never ask again",
        }),
        confirmedVia: z
          .enum(["person", "freeze"])
          .nullable()
          .meta({ description: "person: confirmed by a person; freeze: frozen unconfirmed in an earlier version" }),
        sourceTraceId: z.string(),
        run: z
          .object({
            id: z.string(),
            shortId: z.string(),
            status: z.string(),
            itemId: z.string(),
            itemStatus: z.string().meta({
              description:
                "The item's answering state: answered or failed can be judged; pending, answering and cancelled have no answer",
            }),
            verdict: z.enum(["pass", "fail"]).nullable(),
          })
          .nullable()
          .meta({ description: "The latest run with the sample, its item and verdict" }),
        badCase: z.object({ id: z.string(), status: z.string(), runShortId: z.string() }).nullable(),
        compare: z.object({ a: z.string(), b: z.string() }).nullable().meta({
          description:
            "Run IDs to compare: the Bad Case's run and the latest run (or the latest run and the run it re-ran)",
        }),
        history: z
          .array(
            z.object({
              kind: z.enum(["added", "confirmed", "expectations", "frozen", "run", "bad_case", "verified"]),
              at: dateOrNull,
              by: z.string().nullable().meta({ description: "Who, for people" }),
              version: z.number().int().optional(),
              points: z.number().int().optional(),
              run: RunRef.optional(),
              verdict: z.enum(["pass", "fail"]).nullable().optional(),
              status: z.string().optional(),
              unconfirmed: z
                .boolean()
                .optional()
                .meta({ description: "frozen: nobody had confirmed the sample when this freeze took it in" }),
            }),
          )
          .meta({
            description:
              "What happened to the sample, oldest first: added, confirmed, expectations, frozen in vN, each run (last 5) with its verdict, the Bad Case, verified by run R",
          }),
      }),
    ),
    drafts: z
      .array(
        z.object({
          setId: z.string(),
          setName: z.string(),
          version: z.number().int(),
          versionId: z.string(),
          onlineSamples: z.number().int().meta({ description: "Samples of the version added from online traces" }),
          unconfirmed: z.number().int().meta({
            description:
              "Of those, the candidates: nobody confirmed their trace in any version of the pool and no frozen version took it in (what freezing would take in as they are)",
          }),
        }),
      )
      .meta({
        description:
          "Every draft version of the agent's regression pools, counted exactly in the database (the cards are capped)",
      }),
  })
  .meta({ id: "EvalLoopBoard" });
