import { z } from "zod";
import { inlineJsonSchema } from "../core/json-schema";
import { DbInt, QueryFlag, dayRangeQuery, IdParam, MAX_DB_INT, VersionNumber, VersionParam } from "../core/params";
import { EVAL_LIMITS as L } from "./limits";
import { OUTCOMES as COMPARE_OUTCOMES } from "./compare";

/**
 * The evaluation center's vocabulary, written once in zod: REST, tRPC, import/export and the OpenAPI document
 * all use these. Pure: no I/O.
 */

export const SET_KINDS = ["golden", "regression_pool"] as const;
export const RUN_MODES = ["in_platform", "pasted"] as const;
export const TIERS = ["pipeline_live", "pipeline", "invoke"] as const;
export const RUN_STATUSES = ["created", "answering", "awaiting_review", "completed", "cancelled", "failed"] as const;
export const ITEM_STATUSES = ["pending", "answering", "answered", "failed", "cancelled"] as const;
/** `verified` only with evidence: a later run of the set has a human pass for the question (see verdicts.ts). */
export const BAD_CASE_STATUSES = ["open", "fixing", "fixed", "wont_fix", "verified"] as const;
export type Tier = (typeof TIERS)[number];
export type RunStatus = (typeof RUN_STATUSES)[number];
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Failure points in the chain, for a fail verdict's attribution. */
export const ATTRIBUTIONS = {
  intent: "Understood the question wrongly: wrong scenario, category drift",
  retrieval: "Query or retrieval: no query performed, wrong query or parameters",
  tool: "Tool or HTTP call failed or returned unusable data",
  context: "Multi-turn context lost or misused (script turns)",
  generation: "The model's answer: points missing, fabricated content, wrong format",
  guardrail: "Refused, or a guardrail blocked the answer wrongly",
  data: "The business data itself is wrong or missing",
  expectation: "The sample's expected points are wrong or outdated",
  other: "Anything else (say what in the basis)",
} as const;
export type Attribution = keyof typeof ATTRIBUTIONS;
export const ATTRIBUTION_LIST = Object.keys(ATTRIBUTIONS) as [Attribution, ...Attribution[]];

/** Guardrail flags a machine suggestion can carry. */
export const GUARDRAIL_FLAGS = {
  execution_error: "The execution failed or the answer carries an error",
  empty_answer: "The answer is empty",
  no_query: "No HTTP query succeeded although the workflow has http nodes (pipeline tiers)",
  empty_items: "A live tier (pipeline_live) query returned no items, or the structured payload's item list is empty",
  fabricated_items: "Items named in the answer or payload are not in any tool (http) result",
  refusal: "The answer refuses or declines to help",
} as const;
export type GuardrailFlag = keyof typeof GUARDRAIL_FLAGS;

