import { z } from "zod";
import { EVAL_LIMITS } from "./limits";
import { LEAD_SIGNALS, LEAD_SIGNAL_WORDS, LEAD_STATUSES, LEAD_STATUS_WORDS } from "./online/schemas";
import { OUTCOMES, OUTCOME_WORDS } from "./reports/compare";
import { GATE_REASONS } from "./reports/gate";
import { ITEM_STATUSES, RUN_MODES, RUN_STATUSES, TIERS, type Tier } from "./runs/schemas";
import { SET_KINDS } from "./sets/schemas";
import { AssertionSchema, GUARDRAIL_FLAGS } from "./suggestions/schemas";
import { ATTRIBUTIONS, BAD_CASE_STATUSES } from "./verdicts/schemas";
import { AUDIT_ALGORITHM, AUDIT_MIN_ITEMS } from "./verdicts/audit-sample";

/** What each chain tier does (spec 4.2); shown where a run's tier is chosen. */
export const TIER_MEANINGS: Record<Tier, string> = {
  pipeline_live:
    "Full chain with real outbound HTTP to the owner's services, built like online; required for recommendation and coupon acceptance and for gate runs",
  pipeline:
    "Full chain, but HTTP is a dry run returning empty items; the default and historical tier; never use it to reject online recommendation ability",
  invoke: "Language model and plugins only (no HTTP nodes run)",
};

/** The rule assertion types, read from the assertion schema itself (one list). */
export const RULE_TYPES = AssertionSchema.options.map((o) => o.shape.type.value);

type FieldKind = "text" | "number" | "json" | "choice";
function kindOf(schema: z.ZodType): { kind: FieldKind; optional: boolean; choices?: string[] } {
  let s = schema;
  let optional = false;
  for (;;) {
    const def = s.def as { type: string; innerType?: z.ZodType };
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) {
      optional = true;
      s = def.innerType;
    } else break;
  }
  const type = (s.def as { type: string }).type;
  if (type === "string") return { kind: "text", optional };
  if (type === "number") return { kind: "number", optional };
  if (type === "enum") return { kind: "choice", optional, choices: (s as z.ZodEnum).options as string[] };
  return { kind: "json", optional };
}

/** Each rule type with the fields it takes (read from the assertion schema), so a form never restates them. */
export const RULES = AssertionSchema.options.map((o) => ({
  type: o.shape.type.value,
  fields: Object.entries(o.shape as Record<string, z.ZodType>)
    .filter(([k]) => k !== "type" && k !== "name")
    .map(([name, s]) => ({ name, ...kindOf(s) })),
}));

export const RUN_LIFECYCLE =
  "Run states: created -> (start) answering -> awaiting_review (no item pending) -> completed (every item has a verdict); created|answering -> (cancel) cancelled; answering -> failed when the snapshot cannot run. Item states: pending -> answering -> answered | failed (execution error) | cancelled.";

/** How a multi-turn script is answered (samples, import, runs). */
export const SCRIPT_RULES =
  "A script is ordered turns `{ role: user|assistant|system, content, preset }`: preset turns (any role) are injected as history and call no model; non-preset turns must be user turns, each calls the workflow with the history so far and its answer is appended as an assistant turn. A script without a non-preset turn asks `question` after the preset turns. The item's answer, payload and trace are the last execution's; `turns` keeps every turn; tokens and calls are summed; the judge reads every turn's answer; a failing turn ends the script.";

/** How in-platform answering behaves (start, the queue, restarts). */
export const ANSWERING_RULES =
  "Answering is durable: one job per item in the database's queue (pg-boss), shared by every app instance's worker. Exactly one answer is stored per item (a claim with a fencing token; an answered item never runs again), but model calls are at-least-once: a call in flight when its instance dies is sent again by the instance that takes the item over, with the same `Idempotency-Key` header (derived from run, item, turn, node and the request body), so a provider that honours it answers once. An instance that dies hands its items and jobs to another within about 30-40 s (leases and job heartbeats); a graceful stop drains for 10 s and puts the rest back. A run answers at most its `concurrency` items at once across all instances. In-platform answering runs the workflow at the run's tier and never uses the online answer cache.";

