import { renderTemplateValue, type CodeConfig } from "../../workflow";
import { RuntimeError, errorMessage } from "../errors";
import type { NodeContext, NodeOutcome, Scope } from "./context";

function plainScope(scope: Scope): Record<string, unknown> {
  return Object.fromEntries(Object.entries(scope));
}

/**
 * code: runs the Python in the sandbox with `inputs` = the rendered `inputs` config (a value that is exactly one
 * template keeps its type) or, when the config has none, every upstream output by node id. Outputs `result`
 * (what the script assigned to `result`) and `stdout`. Sandbox errors fail the node with the sandbox's code
 * (TIMEOUT, MEMORY, PYTHON_ERROR, SYNTAX_ERROR, RESULT_NOT_JSON, ...).
 */
export async function runCode(ctx: NodeContext<CodeConfig>): Promise<NodeOutcome> {
  const { config, scope } = ctx;
  const inputs = config.inputs
    ? Object.fromEntries(Object.entries(config.inputs).map(([k, v]) => [k, renderTemplateValue(v, scope)]))
    : plainScope(scope);
  const input = { inputs, timeout: config.timeout };
  ctx.noteInput(input);
  let sandbox: Awaited<ReturnType<typeof ctx.deps.sandbox>>;
  try {
    sandbox = await ctx.deps.sandbox();
  } catch (e) {
    throw new RuntimeError("SANDBOX_UNAVAILABLE", `The Python sandbox is not available: ${errorMessage(e)}`, {
      cause: e,
    });
  }
  try {
    const res = await sandbox.run({ code: config.code ?? "", inputs, timeoutMs: config.timeout, signal: ctx.signal });
    return { status: "succeeded", input, output: { result: res.result, stdout: res.stdout } };
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const code =
      typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : "SANDBOX_UNAVAILABLE";
    throw new RuntimeError(code, errorMessage(e), { cause: e });
  }
}
