import { defineEndpoint } from "../../endpoint";
import { evalVocabulary } from "../../../eval";
import { EvalVocabularyOut } from "../../../eval/vocabulary";
import { base } from "./shared";

/** The evaluation vocabulary over REST; the same function answers tRPC `eval.meta`. */
export const evalMeta = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/meta",
  operationId: "evalMeta",
  summary:
    "The evaluation vocabulary: attributions, guardrail flags, rule types, tiers with their meaning, states, limits",
  permission: "eval.read",
  responses: { 200: { description: "Vocabulary", schema: EvalVocabularyOut } },
  handler: async () => ({ status: 200, body: evalVocabulary() }),
});
