/**
 * The start node's inputs: mapping a user message onto them, applying defaults, enforcing `required` and the
 * declared types.
 */
import { StartConfigSchema, valueMatchesType, type StartConfig, type Workflow, type WorkflowNode } from "../workflow";
import { RuntimeError } from "./errors";

/** Output names that take the user's message, in order of preference. */
export const MESSAGE_FIELDS = ["query", "message", "question", "input", "text"] as const;

function startNodeOf(workflow: Workflow): WorkflowNode | undefined {
  return workflow.nodes.find((n) => n.type === "start");
}

function startConfig(node: WorkflowNode | undefined): StartConfig {
  const parsed = StartConfigSchema.safeParse(node?.config ?? {});
  return parsed.success ? parsed.data : {};
}

/** The start output that carries the user's message: query|message|question|input|text, else the first string output. */
export function messageField(workflow: Workflow): string | undefined {
  const outputs = (startConfig(startNodeOf(workflow)).outputs ?? []).filter((o) => o.type === "string");
  for (const name of MESSAGE_FIELDS) if (outputs.some((o) => o.name === name)) return name;
  return outputs[0]?.name;
}

/** Maps a user message to the start node's declared outputs (empty when the start declares no string output). */
export function inputFromMessage(workflow: Workflow, message: string): Record<string, unknown> {
  const field = messageField(workflow);
  return field ? { [field]: message } : {};
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * The start node's output values: declared outputs (given value, else default, else null) and constant variables.
 * A required output must end up non-blank (a required string with an empty default must be supplied); every
 * non-null value must match its declared type. Keys not declared are ignored.
 */
/**
 * Run facts a workflow can ask for by declaring a start output of that name (only when the caller did not pass
 * the value): `sessionId`, and `history`, the earlier turns of the conversation (a chat session or a multi-turn
 * evaluation script) as a transcript string ("user: …\nassistant: …") or, declared as an array, the turns.
 * llm nodes already receive the history as messages; this lets other nodes (code, http, condition) use it too.
 */
export type RunFacts = { sessionId?: string; history?: ReadonlyArray<{ role: string; content: string }> };

function runFact(name: string, type: string, facts: RunFacts): unknown {
  if (name === "sessionId") return facts.sessionId;
  if (name === "history" && facts.history) {
    if (type === "array") return facts.history.map((t) => ({ role: t.role, content: t.content }));
    if (type === "string") return facts.history.map((t) => `${t.role}: ${t.content}`).join("\n");
  }
  return undefined;
}

export function resolveStartOutputs(
  config: StartConfig,
  input: Record<string, unknown>,
  facts: RunFacts = {},
): Record<string, unknown> {
  const out: Array<[string, unknown]> = Object.entries(config.variables ?? {});
  const missing: string[] = [];
  for (const decl of config.outputs ?? []) {
    let value = Object.hasOwn(input, decl.name) ? input[decl.name] : undefined;
    if (value === undefined) value = runFact(decl.name, decl.type, facts);
    if (isBlank(value) && decl.default !== undefined && !isBlank(decl.default)) value = decl.default;
    if (value === undefined || value === null) value = decl.default ?? null;
    if (decl.required && isBlank(value)) {
      missing.push(decl.name);
      continue;
    }
    if (value !== null && !valueMatchesType(decl.type, value)) {
      throw new RuntimeError(
        "INPUT_INVALID_TYPE",
        `The input "${decl.name}" must be ${decl.type === "integer" || decl.type === "array" || decl.type === "object" ? "an" : "a"} ${decl.type}, got ${Array.isArray(value) ? "an array" : typeof value}`,
      );
    }
    out.push([decl.name, value]);
  }
  if (missing.length) {
    throw new RuntimeError(
      "INPUT_REQUIRED",
      `Missing required input${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`,
    );
  }
  // fromEntries defines own properties, so a name such as "__proto__" stays a plain key.
  return Object.fromEntries(out);
}
