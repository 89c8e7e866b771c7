/**
 * The intent shadow's limits, inputs and outputs (pure: no I/O). What the shadow is (a candidate intent classifier
 * tried on real traffic in the background, never changing what users get) and how it behaves: the descriptions in
 * ./operations.ts (shown in /docs) and server/eval/behaviour.md, "Intent shadow".
 */
import { z } from "zod";
import { CursorParam, dayRangeQuery, IdParam, VersionNumber } from "../../core/params";
import { workflowField } from "../../workflow";
import { FindingOut } from "../../agents/schemas";

const date = z.iso.datetime();
const dateOrNull = date.nullable();

export const SHADOW_LIMITS = {
  timeoutMs: 30_000,
  maxReplay: 200,
  replayConcurrency: 4,
  liveConcurrency: 4,
  maxRefChars: 300,
  disagreementsPage: 20,
  maxDisagreementsPage: 100,
  reportFailures: 20,
  /** an agent's sample rate and on/off are re-read at most this often per instance (a change made here applies at once) */
  samplingTtlMs: 2_000,
  /** sampled chats wait at most this long (or until `enqueueBatch` of them) and go to the queue in one insert */
  enqueueFlushMs: 1_000,
  enqueueBatch: 100,
  /** a worker runs at most this many shadow jobs at once (queue eval-shadow), in slots no evaluation run uses */
  inFlightPerInstance: 1,
  /** and each first waits for a quiet event loop: utilisation under this share over idleWindowMs, at most idleWaitMs */
  idleUtilization: 0.5,
  idleWindowMs: 100,
  idleWaitMs: 5_000,
} as const;

const Ref = z
  .string()
  .trim()
  .min(5)
  .max(SHADOW_LIMITS.maxRefChars)
  .regex(/\{\{\s*[A-Za-z0-9_-]+\.[^{}]+\}\}/, {
    message: "must be a template naming a node output, e.g. {{detect.result.scene}}",
  });

export const ShadowConfigInput = z
  .object({
    candidateVersion: VersionNumber.optional().meta({ description: "The candidate is this version of the agent" }),
    candidateWorkflow: workflowField(
      "Or: the candidate is this draft workflow (validated like any other); it wins over candidateVersion",
    ).optional(),
    candidateNote: z.string().trim().max(200).optional().meta({
      description:
        'Where the candidate comes from, for people (e.g. "file candidate.json"); publishing a draft uses it as the new version\'s note',
    }),
    liveRef: Ref.meta({ description: "The intent in the live version's trace, e.g. {{detect.result.scene}}" }),
    candidateRef: Ref.meta({ description: "The intent in the candidate, e.g. {{classify.result.scene}}" }),
    sampleRate: z.number().min(0).max(1).default(1).meta({ description: "Share of online chats shadowed (0..1)" }),
    enabled: z.boolean().default(true),
  })
  .refine((c) => c.candidateVersion !== undefined || c.candidateWorkflow !== undefined, {
    message: "give candidateVersion or candidateWorkflow",
    path: ["candidateVersion"],
  })
  .meta({ id: "ShadowConfigInput", anyOf: [{ required: ["candidateVersion"] }, { required: ["candidateWorkflow"] }] });

export const ShadowParams = z.object({ agentId: IdParam.shape.id });
export const ReplayInput = z.object({ limit: z.number().int().min(1).max(SHADOW_LIMITS.maxReplay).default(50) });
export const ShadowReportQuery = dayRangeQuery({}, { bounded: false });
export const DisagreementsQuery = dayRangeQuery(
  {
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(SHADOW_LIMITS.maxDisagreementsPage)
      .default(SHADOW_LIMITS.disagreementsPage),
    cursor: CursorParam,
  },
  { bounded: false },
);

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
