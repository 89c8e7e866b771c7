/**
 * Runs, items, pasted answers and the annotation queue: vocabulary, path parameters, inputs and outputs. Pure: no I/O.
 */
import { z } from "zod";
import { CostOut } from "../../core/prices";
import { inlineJsonSchema } from "../../core/json-schema";
import { CursorParam, DbInt, IdParam, QueryFlag, VersionNumber } from "../../core/params";
import { EVAL_LIMITS as L } from "../limits";
import { SET_KINDS, TurnSchema } from "../sets/schemas";
import { AssertionSchema, JudgeRefOut, JudgeSpec, SuggestionOut } from "../suggestions/schemas";
import { ATTRIBUTION_LIST, BAD_CASE_STATUSES, VerdictOut } from "../verdicts/schemas";
import { ImportFormat } from "../sets/schemas";

const date = z.iso.datetime();
const dateOrNull = date.nullable();

export const RUN_MODES = ["in_platform", "pasted"] as const;

export const TIERS = ["pipeline_live", "pipeline", "invoke"] as const;

export const RUN_STATUSES = ["created", "answering", "awaiting_review", "completed", "cancelled", "failed"] as const;

/** An item's answering states, and `disputed`: answered, but its reviewers disagree until an adjudicator decides. */
export const ITEM_STATUSES = ["pending", "answering", "answered", "failed", "cancelled", "disputed"] as const;

export type Tier = (typeof TIERS)[number];

export type RunStatus = (typeof RUN_STATUSES)[number];

export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** A run, by internal id or short Run ID: `{ id }`. */
export const RunParams = z.object({ id: IdParam.shape.id.meta({ description: "Run id or short Run ID (R-XXXXX)" }) });

/** One person's review of an item (runs with several reviewers per item). */
export const ReviewOut = z
  .object({
    reviewerId: z.string().meta({
      description: "The person (a user id; an API token reviews as its owner), or `adopted` for the adopted suggestion",
    }),
    verdict: z.enum(["pass", "fail"]),
    source: z.enum(["human", "adopted"]),
    basis: z.string().nullable(),
    attribution: z.enum(ATTRIBUTION_LIST).nullable(),
    classification: z.string().nullable(),
    at: date,
    byLabel: z.string().nullable().optional().meta({ description: "Who, for people (in the single-item answer)" }),
  })
  .meta({ id: "EvalReview" });

export const REVIEW_STATES = ["open", "agreed", "disputed", "adjudicated"] as const;

export const ItemReviewsOut = z
  .object({
    needed: z.number().int().meta({ description: "Reviews the item needs (the run's reviewsPerItem)" }),
    given: z.number().int().meta({ description: "Reviews given so far (everyone sees the count)" }),
    state: z.enum(REVIEW_STATES).meta({
      description:
        "open: reviews missing; agreed: the reviewers agree (the verdict is final); disputed: they disagree, an adjudicator decides; adjudicated: decided by an adjudicator (final)",
    }),
    mine: ReviewOut.nullable().meta({ description: "Your own review (null: you have not reviewed the item)" }),
    others: z.array(ReviewOut).nullable().meta({
      description:
        "The other reviewers' reviews; null while hidden from you (blind review: until you have given your verdict, or the item needs no more reviews)",
    }),
    adjudication: z
      .object({
        byId: z.string().nullable(),
        byLabel: z.string().nullable().optional(),
        at: date,
      })
      .nullable()
      .meta({ description: "Who decided the dispute and when (the item's verdict is the adjudicator's)" }),
  })
  .meta({ id: "EvalItemReviews" });