/** The online loop's lead signals: a low feedback score, or a guardrail flag on an online trace (names people read, meanings). */
export const LEAD_SIGNALS = ["low_score", "execution_error", "empty_items", "no_query"] as const;
export type LeadSignal = (typeof LEAD_SIGNALS)[number];
export const LEAD_SIGNAL_WORDS: Record<LeadSignal, { label: string; meaning: string }> = {
  low_score: { label: "Low score", meaning: "A user's feedback score at or below maxScore" },
  execution_error: { label: "Execution error", meaning: GUARDRAIL_FLAGS.execution_error },
  empty_items: { label: "Empty items", meaning: GUARDRAIL_FLAGS.empty_items },
  no_query: { label: "No query", meaning: GUARDRAIL_FLAGS.no_query },
};
/** A lead's status. */
export const LEAD_STATUSES = ["new", "in_pool", "dismissed"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_WORDS: Record<LeadStatus, { label: string; meaning: string }> = {
  new: { label: "New", meaning: "Neither in a regression pool nor dismissed" },
  in_pool: { label: "In pool", meaning: "A sample of a regression pool has the trace as its source" },
  dismissed: { label: "Dismissed", meaning: "A person set it aside, with a reason" },
};

// ---------------------------------------------------------------- addressing (path parameters of REST, the same keys in tRPC)

/** A set, a sample or a Bad Case: `{ id }`. */
export const SetParams = IdParam;
export const SampleParams = IdParam;
export const BadCaseParams = IdParam;
/** One version of a set: `{ id, version }` (the version number; coerced, as REST path parameters are text). */
export const SetVersionParams = z.object({ id: IdParam.shape.id, version: VersionParam });
/** A run, by internal id or short Run ID: `{ id }`. */
export const RunParams = z.object({ id: IdParam.shape.id.meta({ description: "Run id or short Run ID (R-XXXXX)" }) });
/** One item of a run: `{ id, itemId }`. */
export const RunItemParams = RunParams.extend({ itemId: z.string().min(1).max(64) });

// ---------------------------------------------------------------- rule assertions

const text = (max: number) => z.string().max(max);
const base = {
  name: z.string().max(120).optional().meta({ description: "Shown in the suggestion instead of the generated label" }),
};
const jsonSource = z
  .enum(["payload", "answer"])
  .default("payload")
  .meta({ description: "payload (the structured answer payload) or answer (the answer text parsed as JSON)" });
const jsonPath = z
  .string()
  .min(1)
  .max(300)
  .regex(/^(\$)?(\.?[A-Za-z0-9_\-\u0080-\uffff]+|\[\d+\])*$/, "a path like $.goods_list[0].name or goods_list.0.name")
  .meta({ description: "A JSON path: `$.a.b[0].c` or `a.b.0.c`" });

export const AssertionSchema = z
  .discriminatedUnion("type", [
    z.object({ ...base, type: z.literal("contains"), value: text(1000).min(1) }),
    z.object({ ...base, type: z.literal("icontains"), value: text(1000).min(1) }),
    z.object({ ...base, type: z.literal("not-contains"), value: text(1000).min(1) }),
    z.object({ ...base, type: z.literal("not-icontains"), value: text(1000).min(1) }),
    z.object({
      ...base,
      type: z.literal("regex"),
      value: text(L.maxRegexChars)
        .min(1)
        .meta({ description: "A JavaScript regular expression that compiles with `flags` (else 400 naming /value)" }),
      flags: z
        .string()
        .regex(/^(?!.*(.).*\1)[imsu]*$/, "flags may be i, m, s, u, each once")
        .max(4)
        .optional(),
    }),
    z.object({ ...base, type: z.literal("is-json") }),
    z.object({ ...base, type: z.literal("json-path-equals"), path: jsonPath, value: z.unknown(), source: jsonSource }),
    z.object({ ...base, type: z.literal("json-path-nonempty"), path: jsonPath, source: jsonSource }),
    z.object({ ...base, type: z.literal("max-length"), value: z.number().int().min(0).max(1_000_000) }),
    z.object({ ...base, type: z.literal("min-length"), value: z.number().int().min(0).max(1_000_000) }),
    z.object({
      ...base,
      type: z.literal("payload-items-nonempty"),
      path: jsonPath.optional().meta({
        description: "Path of the item list in the payload; default: the first array found (e.g. goods_list)",
      }),
    }),
  ])
  .superRefine((a, ctx) => {
    if (a.type === "regex") {
      try {
        new RegExp(a.value, a.flags);
      } catch (e) {
        ctx.addIssue({
          code: "custom",
          path: ["value"],
          message: `invalid regular expression: ${(e as Error).message}`,
        });
      }
    }
  })
  .meta({
    id: "EvalAssertion",
    description:
      "A rule assertion (machine suggestion only). contains / icontains / not-contains / not-icontains (answer text), regex (answer text), is-json (answer parses as JSON), json-path-equals / json-path-nonempty (payload or answer JSON), max-length / min-length (answer characters), payload-items-nonempty (an item list in the payload).",
  });
export type Assertion = z.output<typeof AssertionSchema>;
export const AssertionsSchema = z.array(AssertionSchema).max(L.maxAssertionsPerSample);

// ---------------------------------------------------------------- samples

export const TurnSchema = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content: z.string().min(1, "content is required").max(L.maxTurnChars),
    preset: z
      .boolean()
      .default(false)
      .meta({ description: "Preset turns are injected as context and do not call the model" }),
  })
  .meta({ id: "EvalScriptTurn" });
