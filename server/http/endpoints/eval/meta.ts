import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base } from "./shared";

/** The evaluation vocabulary over REST; the same function answers tRPC `eval.meta`. */
export const evalMeta = rest(op.evalMeta, {
  ...base,
  method: "GET",
  path: "/api/eval/meta",
  summary:
    "The evaluation vocabulary: attributions, guardrail flags, rule types, tiers with their meaning, states, limits",
  responses: { 200: "Vocabulary" },
});