/** One item of a run: `{ id, itemId }`. */
export const RunItemParams = RunParams.extend({ itemId: z.string().min(1).max(64) });

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
    repeats: z.number().int().min(1).max(L.maxRepeats).default(1).meta({
      description:
        "In-platform runs: answers per question (1-5). People judge the first answer; every answer gets a machine suggestion and the report lists the questions whose suggestions differ (consistency). Pasted runs: only 1 (anything else is 400: there is one pasted answer per question)",
    }),
  })
  .refine((r) => r.mode === "in_platform" || r.repeats === 1, {
    path: ["repeats"],
    message: "repeats apply to in-platform runs only: a pasted run has one answer per question",
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
  cursor: CursorParam,
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
    description:
      "Only items to spot-check: suggestion fail or unknown, or any guardrail flag, or drawn by an adoption's audit (audit: true)",
  }),
  classification: z
    .string()
    .max(L.maxClassificationChars)
    .optional()
    .meta({ description: "Business scenario: the verdict's classification, else the sample's" }),
  source: z.enum(["human", "adopted"]).optional().meta({
    description:
      "Who made the verdict: typed by a person, or adopted from the machine suggestion and not yet typed by a person. `source=adopted&verdict=pass` is the adopted passes still to review (what an overturning audit, GATE_AUDIT_OVERTURNED, asks people to review); an item leaves the list once a person types its verdict",
  }),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: "Text in the question or the sample key (case-insensitive)" }),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: CursorParam,
});

/** The queue's filters without paging: where one item sits among the items they match (its neighbours). */
export const QueueFilterQuery = ListItemsQuery.omit({ limit: true, cursor: true });

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
    repeats: z.number().int().meta({ description: "Answers per question, as the run was created with (1-5)" }),
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
    reviewsPerItem: z.number().int().meta({
      description:
        "People who review each item (1-3), the set's value when the run was created (fixed). With more than one, an item's verdict is final when its reviewers agree, else it is disputed until adjudicated",
    }),
    minReviewerKappa: z.number().nullable().meta({
      description:
        "Agreement between reviewers (kappa) this run's gate requires, the set's value when the run was created (fixed); null: not required",
    }),
    setReviewsPerItem: z
      .number()
      .int()
      .meta({ description: "The set's current reviews per item (applies to runs created from now on)" }),
    auditRate: z.number().meta({
      description:
        "Share of each adoption's passes drawn for a person to audit, the set's value when the run was created (fixed); 0: no audit",
    }),
    maxAuditOverturn: z.number().int().meta({
      description:
        "Audit items a person may overturn before this run's gate fails with GATE_AUDIT_OVERTURNED, the set's value when the run was created (fixed)",
    }),
    judge: JudgeRefOut.meta({
      description:
        "The run's judge: the set's judge when the run was created, kept (its suggestions are what the queue and adoption use). Runs created before judges could be chosen report the server's default judge.",
    }),
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

/** One adoption's audit of the passes it wrote (server/eval/verdicts/audit-sample.ts says how the sample is drawn). */
export const EvalAuditOut = z
  .object({
    id: z.string(),
    at: date,
    byId: z.string().nullable(),
    algorithm: z.string().meta({ description: "The sampler and its version: mulberry32-fisher-yates/1" }),
    seed: z.number().int().meta({ description: "The PRNG's seed (0 .. 2^31 - 1): redraws the sample from population" }),
    rate: z.number().meta({ description: "The run's auditRate when drawn (0: no audit)" }),
    population: z.array(z.string()).meta({
      description:
        "The adopted passes the sample was drawn from: the ids of the items this adoption wrote a pass on whose suggestion is outside the spot-check rule (no flag), sorted",
    }),
    sample: z.array(z.string()).meta({ description: "The drawn item ids, sorted (the audit items)" }),
    sampleKeys: z.array(z.string()).meta({ description: "The drawn items' sample keys, in the same order" }),
  })
  .meta({ id: "EvalAudit" });

export const EvalAuditsOut = z
  .object({
    runId: z.string(),
    shortId: z.string(),
    auditRate: z.number(),
    maxAuditOverturn: z.number().int(),
    audits: z.array(EvalAuditOut).meta({ description: "Every adoption's audit, oldest first" }),
  })
  .meta({ id: "EvalAudits" });

