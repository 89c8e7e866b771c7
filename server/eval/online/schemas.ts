/**
 * The online feedback loop (leads, the regression pool, the board): vocabulary, inputs and outputs. Pure: no I/O.
 */
import { z } from "zod";
import { Cursor, IdParam, dayRangeQuery } from "../../core/params";
import { EVAL_LIMITS } from "../limits";
import { EvalSampleOut } from "../sets/schemas";
import { GUARDRAIL_FLAGS, JudgeRefOut, JudgeSpec } from "../suggestions/schemas";

const date = z.iso.datetime();
const dateOrNull = date.nullable();

/**
 * The online loop's lead signals: a low feedback score, a guardrail flag on an online trace, or the online judge's
 * fail or unknown on a sampled answer (names people read, meanings).
 */
export const LEAD_SIGNALS = [
  "low_score",
  "execution_error",
  "empty_items",
  "no_query",
  "judge_fail",
  "judge_unknown",
] as const;

export type LeadSignal = (typeof LEAD_SIGNALS)[number];

export const LEAD_SIGNAL_WORDS: Record<LeadSignal, { label: string; meaning: string }> = {
  low_score: { label: "Low score", meaning: "A user's feedback score at or below maxScore" },
  execution_error: { label: "Execution error", meaning: GUARDRAIL_FLAGS.execution_error },
  empty_items: { label: "Empty items", meaning: GUARDRAIL_FLAGS.empty_items },
  no_query: { label: "No query", meaning: GUARDRAIL_FLAGS.no_query },
  judge_fail: { label: "Judge: fail", meaning: "The online judge sampled the answer and judged it fail" },
  judge_unknown: {
    label: "Judge: unknown",
    meaning: "The online judge sampled the answer and could not tell (or could not run)",
  },
};

/** A lead's status. */
export const LEAD_STATUSES = ["new", "in_pool", "dismissed"] as const;

export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_STATUS_WORDS: Record<LeadStatus, { label: string; meaning: string }> = {
  new: { label: "New", meaning: "Neither in a regression pool nor dismissed" },
  in_pool: { label: "In pool", meaning: "A sample of a regression pool has the trace as its source" },
  dismissed: { label: "Dismissed", meaning: "A person set it aside, with a reason" },
};

