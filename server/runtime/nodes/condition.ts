import { evaluateCondition, type ConditionConfig } from "../../workflow";
import { RuntimeError } from "../errors";
import type { NodeContext, NodeOutcome } from "./context";

/** condition: evaluates the CEL expression over upstream outputs; outputs `result` (boolean) and `branch`. */
export async function runCondition(ctx: NodeContext<ConditionConfig>): Promise<NodeOutcome> {
  const expression = ctx.config.expression ?? "";
  const evaluated = evaluateCondition(expression, ctx.scope);
  if (!evaluated.ok)
    throw new RuntimeError(
      "CONDITION_EVALUATION_FAILED",
      `The expression ${JSON.stringify(expression)} failed: ${evaluated.error}`,
    );
  const branch = evaluated.value ? "true" : "false";
  return { status: "succeeded", input: { expression }, output: { result: evaluated.value, branch }, branch };
}
