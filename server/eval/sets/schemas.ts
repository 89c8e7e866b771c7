/**
 * Sets, versions and samples: path parameters, inputs (REST bodies and queries, tRPC inputs, import rows) and outputs
 * (the OpenAPI shapes; the services return exactly these fields). Pure: no I/O.
 */
import { z } from "zod";
import { CursorParam, IdParam, VersionNumber, VersionParam } from "../../core/params";
import { EVAL_LIMITS as L } from "../limits";
import { AssertionSchema, AssertionsSchema, JudgeSpec } from "../suggestions/schemas";

const date = z.iso.datetime();
const dateOrNull = date.nullable();

export const SET_KINDS = ["golden", "regression_pool"] as const;

// ---------------------------------------------------------------- addressing (path parameters of REST, the same keys in tRPC)

/** A set, a sample or a Bad Case: `{ id }`. */
export const SetParams = IdParam;

export const SampleParams = IdParam;

/** One version of a set: `{ id, version }` (the version number; coerced, as REST path parameters are text). */
export const SetVersionParams = z.object({ id: IdParam.shape.id, version: VersionParam });

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

/** The audit of adopted passes (server/eval/verdicts/audit-sample.ts): the set's two settings, as inputs. */
const auditRateField = z.number().min(0).max(1).meta({
  description:
    "Share (0-1) of the passes each adoption of machine suggestions writes that are drawn at random for a person to check (the audit: audit items are on the spot-check list with audit: true); at least 3, all of them if fewer; 0: no audit. Default 0.1. Runs keep the value they were created with",
});
const maxAuditOverturnField = z.number().int().min(0).max(L.maxSamplesPerVersion).meta({
  description:
    "Audit items a person may overturn (an adopted pass typed fail) before the gate fails with GATE_AUDIT_OVERTURNED until people have reviewed every other adopted pass. Default 0: any overturn. Runs keep the value they were created with",
});

export const CreateSetInput = z
  .object({
    agentId: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).default(""),
    kind: z.enum(SET_KINDS),
    gateThreshold: z.number().int().min(0).max(L.maxSamplesPerVersion).meta({
      description: "Human-confirmed passes the gate needs (absolute count, e.g. 24 of 28 or 26 of 30)",
    }),
    reviewsPerItem: z.number().int().min(1).max(3).optional().meta({
      description:
        "People who review each item of a run (1, 2 or 3; default 1). With more than one, an item's verdict is final when its reviewers agree; when they disagree the item is disputed until an adjudicator decides it. Runs keep the value they were created with: a change affects new runs only",
    }),
    minReviewerKappa: z.number().min(-1).max(1).nullable().optional().meta({
      description:
        "Agreement between reviewers the gate requires (Cohen's kappa for two reviewers, Fleiss' kappa for three), e.g. 0.6; below it the gate fails with GATE_REVIEWER_AGREEMENT. null: not required (default). Runs keep the value they were created with",
    }),
    auditRate: auditRateField.optional(),
    maxAuditOverturn: maxAuditOverturnField.optional(),
  })
  .meta({ id: "EvalSetCreate" });

export const UpdateSetInput = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(2000).optional(),
    gateThreshold: z.number().int().min(0).max(L.maxSamplesPerVersion).optional(),
    reviewsPerItem: z.number().int().min(1).max(3).optional().meta({
      description:
        "People who review each item of a run (1, 2 or 3; default 1). With more than one, an item's verdict is final when its reviewers agree; when they disagree the item is disputed until an adjudicator decides it. Runs keep the value they were created with: a change affects new runs only",
    }),
    minReviewerKappa: z.number().min(-1).max(1).nullable().optional().meta({
      description:
        "Agreement between reviewers the gate requires (Cohen's kappa for two reviewers, Fleiss' kappa for three), e.g. 0.6; below it the gate fails with GATE_REVIEWER_AGREEMENT. null: not required (default). Runs keep the value they were created with",
    }),
    auditRate: auditRateField.optional(),
    maxAuditOverturn: maxAuditOverturnField.optional(),
    judge: JudgeSpec.nullable().optional().meta({
      description:
        'The set\'s judge: {"type":"builtin"}, {"type":"llm"} or {"type":"agent","agentId","version"} (a judge agent\'s pinned version); null: the server\'s default again. Runs created afterwards use it.',
    }),
    force: z.boolean().optional().meta({
      description:
        "Switch the judge even when the candidate agrees less with people than the current judge (409 JUDGE_AGREEMENT_DROP otherwise); needs a reason",
    }),
    reason: z.string().trim().max(2000).optional().meta({
      description: "Why a switch is forced; recorded in the set's judge history",
    }),
  })
  .meta({ id: "EvalSetUpdate" });

