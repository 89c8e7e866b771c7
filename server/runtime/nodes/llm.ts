import { llmUserPrompt, renderTemplate, type LlmConfig } from "../../workflow";
import { LlmError } from "../../llm/errors";
import type { ChatTurn } from "../types";
import { RuntimeError } from "../errors";
import type { NodeContext, NodeOutcome } from "./context";

/**
 * llm: system prompt (if any), the run's earlier turns, then the rendered user prompt. Outputs `result` (the
 * text), `usage` ({prompt_tokens, completion_tokens, total_tokens}) and `model`.
 */
export async function runLlm(ctx: NodeContext<LlmConfig>): Promise<NodeOutcome> {
  const { config, scope, deps } = ctx;
  const system = config.systemPrompt ? renderTemplate(config.systemPrompt, scope) : "";
  const user = renderTemplate(llmUserPrompt(config), scope);
  const messages: ChatTurn[] = [];
  if (system.trim()) messages.push({ role: "system", content: system });
  messages.push(...ctx.history, { role: "user", content: user });
  const input = {
    model: config.model ?? null,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    systemPrompt: system,
    userPrompt: user,
    historyMessages: ctx.history.length,
  };
  ctx.noteInput(input);
  try {
    const res = await deps.llm.chat({
      messages,
      model: config.model,
      temperature: config.temperature,
      maxTokens: config.maxTokens,
      signal: ctx.signal,
      // a node runs at most once per execution, so the execution's scope and the node id name this call
      ...(ctx.idempotencyScope !== undefined ? { idempotencyScope: `${ctx.idempotencyScope}:${ctx.node.id}` } : {}),
    });
    const usage = res.usage;
    return {
      status: "succeeded",
      input: { ...input, model: res.model },
      output: {
        result: res.text,
        usage: {
          prompt_tokens: usage.promptTokens,
          completion_tokens: usage.completionTokens,
          total_tokens: usage.promptTokens + usage.completionTokens,
        },
        model: res.model,
      },
      usage,
      provider: deps.llm.name,
    };
  } catch (e) {
    if (e instanceof LlmError) throw new RuntimeError(e.code, e.message, { cause: e });
    throw e;
  }
}