export type Turn = z.output<typeof TurnSchema>;

export const ScriptSchema = z
  .array(TurnSchema)
  .min(1)
  .max(L.maxScriptTurns)
  .superRefine((turns, ctx) => {
    turns.forEach((t, i) => {
      if (!t.preset && t.role !== "user") {
        ctx.addIssue({
          code: "custom",
          path: [i, "role"],
          message: "only user turns can be played (non-preset); mark assistant/system turns preset: true",
        });
      }
    });
  })
  .meta({
    description:
      "Ordered turns. Preset turns (any role) are injected as history without calling the model; each non-preset user turn is sent with the history so far and its answer is appended as an assistant turn. When the script has no non-preset turn, the question is asked after the preset turns.",
  });

export const SampleKey = z
  .string()
  .trim()
  .min(1)
  .max(L.maxKeyChars)
  .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits and _ . : - only");

export const ExpectedPointsSchema = z
  .array(z.string().trim().min(1, "a point cannot be empty").max(L.maxPointChars))
  .max(L.maxPointsPerSample)
  .meta({ description: "Short points the answer must cover (not a full answer)" });

const sampleFields = {
  key: SampleKey.meta({ description: "Stable key across versions (e.g. q01); generated when absent" }),
  question: z.string({ error: "question is required" }).trim().min(1, "question is required").max(L.maxQuestionChars),
  expectedPoints: ExpectedPointsSchema,
  classification: z.string().trim().max(L.maxClassificationChars).meta({ description: "Business scenario" }),
  script: ScriptSchema.nullable(),
  assertions: AssertionsSchema.nullable().meta({ description: "Per-sample rule assertions" }),
  sourceTraceId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .meta({ description: "Online-sourced samples: the trace they came from (unique within a version)" }),
};
export const SampleInput = z
  .object({
    ...sampleFields,
    key: sampleFields.key.optional(),
    expectedPoints: sampleFields.expectedPoints.default([]),
    classification: sampleFields.classification.default(""),
    script: sampleFields.script.optional(),
    assertions: sampleFields.assertions.optional(),
    sourceTraceId: sampleFields.sourceTraceId.optional(),
  })
  .meta({ id: "EvalSampleInput" });
export type SampleInputT = z.output<typeof SampleInput>;
/** A partial update: only the fields present change (no defaults applied). */
export const SamplePatch = z.object(sampleFields).partial().meta({ id: "EvalSamplePatch" });

// ---------------------------------------------------------------- sets, versions, runs

export const CreateSetInput = z
  .object({
    agentId: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).default(""),
    kind: z.enum(SET_KINDS),
    gateThreshold: z.number().int().min(0).max(L.maxSamplesPerVersion).meta({
      description: "Human-confirmed passes the gate needs (absolute count, e.g. 24 of 28 or 26 of 30)",
    }),
  })
  .meta({ id: "EvalSetCreate" });
export const UpdateSetInput = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(2000).optional(),
    gateThreshold: z.number().int().min(0).max(L.maxSamplesPerVersion).optional(),
  })
  .meta({ id: "EvalSetUpdate" });
