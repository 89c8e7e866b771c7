/**
 * Suggestions' inputs and outputs: rule assertions (the rule vocabulary), guardrail flags, the stored suggestion.
 * Pure: no I/O.
 */
import { z } from "zod";
import { VersionNumber } from "../../core/params";
import { EVAL_LIMITS as L } from "../limits";

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

// ---------------------------------------------------------------- judges

export const JUDGE_TYPES = ["builtin", "llm", "agent"] as const;

/**
 * A set's judge (PATCH /api/eval/sets/{id}, `judge`), and the judge of a re-judging (POST /api/eval/runs/{id}/suggest).
 * An agent judge is pinned to a version: "latest" or no version is refused (400 REQUEST_INVALID).
 */
export const JudgeSpec = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("builtin") }).meta({ description: "The built-in point-coverage judge (lexical)" }),
    z
      .object({ type: z.literal("llm") })
      .meta({ description: "The LLM judge with its fixed rubric, on the runtime's model provider" }),
    z
      .object({
        type: z.literal("agent"),
        agentId: z.string().min(1).max(64).meta({ description: "An agent of kind judge" }),
        version: VersionNumber.meta({ description: 'The judge agent\'s version, pinned (a number; not "latest")' }),
      })
      .meta({ description: "A judge agent's version (kind judge; its workflow follows the judge contract)" }),
  ])
  .meta({ id: "EvalJudge", description: "Which judge makes the machine suggestions" });
export type JudgeSpecT = z.output<typeof JudgeSpec>;

/** The judge a suggestion records (and a run reports): what made it, and a label for people. */
export const JudgeRefOut = z
  .object({
    type: z.enum(JUDGE_TYPES),
    key: z.string().meta({ description: "builtin, llm or agent:<agentId>@<version>: the key of otherSuggestions" }),
    agentId: z.string().optional(),
    version: z.number().int().optional(),
    model: z.string().optional().meta({ description: "The model that answered (llm and agent judges that call one)" }),
    label: z.string().meta({ description: 'For people, e.g. "built-in point coverage" or "Strict judge v3"' }),
  })
  .meta({ id: "EvalJudgeRef" });
export type JudgeRef = z.output<typeof JudgeRefOut>;

export const SuggestionOut = z
  .object({
    verdict: z.enum(["pass", "fail", "unknown"]),
    judge: z.string().meta({ description: "builtin-coverage, llm:<provider> or agent:<agentId>@<version>" }),
    judgedBy: JudgeRefOut.optional().meta({
      description: "The judge that made the suggestion (absent on suggestions stored before judges were recorded)",
    }),
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
