/**
 * Verdicts and Bad Cases: attributions, statuses, path parameters, inputs and outputs. Pure: no I/O.
 */
import { z } from "zod";
import { CursorParam, DbInt, IdParam } from "../../core/params";
import { EVAL_LIMITS as L } from "../limits";

const date = z.iso.datetime();
const dateOrNull = date.nullable();

/**
 * `verified` only with evidence: a later platform run of the set, of a newer agent version than the Bad Case was found
 * with, has a human pass for the question; or a manager's reason (see bad-case-evidence.ts, bad-cases.ts).
 */
export const BAD_CASE_STATUSES = ["open", "fixing", "fixed", "wont_fix", "verified"] as const;

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

export const BadCaseParams = IdParam;

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
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: {
      required: ["basis", "attribution"],
      properties: { basis: { pattern: "\\S" }, attribution: { enum: ATTRIBUTION_LIST } },
    },
  });

export type VerdictInputT = z.output<typeof VerdictInput>;

export const AdjudicationInput = z
  .object({
    verdict: z.enum(["pass", "fail"]),
    basis: z.string().trim().max(L.maxBasisChars).meta({
      description: "Required whatever the verdict: why it decides the dispute (empty: 400 VERDICT_BASIS_REQUIRED)",
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
      .meta({ description: "Business scenario; default: the item's, else the sample's" }),
  })
  .meta({
    id: "EvalAdjudicationInput",
    if: { properties: { verdict: { const: "fail" } }, required: ["verdict"] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { required: ["attribution"], properties: { attribution: { enum: ATTRIBUTION_LIST } } },
  });

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
    status: z.enum(BAD_CASE_STATUSES).optional().meta({
      description:
        "verified needs evidence: a later run of the set answered in the platform (not pasted) by an agent version newer than `foundInVersion`, with a human pass (typed or adopted) on the question; else a `reason` (eval.manage); else 409 BAD_CASE_NOT_VERIFIED",
    }),
    title: z.string().trim().min(1).max(200).optional(),
    notes: z.string().max(4000).optional(),
    reason: z.string().trim().min(1).max(L.maxBasisChars).optional().meta({
      description:
        "Only with status verified: a manager's reason for verifying without a qualifying run (needs eval.manage, else 403); kept on the case (`verifiedReason`) and in its history with who and when",
    }),
  })
  .refine((b) => b.reason === undefined || b.status === "verified", {
    path: ["reason"],
    message: "a reason goes only with status verified",
  })
  .meta({
    id: "EvalBadCaseUpdate",
    // the refinement above (a reason only with status verified), for OpenAPI readers
    if: { required: ["reason"] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { required: ["status"], properties: { status: { const: "verified" } } },
  });

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
  cursor: CursorParam,
});

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
    foundInVersion: z.number().int().meta({
      description:
        "The agent version the Bad Case was found with (its run's workflow version): verifying needs a platform run of a newer one",
    }),
    verifiedRunId: z.string().nullable().meta({
      description:
        "The later platform run of a newer agent version whose human pass verified the fix (status verified; null when a reason verified it without one)",
    }),
    verifiedReason: z.string().nullable().meta({
      description:
        "A manager's reason for verifying without a qualifying run (status verified); who and when: `history`",
    }),
  })
  .meta({ id: "EvalBadCase" });

const BadCaseLaterItem = z.object({
  runId: z.string(),
  runShortId: z.string(),
  runStatus: z.string(),
  runMode: z.enum(["in_platform", "pasted"]),
  agentVersion: z.number().int().meta({ description: "The agent version the run executed" }),
  notEvidence: z.enum(["pasted", "not_newer"]).nullable().meta({
    description:
      "Why this run cannot verify the Bad Case whatever its verdict: its answers were pasted, or it ran the version the Bad Case was found with or an older one; null: a human pass here verifies",
  }),
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
      "The evidence `verified` needs: the newest later run of the set answered in the platform by an agent version newer than `foundInVersion` with a pass (typed or adopted) for the question, who gave it; null while there is none (setting verified is then 409 BAD_CASE_NOT_VERIFIED unless a manager gives a reason)",
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
      reason: z
        .string()
        .nullable()
        .meta({ description: "A manager's reason, for a verification without a qualifying run" }),
      byId: z.string().nullable(),
      byLabel: z.string().nullable(),
      at: date,
    }),
  ),
}).meta({ id: "EvalBadCaseDetail" });

/** Turning a failed item into a Bad Case: the Bad Case, and whether it was created now. */
export const BadCaseCreatedOut = z.object({ created: z.boolean(), badCase: BadCaseOut });

export const RunBadCasesOut = z.object({ created: z.number().int(), items: z.array(BadCaseOut) });