export const ListSetsQuery = z.object({
  agentId: z.string().max(64).optional(),
  kind: z.enum(SET_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: CursorParam,
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
  cursor: CursorParam,
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
    reviewsPerItem: z.number().int().meta({
      description: "People who review each item of a new run (1-3); runs keep the value they were created with",
    }),
    minReviewerKappa: z
      .number()
      .nullable()
      .meta({ description: "Agreement between reviewers (kappa) the gate requires; null: not required" }),
    auditRate: z.number().meta({
      description:
        "Share of each adoption's passes drawn for a person to audit (at least 3, all if fewer); 0: no audit. New runs take it",
    }),
    maxAuditOverturn: z.number().int().meta({
      description:
        "Audit items a person may overturn before the gate fails with GATE_AUDIT_OVERTURNED. New runs take it",
    }),
    judge: JudgeSpec.nullable().meta({
      description:
        "The set's judge, which each run takes when it is created; null: not chosen, runs take the server's default (the LLM judge when a model provider is configured and EVAL_JUDGE is auto, else builtin)",
    }),
    latestVersion: z.number().int().optional(),
    createdById: z.string().nullable(),
    createdAt: date,
    updatedAt: date,
  })
  .meta({ id: "EvalSet" });

const JudgeSwitchSide = z.object({
  key: z.string().meta({ description: "builtin, llm or agent:<agentId>@<version>" }),
  n: z.number().int().meta({ description: "Human-typed items the judge has a suggestion on" }),
  pairs: z.number().int(),
  kappa: z.number().nullable(),
  failRecall: z.number().nullable(),
});

/** The calibration figures a judge switch was decided on (server/eval/reports/judge-switch.ts). */
export const JudgeSwitchFigures = z
  .object({
    current: JudgeSwitchSide,
    candidate: JudgeSwitchSide,
    enough: z
      .boolean()
      .meta({ description: "Both judges have at least 20 human-typed items: only then is a switch refused" }),
    drops: z
      .array(z.enum(["kappa", "failRecall"]))
      .meta({ description: "What dropped by more than 0.05 from the current judge to the candidate" }),
  })
  .meta({ id: "EvalJudgeSwitchFigures" });

/** A background job of the evaluation center (`GET /api/eval/jobs/{id}`; server/eval/reports/judge-comparison.ts). */
export const JobParams = IdParam;

export const JOB_STATUSES = ["running", "succeeded", "failed"] as const;

export const EvalJobOut = z
  .object({
    id: z.string(),
    kind: z.enum(["judge_comparison"]).meta({
      description:
        "judge_comparison: a set's judge switch whose candidate had no suggestions on the set's human-typed items; the candidate judges them, then the switch is decided",
    }),
    setId: z.string(),
    status: z.enum(JOB_STATUSES).meta({
      description:
        "running: the candidate is judging; succeeded: decided (see result: switched, or refused); failed: could not decide (see error)",
    }),
    progress: z
      .object({ done: z.number().int(), total: z.number().int() })
      .meta({ description: "Items judged by the candidate so far, of the human-typed items to judge" }),
    request: z.object({
      judge: JudgeSpec.nullable().meta({ description: "The candidate judge (null: the server's default)" }),
      force: z.boolean(),
      reason: z.string().nullable(),
    }),
    result: z
      .object({
        switched: z.boolean().meta({ description: "The set's judge is now the candidate" }),
        figures: JudgeSwitchFigures.nullable().meta({
          description: "Both judges' calibration on the human-typed items (null: the candidate still had none there)",
        }),
        refusal: z
          .object({
            code: z.literal("JUDGE_AGREEMENT_DROP"),
            message: z.string(),
            details: z.array(JudgeSwitchFigures),
          })
          .nullable()
          .meta({ description: "Why the switch was refused: the 409 the PATCH would have answered" }),
      })
      .nullable()
      .meta({ description: "Set when the job succeeded" }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: "Set when the job failed (e.g. the candidate judge agent was deleted meanwhile)" }),
    createdAt: date,
    finishedAt: dateOrNull,
  })
  .meta({ id: "EvalJob" });

/** PATCH /api/eval/sets/{id} answered 202: the comparison job that decides the switch. */
export const EvalJobAcceptedOut = z.object({ job: EvalJobOut }).meta({ id: "EvalJobAccepted" });

/** PATCH /api/eval/sets/{id}: the set (200), or the comparison job deciding its judge switch (202). */
export const EvalSetUpdateOut = z.union([EvalSetOut, EvalJobAcceptedOut]);

export const EvalSetDetailOut = EvalSetOut.extend({
  versions: z.array(EvalVersionOut),
  judgeHistory: z
    .array(
      z.object({
        at: date,
        byId: z.string().nullable(),
        before: JudgeSpec.nullable().meta({ description: "The judge before (null: the server's default)" }),
        after: JudgeSpec.nullable(),
        figures: JudgeSwitchFigures.nullable().meta({
          description:
            "Both judges' calibration on the set's human-typed items; null when the candidate had no suggestions there",
        }),
        forced: z.boolean(),
        reason: z.string().nullable(),
      }),
    )
    .meta({ description: "The set's judge switches, newest first (at most 50)" }),
}).meta({ id: "EvalSetDetail" });

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

export const RowErrorOut = z
  .object({ row: z.number().int(), field: z.string(), message: z.string() })
  .meta({ id: "EvalRowError" });

/** A version's samples (GET …/samples). */
export const EvalSampleListOut = z.object({
  version: EvalVersionOut,
  items: z.array(EvalSampleOut),
  matching: z.number().int(),
  nextCursor: z.string().nullable(),
});

export const EvalImportOut = z.object({
  imported: z.number().int(),
  mode: z.enum(["append", "replace"]),
  version: EvalVersionOut,
});

/** An exported file: tRPC answers it as is, REST sends `body` as an attachment. */
export const EvalExportOut = z.object({ body: z.string(), contentType: z.string(), filename: z.string() });

/** What a delete answers over tRPC (REST answers 204 without a body). */
export const DeletedOut = z.object({ deleted: z.literal(true) });