/** How an item stands in the reserved and assigned queue for the caller (runs/reservation-rules.ts). */
export const QueueMarksOut = z
  .object({
    assignee: z
      .string()
      .nullable()
      .meta({ description: "The user the item is assigned to (PUT /runs/{id}/assignees); null: nobody's" }),
    assignedToOther: z.boolean().meta({ description: "Assigned to someone else than you (reachable, but theirs)" }),
    reservedUntil: date.nullable().meta({ description: "Your reservation of the item ends then; null: you hold none" }),
    reservedByOthers: z
      .number()
      .int()
      .meta({ description: "People other than you holding a live reservation of the item (a courtesy, not a lock)" }),
  })
  .meta({ id: "EvalQueueMarks" });

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
    suggestion: SuggestionOut.nullable().meta({
      description: "The run's judge's suggestion (what the queue, spot-checks and adoption use)",
    }),
    suggestedAt: dateOrNull,
    otherSuggestions: z.record(z.string(), SuggestionOut).meta({
      description:
        "Suggestions of other judges than the run's (re-judging with POST /api/eval/runs/{id}/suggest and a judge), keyed by judge key (builtin, llm, agent:<agentId>@<version>); kept beside the run's own",
    }),
    judgeTokens: z.number().int(),
    judgeCalls: z.number().int(),
    verdict: VerdictOut.nullable(),
    verdictVersion: z.number().int().meta({
      description:
        "How many verdict changes the item has had (0: none); send it back as expectedVersion to detect concurrent edits",
    }),
    reviews: ItemReviewsOut.nullable().meta({
      description:
        "Runs with several reviewers per item (reviewsPerItem > 1); null otherwise. `verdict` is then the final verdict only (null while reviews are missing or disputed)",
    }),
    audit: z.boolean().meta({
      description:
        "Drawn by an adoption's audit of the passes it wrote: an adopted pass a person must check (on the spot-check list until a person types its verdict; GATE_AUDIT_PENDING until then)",
    }),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
    queue: QueueMarksOut,
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
    spotCheck: z
      .boolean()
      .meta({ description: "Suggestion fail or unknown, or any guardrail flag, or drawn by the audit (audit: true)" }),
    spotCheckLeft: z.boolean().meta({
      description:
        "A spot-check item without a verdict a person typed (no verdict, or adopted): the tag the queue shows",
    }),
    audit: z.boolean().meta({
      description: "Drawn by an adoption's audit of the passes it wrote (an adopted pass a person must check)",
    }),
    reviews: z
      .object({
        needed: z.number().int(),
        given: z.number().int(),
        mine: z.enum(["pass", "fail"]).nullable().meta({ description: "Your own verdict (never the others')" }),
      })
      .nullable()
      .meta({ description: 'Runs with several reviewers per item: "your review 1 of 2"; null otherwise' }),
    badCase: z.object({ id: z.string(), status: z.enum(BAD_CASE_STATUSES) }).nullable(),
    queue: QueueMarksOut,
  })
  .meta({ id: "EvalQueueRow" });

const reviewCounts = {
  total: z.number().int(),
  judged: z.number().int(),
  human: z.number().int().meta({ description: "Verdicts typed by a person (including adopted ones a person changed)" }),
  adopted: z.number().int().meta({ description: "Machine suggestions adopted in bulk, not yet changed by a person" }),
  spotCheckLeft: z.number().int().meta({
    description:
      "Spot-check items without a human verdict (no verdict, or adopted); a disputed item is not among them (it waits for an adjudicator), as in the gate",
  }),
  adoptable: z
    .number()
    .int()
    .meta({ description: "Items without a verdict whose suggestion is pass or fail: what bulk adopt would write" }),
  unknownOpen: z
    .number()
    .int()
    .meta({ description: "Items without a verdict whose suggestion is unknown: adopt leaves them to a person" }),
};