/** The online judge's judgment of one sampled answer. */
export const OnlineJudgmentOut = z
  .object({
    verdict: z.enum(["pass", "fail", "unknown"]),
    rationale: z.string(),
    judgedBy: JudgeRefOut,
    error: z.string().nullable().meta({ description: "Why the judge could not give a verdict, when it could not" }),
    criteria: z
      .array(z.object({ point: z.string(), status: z.string() }))
      .meta({ description: "What the judge checked and what it found (the LLM judge's reference-free criteria)" }),
    judgedAt: date,
  })
  .meta({ id: "EvalOnlineJudgment" });

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
    judgment: OnlineJudgmentOut.nullable().meta({
      description:
        "The online judge's judgment when the answer was sampled (GET/PUT /api/eval/online/judging/{agentId})",
    }),
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
        "Online traces this request put through the guardrail rules: those of the range whose signals were not stored yet and could have one (an error, a missing query or an empty list; the others never leave the database), at most 20,000, newest first. Their signals are stored, so a later count of the range reads them",
    }),
    complete: z.boolean().meta({
      description:
        "false: the range holds more traces without stored signals than one request puts through the rules; counts cover coveredFrom .. to (the next request goes on)",
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
        badCase: z
          .object({
            id: z.string(),
            status: z.string(),
            runShortId: z.string(),
            verifyIn: z.string().nullable().meta({
              description:
                "The latest run whose pass verifies the Bad Case (a platform run of a newer agent version), or null: a pass in a pasted run or on the same version does not",
            }),
          })
          .nullable(),
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

const leadFilters = {
  agentId: z.string().min(1).max(64),
  maxScore: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .default(2)
    .meta({ description: "A feedback score at or below this is a lead (default 2)" }),
  signal: z.enum(LEAD_SIGNALS).optional(),
  status: z
    .enum(LEAD_STATUSES)
    .optional()
    .meta({ description: "new, in_pool (a regression-pool sample has the trace) or dismissed" }),
};
/** The leads of a range of days (open: a missing side is unbounded), a page at a time. */
export const LeadsQuery = dayRangeQuery(
  {
    ...leadFilters,
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: Cursor.regex(/^(?:19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T[\d:.]+Z_.+$/, "is not a nextCursor of this list")
      .optional()
      .meta({ description: "nextCursor of the previous page (`<ISO instant from 1970 to 9999>_<trace id>`)" }),
  },
  { bounded: false },
);
/** The same filters as the list; the range is bounded (the last 30 days by default, at most 366). */
export const LeadCountsQuery = dayRangeQuery(leadFilters, { bounded: true });

export const DismissLeadInput = z.object({ reason: z.string().trim().min(1).max(EVAL_LIMITS.maxBasisChars) });
export const TraceParam = z.object({ traceId: z.string().min(1).max(64) });

export const PoolAddInput = z.object({
  traceId: z.string().min(1).max(64),
  question: z
    .string()
    .trim()
    .min(1)
    .max(EVAL_LIMITS.maxQuestionChars)
    .optional()
    .meta({ description: "Default: the user's message of the trace" }),
  expectedPoints: z
    .array(z.string().trim().min(1).max(EVAL_LIMITS.maxPointChars))
    .max(EVAL_LIMITS.maxPointsPerSample)
    .optional(),
  classification: z.string().trim().max(EVAL_LIMITS.maxClassificationChars).optional(),
});
export const PoolParams = IdParam;
export const ConfirmParams = IdParam;

export const BOARD_STAGES = [
  "candidate",
  "confirmed",
  "expectations",
  "frozen",
  "in_run",
  "bad_case",
  "verified",
] as const;
export type BoardStage = (typeof BOARD_STAGES)[number];
export const BoardQuery = z.object({ agentId: z.string().min(1).max(64) });

// ---------------------------------------------------------------- sampled online judging

export const ONLINE_JUDGING_LIMITS = {
  /** a rule is re-read at most this often per instance (a change made on this instance applies at once) */
  ruleTtlMs: 2_000,
  /** online answers wait at most this long (or until `enqueueBatch` of them) and go to the queue in one insert */
  enqueueFlushMs: 1_000,
  enqueueBatch: 200,
  /** judge jobs a worker runs at once (each waits for a quiet event loop first) */
  judgesPerInstance: 2,
  maxScenarioValues: 20,
  maxMinLength: 10_000,
} as const;

const ScenarioRef = z
  .string()
  .trim()
  .min(5)
  .max(300)
  .regex(/\{\{\s*[A-Za-z0-9_-]+\.[^{}]+\}\}/, {
    message: "must be a template naming a node output, e.g. {{detect.result.scene}}",
  });

export const OnlineJudgingFilters = z
  .object({
    source: z
      .enum(["chat", "api"])
      .optional()
      .meta({ description: "Only answers from this source (chat: the chat endpoint; api: API callers); default both" }),
    minLength: z.number().int().min(0).max(ONLINE_JUDGING_LIMITS.maxMinLength).optional().meta({
      description: "Only answers to user messages of at least this many characters (skips greetings and thanks)",
    }),
    scenario: z
      .object({
        ref: ScenarioRef.meta({ description: "Where the trace says its scenario, e.g. {{detect.result.scene}}" }),
        values: z
          .array(z.string().trim().min(1).max(200))
          .min(1)
          .max(ONLINE_JUDGING_LIMITS.maxScenarioValues)
          .meta({ description: "Only answers whose scenario is one of these (case-insensitive)" }),
      })
      .optional()
      .meta({
        description: "Only answers of these scenarios, read from the trace's steps like the intent shadow's liveRef",
      }),
  })
  .strict();

export const OnlineJudgingInput = z
  .object({
    samplingRate: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: "Share of the online answers judged, 0..1 (deterministic per trace: a hash of its id)" }),
    filters: OnlineJudgingFilters.default({}),
    judge: JudgeSpec.meta({
      description:
        "llm (the LLM judge's reference-free rubric) or agent (a judge agent's pinned version, given expected_points: []); builtin is refused: it needs expected points (400 JUDGE_NEEDS_POINTS)",
    }),
    enabled: z.boolean().default(true),
  })
  .meta({ id: "EvalOnlineJudgingInput" });

export const JudgingParams = z.object({ agentId: z.string().min(1).max(64) });

export const OnlineJudgingOut = z
  .object({
    rule: z
      .object({
        agentId: z.string(),
        samplingRate: z.number(),
        filters: z.object({
          source: z.enum(["chat", "api"]).optional(),
          minLength: z.number().int().optional(),
          scenario: z.object({ ref: z.string(), values: z.array(z.string()) }).optional(),
        }),
        judge: JudgeSpec,
        judgeLabel: z.string().meta({ description: "The judge, for people" }),
        enabled: z.boolean(),
        updatedById: z.string().nullable(),
        updatedAt: date,
      })
      .nullable(),
    last7Days: z
      .object({ judged: z.number().int(), pass: z.number().int(), fail: z.number().int(), unknown: z.number().int() })
      .meta({ description: "Judgments of the agent's online answers in the last 7 days" }),
  })
  .meta({ id: "EvalOnlineJudging" });

// ---------------------------------------------------------------- alerts

export const ALERT_KINDS = ["share", "count"] as const;
export const ALERT_LIMITS = {
  maxLastN: 1000,
  maxWindowMinutes: 10_080,
  maxCooldownMinutes: 10_080,
  maxRules: 20,
} as const;

const alertFields = {
  name: z.string().trim().min(1).max(120),
  signal: z
    .enum(LEAD_SIGNALS)
    .nullable()
    .optional()
    .meta({ description: "Only leads with this signal count; null or left out: any lead" }),
  cooldownMinutes: z
    .number()
    .int()
    .min(0)
    .max(ALERT_LIMITS.maxCooldownMinutes)
    .meta({ description: "After firing, the rule does not fire again for this long" }),
  enabled: z.boolean(),
};

const alertFigures = {
  lastN: z
    .number()
    .int()
    .min(1)
    .max(ALERT_LIMITS.maxLastN)
    .meta({ description: "share: the last N online answers (required for share)" }),
  percent: z
    .number()
    .min(0)
    .max(100)
    .meta({ description: "share: fires when the share of leads among them is above this (required for share)" }),
  minCount: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .meta({ description: "count: at least this many leads (required for count)" }),
  windowMinutes: z
    .number()
    .int()
    .min(1)
    .max(ALERT_LIMITS.maxWindowMinutes)
    .meta({ description: "count: within the online answers of the last this many minutes (required for count)" }),
};

/** What a kind needs: share lastN and percent, count minCount and windowMinutes (400 REQUEST_INVALID naming the field). */
function needsFigures(
  r: { kind?: string; lastN?: number; percent?: number; minCount?: number; windowMinutes?: number },
  ctx: z.RefinementCtx,
) {
  const need =
    r.kind === "share"
      ? (["lastN", "percent"] as const)
      : r.kind === "count"
        ? (["minCount", "windowMinutes"] as const)
        : [];
  for (const f of need)
    if (r[f] === undefined) ctx.addIssue({ code: "custom", path: [f], message: `a ${r.kind} rule needs ${f}` });
}

export const AlertRuleInput = z
  .object({
    agentId: z.string().min(1).max(64),
    kind: z.enum(ALERT_KINDS).meta({
      description:
        "share: more than `percent` % of the last `lastN` online answers are leads; count: at least `minCount` leads among the online answers of the last `windowMinutes`",
    }),
    ...alertFields,
    lastN: alertFigures.lastN.optional(),
    percent: alertFigures.percent.optional(),
    minCount: alertFigures.minCount.optional(),
    windowMinutes: alertFigures.windowMinutes.optional(),
    enabled: alertFields.enabled.default(true),
    cooldownMinutes: alertFields.cooldownMinutes.default(60),
  })
  .superRefine(needsFigures)
  .meta({ id: "EvalAlertRuleInput" });

export const AlertRulePatch = z
  .object({
    name: alertFields.name.optional(),
    signal: alertFields.signal,
    lastN: alertFigures.lastN.optional(),
    percent: alertFigures.percent.optional(),
    minCount: alertFigures.minCount.optional(),
    windowMinutes: alertFigures.windowMinutes.optional(),
    cooldownMinutes: alertFields.cooldownMinutes.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), "nothing to change");

export const AlertRuleIdParams = z.object({ id: z.string().min(1).max(64) });
export const AlertIdParams = z.object({ id: z.string().min(1).max(64) });
export const AlertRulesQuery = z.object({ agentId: z.string().min(1).max(64) });
export const AlertsQuery = z.object({
  agentId: z.string().min(1).max(64),
  open: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .meta({ description: "true: only alerts nobody acknowledged yet; false: only acknowledged ones" }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const AlertFiguresOut = z
  .object({
    kind: z.enum(ALERT_KINDS),
    signal: z.enum(LEAD_SIGNALS).nullable(),
    answers: z.number().int().meta({ description: "Online answers looked at (the last N, or those in the window)" }),
    leads: z.number().int().meta({ description: "Of those, leads (with the signal, when the rule names one)" }),
    percent: z.number().nullable().meta({ description: "share: leads / answers x 100" }),
    threshold: z.number().meta({ description: "share: the percent to exceed; count: the leads needed" }),
    windowMinutes: z.number().int().nullable(),
    lastN: z.number().int().nullable(),
    from: dateOrNull.meta({ description: "The oldest answer counted" }),
    to: dateOrNull.meta({ description: "The newest answer counted" }),
    traceIds: z.array(z.string()).meta({ description: "The leads counted (newest first, at most 20)" }),
  })
  .meta({ id: "EvalAlertFigures" });

export const AlertRuleOut = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string(),
    kind: z.enum(ALERT_KINDS),
    signal: z.enum(LEAD_SIGNALS).nullable(),
    lastN: z.number().int().nullable(),
    percent: z.number().nullable(),
    minCount: z.number().int().nullable(),
    windowMinutes: z.number().int().nullable(),
    cooldownMinutes: z.number().int(),
    enabled: z.boolean(),
    lastFiredAt: dateOrNull,
    createdAt: date,
    updatedAt: date,
  })
  .meta({ id: "EvalAlertRule" });
export const AlertRulesOut = z.object({ items: z.array(AlertRuleOut) });

export const AlertOut = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    ruleName: z.string(),
    agentId: z.string(),
    figures: AlertFiguresOut,
    firedAt: date,
    acknowledgedAt: dateOrNull,
    acknowledgedBy: z.string().nullable().meta({ description: "Who acknowledged it, for people" }),
    leadsUrl: z.string().meta({ description: "The leads page of the agent, filtered by the rule's signal" }),
  })
  .meta({ id: "EvalAlert" });
export const AlertsOut = z.object({ items: z.array(AlertOut) });