/** What a machine suggestion is made of (never counted by a gate). */
export const SUGGESTION_RULES =
  "A suggestion `{ verdict, judge, judgedBy, coverage, failedRules, rulesPassed, flags, rationale, judgeError? }` is never counted by a gate; `judgedBy` `{ type, key, agentId?, version?, model?, label }` records the judge that made it. Rule assertions (the version's set-level ones first, then the sample's; see GET /api/eval/meta for the types). The judge is the run's: the set's judge when the run was created (PATCH /api/eval/sets/{id} `judge`). A judge agent (type agent: an agent of kind judge at a pinned version) runs its workflow on the question, expected points, answer, payload, script and scenario and answers `{ verdict, rationale?, points? }`; a failed or empty answer is not sent to it, and its failures (run failed or timed out, an answer that is not a judge answer, a version that no longer exists) are unknown with the reason in `judgeError`, never a pass. The LLM judge (type llm; also a set's default when a provider is configured and EVAL_JUDGE is not `builtin`): one call per item with a rubric; an unreadable reply is unknown, a failing call (or no provider) falls back to the built-in judge with `judgeError`. Otherwise the built-in point-coverage judge (lexical, Chinese and English: a point is covered at 0.75, partial at 0.4; every point covered: pass, any missing: fail, otherwise or without points: unknown). Guardrail flags: execution_error, empty_answer, refusal, and from in-platform steps no_query, empty_items (pipeline_live), fabricated_items. Combined: fail when a blocking flag fired (execution_error, empty_answer, no_query, fabricated_items, refusal), a rule failed or the judge found a point missing; unknown when the judge could not decide or it passed with empty_items; pass otherwise.";

/** Several reviewers per item (issue 23; the rules: server/eval/runs/reviews.ts). */
export const REVIEW_RULES =
  "Reviewers per item: a run keeps the `reviewsPerItem` (1-3) its set had when it was created. With more than one, each person's verdict is a review (one per person: a second verdict from the same person replaces their own, and the history keeps both; an API token reviews as the user who owns it; an adopted suggestion is at most one of the reviews). Once an item has its reviews, they agree: that verdict is final; they disagree: the item's status is `disputed` and it has no verdict until an adjudicator decides it (PUT /runs/{id}/items/{itemId}/adjudication, final). Blind review: until you have given your verdict on an item you do not see the other reviewers' verdicts on it (`reviews.others` is null, the history shows only your own changes); the machine suggestion stays visible. Once the item needs no more reviews (agreed, disputed or adjudicated) everyone sees them.";

/** The audit of adopted passes (issue 23; the sampler: server/eval/verdicts/audit-sample.ts). */
export const AUDIT_RULES = `The audit of adopted passes (runs with one reviewer per item): each adoption draws a random sample of the passes it wrote whose suggestion is outside the spot-check rule (no flag): the run's auditRate of them (the set's auditRate when the run was created; default 0.1), rounded up, at least ${AUDIT_MIN_ITEMS}, all of them if fewer; rate 0: no audit. The draw is stored (GET /runs/{id}/audits: population, seed, algorithm ${AUDIT_ALGORITHM}: mulberry32 seeded with the seed drives a partial Fisher-Yates shuffle of the sorted item ids) so anyone can redraw it. Audit items are on the spot-check list with audit: true. The gate is pending (GATE_AUDIT_PENDING) until a person has typed a verdict on every audit item; when people overturn (type fail on) more audit items than the run's maxAuditOverturn (default 0: any), it fails (GATE_AUDIT_OVERTURNED) until people have typed a verdict on every other adopted pass too (the queue's source=adopted&verdict=pass lists them). On runs with several reviewers per item an adopted suggestion is at most one review, so every final verdict includes a person's and adoption draws no audit.`;

/** The evaluation vocabulary, the same for every face (REST GET /api/eval/meta, tRPC eval.meta, the web pages). */
export function evalVocabulary() {
  return {
    attributions: ATTRIBUTIONS,
    guardrailFlags: GUARDRAIL_FLAGS,
    ruleTypes: RULE_TYPES,
    rules: RULES,
    tiers: TIERS.map((tier) => ({ tier, meaning: TIER_MEANINGS[tier] })),
    modes: RUN_MODES,
    setKinds: SET_KINDS,
    runStatuses: RUN_STATUSES,
    itemStatuses: ITEM_STATUSES,
    badCaseStatuses: BAD_CASE_STATUSES,
    leadSignals: LEAD_SIGNALS.map((id) => ({ id, ...LEAD_SIGNAL_WORDS[id] })),
    leadStatuses: LEAD_STATUSES.map((id) => ({ id, ...LEAD_STATUS_WORDS[id] })),
    compareOutcomes: OUTCOMES.map((id) => ({ id, ...OUTCOME_WORDS[id] })),
    gateReasons: Object.entries(GATE_REASONS).map(([code, r]) => ({ code, ...r })),
    lifecycle: RUN_LIFECYCLE,
    limits: EVAL_LIMITS,
  };
}
export type EvalVocabulary = ReturnType<typeof evalVocabulary>;

/** The answer's shape (OpenAPI). */
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
    gateReasons: z
      .array(
        z.object({ code: z.string(), outcome: z.enum(["fail", "pending", "fail or pending"]), meaning: z.string() }),
      )
      .meta({
        description:
          "Every reason code the release gate gives (result.reasons[].code), the outcome it leads to and what it means",
      }),
    lifecycle: z.string(),
    limits: z.record(z.string(), z.number()),
  })
  .meta({ id: "EvalVocabulary" });