/** One person's part in a run (GET /runs/{id}/progress `people`). */
export const PersonProgressOut = z
  .object({
    userId: z.string().meta({ description: "The reviewer id: a user id (or token:<id> for a token without owner)" }),
    name: z.string().nullable().meta({ description: "The user's name, else e-mail" }),
    reviewed: z.number().int().meta({ description: "Items this person has given a verdict on (their reviews)" }),
    reserved: z.number().int().meta({ description: "Items this person holds a live reservation of" }),
    assigned: z.number().int().meta({ description: "Items assigned to this person" }),
    left: z.number().int().meta({
      description: "Assigned items still to do for this person: no final verdict, not disputed, not reviewed by them",
    }),
    itemsPerHour: z.number().nullable().meta({
      description: "Reviews per hour between their first and last review in the run (null before the second)",
    }),
  })
  .meta({ id: "EvalPersonProgress" });

export const EvalReviewProgressOut = z
  .object({
    progress: ProgressOut,
    counts: z.object(reviewCounts),
    people: z.array(PersonProgressOut).meta({
      description: "Everyone who reviewed, holds a reservation or is assigned items on this run, by name",
    }),
  })
  .meta({ id: "EvalReviewProgress" });

/** POST /runs/{id}/queue/next: the queue's filters as a JSON body. */
export const QueueNextInput = QueueFilterQuery;

export const EvalQueueNextOut = z
  .object({
    item: EvalQueueRowOut.nullable().meta({
      description: "The item reserved for you now (its `queue.reservedUntil` says until when); null: none left",
    }),
    noneLeft: z.boolean().meta({
      description:
        "True when no matching item can be reserved for you: every one has its final verdict, is disputed, was reviewed by you, is reserved by you already, or is reserved by as many people as it still needs reviews",
    }),
    fromAssigned: z.boolean().meta({ description: "The item is one of those assigned to you" }),
  })
  .meta({ id: "EvalQueueNext" });

export const EvalReservationOut = z
  .object({
    itemId: z.string(),
    reserved: z.boolean().meta({
      description:
        "PUT: true when you hold the reservation now (taken or renewed); false when the item needs no more reviewers (all its places are reserved by others or reviewed). DELETE: false",
    }),
    until: date.nullable().meta({ description: "Your reservation ends then (null: you hold none)" }),
    reservedByOthers: z.number().int(),
    heldBy: z
      .array(
        z.object({
          label: z.string().meta({ description: "Who: the person's name (or e-mail)" }),
          until: date.meta({ description: "Their reservation ends then" }),
        }),
      )
      .meta({
        description:
          "The people other than you holding a live reservation of the item, by name: the page names them before you give a verdict on it (allowed: a courtesy, not a lock)",
      }),
  })
  .meta({ id: "EvalReservation" });

export const AssigneesInput = z.object({
  userIds: z
    .array(z.string().min(1).max(64))
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, "each user once")
    .meta({ description: "The people to split the run's items between; an empty list removes the assignment" }),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .meta({ description: "The shuffle's seed (default: drawn at random); stored, so the split can be reproduced" }),
});

export const EvalAssigneesOut = z
  .object({
    runId: z.string(),
    userIds: z.array(z.string()),
    seed: z.number().int().nullable(),
    algorithm: z.string().meta({ description: "How the split was drawn (mulberry32 Fisher-Yates, dealt in turn)" }),
    assigned: z.array(z.object({ userId: z.string(), items: z.number().int() })),
  })
  .meta({ id: "EvalAssignees" });