export const ListSetsQuery = z.object({
  agentId: z.string().max(64).optional(),
  kind: z.enum(SET_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(64).optional(),
});

export const CreateVersionInput = z
  .object({
    from: VersionNumber.optional().meta({
      description: "Copy samples and set assertions from this version (default: the latest)",
    }),
    empty: z.boolean().default(false).meta({ description: "Start empty instead of copying" }),
    note: z.string().max(500).default(""),
  })
  .meta({ id: "EvalVersionCreate" });
export const UpdateVersionInput = z
  .object({
    note: z.string().max(500).optional(),
    assertions: AssertionsSchema.nullable()
      .optional()
      .meta({ description: "Set-level rule assertions (applied to every sample)" }),
  })
  .meta({ id: "EvalVersionUpdate" });

export const ListSamplesQuery = z.object({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: "Text in the question, the key or the classification (case-insensitive)" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(L.maxSamplesPerVersion)
    .default(L.maxSamplesPerVersion)
    .meta({ description: "Page size (default: the whole version)" }),
  cursor: z.string().max(64).optional(),
});

export const ImportFormat = z.enum(["json", "jsonl", "csv"]);
export const ExportQuery = z.object({ format: ImportFormat.default("json") });
export const ImportInput = z
  .object({
    format: ImportFormat,
    content: z.string().meta({ description: "The file's text (UTF-8)" }),
    mode: z
      .enum(["append", "replace"])
      .default("append")
      .meta({ description: "append to the draft's samples, or replace them all; either way all rows or none" }),
  })
  .meta({ id: "EvalImport" });

export const CreateRunInput = z
  .object({
    setVersionId: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: "A FROZEN set version (anything else: 400 SET_VERSION_NOT_FROZEN)" }),
    mode: z.enum(RUN_MODES),
    tier: z.enum(TIERS).default("pipeline"),
    environment: z
      .string()
      .trim()
      .max(L.maxEnvironmentChars)
      .default("")
      .meta({ description: "Free label of the answering environment, e.g. staging-2026-05" }),
    agentVersion: VersionNumber.optional().meta({
      description: "Workflow version of the set's agent to snapshot (default: its latest)",
    }),
    concurrency: z.number().int().min(1).max(L.maxConcurrency).optional().meta({
      description:
        "Items answered at once, in total across every app instance on the database (default EVAL_CONCURRENCY, 4)",
    }),
  })
  .meta({ id: "EvalRunCreate" });
export const RerunInput = z
  .object({
    environment: z.string().trim().max(L.maxEnvironmentChars).optional(),
    agentVersion: VersionNumber.optional(),
  })
  .meta({ id: "EvalRerun" });
export const ListRunsQuery = z.object({
  setId: z.string().max(64).optional(),
  agentId: z.string().max(64).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  tier: z.enum(TIERS).optional(),
  mode: z.enum(RUN_MODES).optional(),
  rerunOf: z.string().max(64).optional().meta({ description: "Only re-runs of this run (id or short Run ID)" }),
  q: z
    .string()
    .trim()
    .max(120)
    .optional()
    .meta({ description: "Text in the short Run ID, the set's name or the environment (case-insensitive)" }),
  unfiledFails: QueryFlag.meta({
    description: "Only runs with failed items that have no Bad Case yet (progress.unfiledFails > 0)",
  }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(64).optional(),
});

export const PastedAnswer = z
  .object({
    sampleId: z.string().max(64).optional(),
    key: z.string().max(L.maxKeyChars).optional(),
    answer: z.string().max(L.maxAnswerChars).default(""),
    payload: z.record(z.string(), z.unknown()).nullish(),
    traceId: z.string().max(64).nullish(),
    latencyMs: DbInt(0).nullish().meta({ description: "Milliseconds the answer took (0 .. 2147483647)" }),
    error: z
      .string()
      .max(4000)
      .nullish()
      .meta({ description: "Marks the item failed with this error instead of answered" }),
  })
  .meta({ id: "EvalPastedAnswer" });
export const PastedAnswersInput = z
  .object({
    // each row is parsed by itself (an invalid one is a row error of IMPORT_INVALID), and documented as EvalPastedAnswer
    answers: z
      .array(z.unknown().meta(inlineJsonSchema(PastedAnswer)))
      .max(L.maxAnswersPerUpload)
      .optional()
      .meta({ description: "Rows { sampleId | key, answer, payload?, traceId?, latencyMs?, error? }" }),
    format: ImportFormat.optional(),
    content: z.string().optional().meta({
      description:
        "Alternatively a JSON/JSONL/CSV file with the same columns (sample_id or key, answer, payload, trace_id, latency_ms, error)",
    }),
  })
  .meta({ id: "EvalPastedAnswers" });

export const ListItemsQuery = z.object({
  status: z.enum(ITEM_STATUSES).optional(),
  verdict: z.enum(["pass", "fail", "none"]).optional(),
  suggestion: z.enum(["pass", "fail", "unknown", "none"]).optional(),
  spotCheck: QueryFlag.meta({
    description: "Only items to spot-check: suggestion fail or unknown, or any guardrail flag",
  }),
  classification: z
    .string()
    .max(L.maxClassificationChars)
    .optional()
    .meta({ description: "Business scenario: the verdict's classification, else the sample's" }),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: "Text in the question or the sample key (case-insensitive)" }),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(64).optional(),
});
/** The queue's filters without paging: where one item sits among the items they match (its neighbours). */
export const QueueFilterQuery = ListItemsQuery.omit({ limit: true, cursor: true });