/** GET /runs/{id}/assignees: the run's assignment as stored, and who may be assigned. */
export const EvalAssignmentOut = z
  .object({
    runId: z.string(),
    userIds: z.array(z.string()).meta({ description: "The people the items are split between now (empty: none)" }),
    seed: z.number().int().nullable().meta({ description: "The stored seed of the split (null without one)" }),
    at: z.iso.datetime().nullable().meta({ description: "When the assignment was last set or removed" }),
    candidates: z
      .array(
        z.object({
          id: z.string(),
          name: z.string().nullable(),
          email: z.string(),
          role: z.string().meta({ description: "admin, builder or annotator" }),
        }),
      )
      .meta({
        description:
          "Every enabled user whose role may review (eval.annotate: admin, builder, annotator), by name: whom PUT /runs/{id}/assignees may name usefully",
      }),
  })
  .meta({ id: "EvalAssignment" });

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

/** A page of a run's items, with the run. */
export const EvalItemListOut = z.object({
  run: EvalRunOut,
  items: z.array(EvalItemOut),
  nextCursor: z.string().nullable(),
});

/** One item with its verdict history. */
/** One of the other answers of a question of a run with repeats > 1 (not judged by people; never counted by a gate). */
export const OtherAnswerOut = z
  .object({
    number: z.number().int().meta({ description: "2, 3, ...: the answer's place (the first is the item's own)" }),
    status: z.enum(["answered", "failed"]),
    answer: z.string().nullable(),
    error: z.string().nullable(),
    traceId: z.string().nullable(),
    latencyMs: z.number().int(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    suggestion: SuggestionOut,
  })
  .meta({ id: "EvalOtherAnswer" });

export const EvalItemDetailOut = EvalItemOut.extend({
  history: z.array(VerdictChangeOut),
  otherAnswers: z
    .array(OtherAnswerOut)
    .meta({ description: "Runs with repeats > 1: the question's other answers, each with its machine suggestion" }),
  cost: CostOut.meta({ description: "The item's answering (all answers) and judging tokens in money" }),
});

export const EvalCloseAnsweringOut = z
  .object({
    unanswered: z.array(z.object({ itemId: z.string(), sampleId: z.string(), key: z.string() })),
    run: EvalRunOut,
  })
  .meta({ id: "EvalCloseAnswering" });

export const EvalPastedAnswersOut = z.object({
  matched: z.number().int(),
  unmatched: z.array(
    z.object({
      row: z.number().int(),
      sampleId: z.string().optional(),
      key: z.string().optional(),
      reason: z.string(),
    }),
  ),
  skipped: z.array(z.object({ row: z.number().int(), sampleId: z.string(), key: z.string(), reason: z.string() })),
  run: EvalRunOut,
});

export const ResuggestInput = z
  .object({
    judge: JudgeSpec.optional().meta({
      description:
        "Re-judge with this judge instead of the run's: its suggestions are kept in each item's otherSuggestions under its key, beside the run's own (which stay what counts for the queue). Checked like a set's judge.",
    }),
  })
  .meta({ id: "EvalResuggest" });

export const EvalResuggestOut = z.object({
  queued: z.number().int(),
  judged: z.number().int(),
  judge: JudgeRefOut.meta({ description: "The judge the items are (being) judged with" }),
  run: EvalRunOut,
});

// The answers of the verdict operations (server/eval/verdicts) are items, so they live beside the item's schema
// (verdicts/schemas.ts is imported here: defining them there would be a cycle).

/** The item after a verdict (changed: false when nothing differed). */
export const EvalVerdictSetOut = EvalItemOut.extend({ changed: z.boolean() });

/** The item after an undo, and the version taken back. */
export const EvalVerdictUndoOut = EvalItemOut.extend({ undone: z.number().int() });

export const EvalAdoptOut = z.object({
  adopted: z.number().int(),
  skipped: z.object({
    unknown: z.number().int(),
    noSuggestion: z.number().int(),
    alreadyJudged: z.number().int(),
  }),
  spotCheck: z.array(EvalItemOut),
  audit: EvalAuditOut.nullable().meta({
    description:
      "The audit this adoption drew of the passes it wrote outside the spot-check rule (null when it wrote none, or on a run with several reviewers per item); its items are on `spotCheck` with audit: true",
  }),
});