export const VerdictInput = z
  .object({
    verdict: z.enum(["pass", "fail"]),
    basis: z.string().trim().max(L.maxBasisChars).optional().meta({
      description:
        "The person's comment: required for fail (what is wrong), optional for pass (e.g. what to keep an eye on)",
    }),
    attribution: z
      .string()
      .max(40)
      .optional()
      .meta({ description: `Required for fail: one of ${ATTRIBUTION_LIST.join(", ")}` }),
    classification: z
      .string()
      .trim()
      .max(L.maxClassificationChars)
      .optional()
      .meta({ description: "Business scenario; default: the sample's classification" }),
    expectedVersion: DbInt(0).optional().meta({
      description:
        "The item's verdictVersion you decided on; if another verdict was written since, 409 VERDICT_CONFLICT and nothing is written. Omit to write regardless (last write wins, still recorded in the history).",
    }),
  })
  .meta({
    id: "EvalVerdictInput",
    // what checkVerdict (verdicts.ts) refuses as VERDICT_BASIS_REQUIRED / VERDICT_ATTRIBUTION_REQUIRED
    if: { properties: { verdict: { const: "fail" } }, required: ["verdict"] },
    then: {
      required: ["basis", "attribution"],
      properties: { basis: { pattern: "\\S" }, attribution: { enum: ATTRIBUTION_LIST } },
    },
  });
export type VerdictInputT = z.output<typeof VerdictInput>;

export const UndoVerdictInput = z
  .object({
    version: DbInt(1).meta({
      description:
        "The item's verdictVersion your verdict made (the verdict's answer says it): only that change is taken back; if anything was written since, 409 VERDICT_CONFLICT and nothing changes",
    }),
  })
  .meta({ id: "EvalUndoVerdictInput" });

export const AdoptInput = z.object({}).meta({ id: "EvalAdopt" });

export const CreateBadCaseInput = z
  .object({ title: z.string().trim().min(1).max(200).optional(), notes: z.string().max(4000).optional() })
  .meta({ id: "EvalBadCaseCreate" });
export const UpdateBadCaseInput = z
  .object({
    status: z.enum(BAD_CASE_STATUSES).optional(),
    title: z.string().trim().min(1).max(200).optional(),
    notes: z.string().max(4000).optional(),
  })
  .meta({ id: "EvalBadCaseUpdate" });
export const ListBadCasesQuery = z.object({
  status: z.enum(BAD_CASE_STATUSES).optional(),
  runId: z.string().max(64).optional().meta({ description: "The run the Bad Cases came from (id or short Run ID)" }),
  setId: z.string().max(64).optional().meta({ description: "The evaluation set of their runs" }),
  agentId: z.string().max(64).optional(),
  attribution: z.enum(ATTRIBUTION_LIST).optional(),
  classification: z
    .string()
    .max(L.maxClassificationChars)
    .optional()
    .meta({ description: "Business scenario: the item's classification, else the sample's (as the list shows it)" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(64).optional(),
});

export const CompareQuery = z.object({
  run_a: z.string().min(1).max(64),
  run_b: z.string().min(1).max(64),
  outcome: z
    .enum(COMPARE_OUTCOMES)
    .optional()
    .meta({ description: "Only questions with this outcome (the summary still counts all)" }),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only questions whose sample key is this (case-insensitive) or whose text contains it" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "Page size. Without it every (filtered) question is returned, as before paging existed" }),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_DB_INT)
    .default(0)
    .meta({ description: "Questions to skip (page.offset + page size for the next page)" }),
});
export const UsageQuery = dayRangeQuery({ agentId: z.string().max(64).optional() }, { bounded: true });
