/**
 * The node-type contract: the 8 node types, their config schemas (zod, with form hints in `.meta()`),
 * required keys, output fields and ports. Written once; the validator, the node-type summary,
 * JSON Schema / OpenAPI, the canvas forms and the runtime all derive from it.
 *
 * Pure TypeScript: no I/O, runs in the browser too.
 */
import { z } from "zod";
import { WORKFLOW_LIMITS } from "./limits";

export const NODE_TYPES = ["start", "end", "llm", "http", "condition", "code", "memory_load", "memory_save"] as const;
export type NodeType = (typeof NODE_TYPES)[number];

const NODE_TYPE_SET: ReadonlySet<string> = new Set(NODE_TYPES);
export function isNodeType(value: unknown): value is NodeType {
  return typeof value === "string" && NODE_TYPE_SET.has(value);
}

/** Form widgets the canvas knows how to render. */
export const WIDGETS = [
  "text",
  "template", // single-line string that may contain {{node.field}}
  "textarea-template", // multi-line string that may contain {{node.field}}
  "number",
  "select",
  "kv", // string map
  "json",
  "python",
  "cel",
  "start-outputs",
  "node-ref",
] as const;
export type Widget = (typeof WIDGETS)[number];

/** Metadata on every config field; lands in the JSON Schema as-is. */
export interface FieldMeta {
  [key: string]: unknown;
  title: string;
  description: string;
  "x-widget": Widget;
  /**
   * Whether strings inside the value are rendered as templates. Implied by the "template" and
   * "textarea-template" widgets; containers ("kv", "json") opt in explicitly.
   */
  "x-templates"?: boolean;
  /** Unit of a number, e.g. "ms". */
  "x-unit"?: string;
}

/** An identifier: start output and variable names, code input names. */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 7230 header field-name characters.
const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REFERENCE_PATH_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

const MAX = WORKFLOW_LIMITS.maxStringLength;
const text = () => z.string().max(MAX);

/** An optional config field with its form metadata on the outer schema (so `shape[key].meta()` finds it). */
function optional<T extends z.ZodType>(schema: T, meta: FieldMeta) {
  return schema.optional().meta(meta);
}

// ---------------------------------------------------------------------------------------------
// start

export const START_OUTPUT_TYPES = ["string", "number", "integer", "boolean", "object", "array"] as const;
export type StartOutputType = (typeof START_OUTPUT_TYPES)[number];

export const StartOutputSchema = z
  .object({
    name: z.string().regex(IDENTIFIER_PATTERN).max(64).meta({
      description: "Identifier used in templates as {{start.<name>}}.",
    }),
    type: z.enum(START_OUTPUT_TYPES).meta({ description: "JSON type of the input value." }),
    required: z.boolean().default(false).meta({ description: "Whether a run must supply this input." }),
    default: z.unknown().optional().meta({
      description: "Value used when the input is not supplied; must be of the declared type.",
    }),
    description: z.string().max(1000).optional().meta({ description: "Shown to whoever fills in the input." }),
  })
  .meta({ title: "Start output" });
export type StartOutput = z.output<typeof StartOutputSchema>;

/** Whether `value` is a value of a declared start output type. */
export function valueMatchesType(type: StartOutputType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
  }
}

export const StartConfigSchema = z.object({
  outputs: optional(z.array(StartOutputSchema), {
    title: "Inputs",
    description: "Declared inputs of the workflow; each becomes an output field {{start.<name>}}.",
    "x-widget": "start-outputs",
  }),
  variables: optional(z.record(z.string().regex(IDENTIFIER_PATTERN), z.unknown()), {
    title: "Variables",
    description: "Constant values, each exposed as an output field {{start.<name>}}.",
    "x-widget": "json",
  }),
});

// ---------------------------------------------------------------------------------------------
// end

export const EndConfigSchema = z.object({
  output: optional(text(), {
    title: "Output",
    description: "The workflow's answer, usually a template such as {{llm_1.result}}.",
    "x-widget": "textarea-template",
  }),
  payload: optional(z.record(z.string(), z.unknown()), {
    title: "Payload",
    description:
      'Structured data returned beside the answer (e.g. the goods shown in the annotation view): an object whose string values are templates. A value that is exactly one template keeps the referenced value\'s type, e.g. {"goods_list": "{{http_1.result.dishes}}"}.',
    "x-widget": "json",
    "x-templates": true,
  }),
});

// ---------------------------------------------------------------------------------------------
// llm

const promptMeta = (title: string, alias: string): FieldMeta => ({
  title,
  description: `User message sent to the model (template). ${alias}`,
  "x-widget": "textarea-template",
});

export const LlmConfigSchema = z.object({
  userPrompt: optional(
    text(),
    promptMeta("User prompt", "Preferred key; user_prompt and prompt_template are accepted aliases."),
  ),
  user_prompt: optional(
    text(),
    promptMeta("User prompt (alias)", "Alias of userPrompt, used when userPrompt is empty."),
  ),
  prompt_template: optional(
    text(),
    promptMeta("Prompt template (alias)", "Alias of userPrompt, used when userPrompt and user_prompt are empty."),
  ),
  systemPrompt: optional(text(), {
    title: "System prompt",
    description: "Instructions sent as the system message (template).",
    "x-widget": "textarea-template",
  }),
  model: optional(z.string().min(1).max(200), {
    title: "Model",
    description: "Model name; when omitted the server's configured default model is used.",
    "x-widget": "text",
  }),
  temperature: z
    .number()
    .min(0)
    .max(2)
    .default(0.7)
    .meta({
      title: "Temperature",
      description: "Sampling temperature from 0 (deterministic) to 2.",
      "x-widget": "number",
    } satisfies FieldMeta),
  maxTokens: z
    .int()
    .min(1)
    .max(32_768)
    .default(2048)
    .meta({
      title: "Max tokens",
      description: "Upper bound on generated tokens.",
      "x-widget": "number",
      "x-unit": "tokens",
    } satisfies FieldMeta),
});

// ---------------------------------------------------------------------------------------------
// http

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;

export const HttpConfigSchema = z.object({
  url: optional(text(), {
    title: "URL",
    description: "Absolute http(s) URL, or a path starting with / that is joined to WEBHOOK_BASE_URL (template).",
    "x-widget": "template",
  }),
  method: z
    .enum(HTTP_METHODS)
    .default("GET")
    .meta({
      title: "Method",
      description: "HTTP method.",
      "x-widget": "select",
    } satisfies FieldMeta),
  headers: optional(z.record(z.string().regex(HEADER_NAME_PATTERN), text()), {
    title: "Headers",
    description: "Request headers; values are templates.",
    "x-widget": "kv",
    "x-templates": true,
  }),
  params: optional(z.record(z.string().min(1), z.union([text(), z.number(), z.boolean()])), {
    title: "Query parameters",
    description: "Added to the URL's query string; string values are templates.",
    "x-widget": "kv",
    "x-templates": true,
  }),
  body: optional(z.unknown(), {
    title: "Body",
    description:
      "Request body: any JSON value (sent as application/json) or a string (sent as-is). Strings inside are templates; a string that is exactly one template keeps the referenced value's type. Not sent for GET and HEAD.",
    "x-widget": "json",
    "x-templates": true,
  }),
  timeout: z
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .meta({
      title: "Timeout",
      description: "Time limit for the whole request, in milliseconds.",
      "x-widget": "number",
      "x-unit": "ms",
    } satisfies FieldMeta),
});

// ---------------------------------------------------------------------------------------------
// condition

export const ConditionConfigSchema = z.object({
  expression: optional(text(), {
    title: "Expression",
    description:
      'CEL expression over upstream outputs, named by node id, e.g. start.query != "" && http_1.status == 200.',
    "x-widget": "cel",
  }),
  trueTarget: optional(z.string().min(1).max(WORKFLOW_LIMITS.maxIdLength), {
    title: "If true",
    description: "Id of the node to run when the expression is true; must be the target of an outgoing edge.",
    "x-widget": "node-ref",
  }),
  falseTarget: optional(z.string().min(1).max(WORKFLOW_LIMITS.maxIdLength), {
    title: "If false",
    description: "Id of the node to run when the expression is false; must be the target of an outgoing edge.",
    "x-widget": "node-ref",
  }),
});

// ---------------------------------------------------------------------------------------------
// code

export const CodeConfigSchema = z.object({
  code: optional(text(), {
    title: "Python code",
    description: "Sandboxed Python. Reads the dict `inputs` and assigns its output to a variable named `result`.",
    "x-widget": "python",
  }),
  inputs: optional(z.record(z.string().regex(IDENTIFIER_PATTERN), text()), {
    title: "Inputs",
    description:
      "Values passed to the script as the dict `inputs`; each value is a template (a value that is exactly one template keeps its type).",
    "x-widget": "kv",
    "x-templates": true,
  }),
  timeout: z
    .int()
    .min(100)
    .max(30_000)
    .default(5000)
    .meta({
      title: "Timeout",
      description: "Time limit for the script, in milliseconds.",
      "x-widget": "number",
      "x-unit": "ms",
    } satisfies FieldMeta),
});

// ---------------------------------------------------------------------------------------------
// memory

export const MEMORY_TYPES = ["conversation", "user", "kv"] as const;
/** Memory key used when `key` is omitted: per conversation, if the start declares `sessionId`. */
export const DEFAULT_MEMORY_KEY = "{{start.sessionId}}";

const agentIdField = () =>
  optional(z.string().min(1).max(WORKFLOW_LIMITS.maxIdLength), {
    title: "Agent",
    description: "Id of the agent whose memory is used.",
    "x-widget": "text",
  });
const memoryKeyField = () =>
  z
    .string()
    .max(MAX)
    .default(DEFAULT_MEMORY_KEY)
    .meta({
      title: "Key",
      description:
        'Which conversation or user the memory belongs to (template). Defaults to {{start.sessionId}}; declare a sessionId start output to use it. An empty rendered key means the agent-wide key "default".',
      "x-widget": "template",
    } satisfies FieldMeta);
const memoryTypeField = () =>
  z
    .enum(MEMORY_TYPES)
    .default("conversation")
    .meta({
      title: "Memory type",
      description: "conversation: turns of one conversation; user: facts about one user; kv: free key/value data.",
      "x-widget": "select",
    } satisfies FieldMeta);

export const MemoryLoadConfigSchema = z.object({
  agent_id: agentIdField(),
  key: memoryKeyField(),
  memory_type: memoryTypeField(),
  fields: optional(z.array(z.string().min(1).max(200)).max(100), {
    title: "Fields",
    description: "Stored fields to return; all fields when omitted.",
    "x-widget": "json",
  }),
});

export const MemorySaveConfigSchema = z.object({
  agent_id: agentIdField(),
  key: memoryKeyField(),
  memory_type: memoryTypeField(),
  data: optional(z.union([text(), z.record(z.string(), z.unknown())]), {
    title: "Data",
    description:
      "What to store: a template string, or an object whose string values are templates. Takes precedence over extractFrom.",
    "x-widget": "json",
    "x-templates": true,
  }),
  extractFrom: optional(z.string().regex(REFERENCE_PATH_PATTERN).max(1000), {
    title: "Extract from",
    description: "Path into an upstream output to store, e.g. llm_1.result (no braces). Used when data is not set.",
    "x-widget": "text",
  }),
});

// ---------------------------------------------------------------------------------------------
// The contract table

export interface NodePorts {
  inputs: string[];
  outputs: string[];
}

export interface NodeContract<S extends z.ZodObject = z.ZodObject> {
  type: NodeType;
  title: string;
  /** One line, for the palette. */
  description: string;
  /** Each group needs at least one key present and non-empty. */
  requiredAnyOf: string[][];
  /** Every known config key, each optional. Parsing fills in defaults. */
  configSchema: S;
  /** Fields the node exposes to templates and expressions, given its (possibly malformed) config. */
  outputs: (config: unknown) => string[];
  /** The static output list, or null when it depends on the config (start). */
  staticOutputs: string[] | null;
  ports: NodePorts;
  example: z.input<S>;
}

const FLOW_PORTS: NodePorts = { inputs: ["in"], outputs: ["out"] };
const staticOutputs = (fields: string[]) => ({ outputs: () => [...fields], staticOutputs: fields });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Start outputs: declared input names plus variable names. Tolerates malformed configs. */
function startOutputs(config: unknown): string[] {
  const names: string[] = [];
  if (!isRecord(config)) return names;
  if (Array.isArray(config.outputs)) {
    for (const item of config.outputs as unknown[]) {
      if (isRecord(item) && typeof item.name === "string" && item.name !== "") names.push(item.name);
    }
  }
  if (isRecord(config.variables)) names.push(...Object.keys(config.variables));
  return names;
}

export const NODE_CONTRACTS = {
  start: {
    type: "start",
    title: "Start",
    description: "Entry point: declares the workflow's inputs and constants.",
    requiredAnyOf: [],
    configSchema: StartConfigSchema,
    outputs: startOutputs,
    staticOutputs: null,
    ports: { inputs: [], outputs: ["out"] },
    example: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
  },
  end: {
    type: "end",
    title: "End",
    description: "Exit point: renders the workflow's output.",
    requiredAnyOf: [],
    configSchema: EndConfigSchema,
    ...staticOutputs(["output"]),
    ports: { inputs: ["in"], outputs: [] },
    example: { output: "{{llm_1.result}}" },
  },
  llm: {
    type: "llm",
    title: "LLM",
    description: "Calls a language model with a system and a user prompt.",
    requiredAnyOf: [["userPrompt", "user_prompt", "prompt_template"]],
    configSchema: LlmConfigSchema,
    ...staticOutputs(["result", "usage", "model"]),
    ports: FLOW_PORTS,
    example: {
      systemPrompt: "You are a concise assistant.",
      userPrompt: "{{start.query}}",
      temperature: 0.2,
      maxTokens: 512,
    },
  },
  http: {
    type: "http",
    title: "HTTP request",
    description: "Calls an HTTP API; a relative url is joined to WEBHOOK_BASE_URL.",
    requiredAnyOf: [["url"]],
    configSchema: HttpConfigSchema,
    ...staticOutputs(["result", "status", "headers", "ok"]),
    ports: FLOW_PORTS,
    example: { url: "/health", method: "GET", timeout: 10_000 },
  },
  condition: {
    type: "condition",
    title: "Condition",
    description: "Branches on a CEL expression over upstream outputs.",
    requiredAnyOf: [["expression"]],
    configSchema: ConditionConfigSchema,
    ...staticOutputs(["result", "branch"]),
    ports: { inputs: ["in"], outputs: ["true", "false"] },
    example: { expression: "http_1.status == 200", trueTarget: "llm_1", falseTarget: "end" },
  },
  code: {
    type: "code",
    title: "Python code",
    description: "Runs sandboxed Python that assigns its output to `result`.",
    requiredAnyOf: [["code"]],
    configSchema: CodeConfigSchema,
    ...staticOutputs(["result", "stdout"]),
    ports: FLOW_PORTS,
    example: { code: "result = inputs['text'].strip().upper()", inputs: { text: "{{start.query}}" }, timeout: 5000 },
  },
  memory_load: {
    type: "memory_load",
    title: "Load memory",
    description: "Reads an agent's stored memory for a conversation or user.",
    requiredAnyOf: [["agent_id"]],
    configSchema: MemoryLoadConfigSchema,
    ...staticOutputs(["result", "found"]),
    ports: FLOW_PORTS,
    example: { agent_id: "support-bot", key: "{{start.sessionId}}", memory_type: "conversation" },
  },
  memory_save: {
    type: "memory_save",
    title: "Save memory",
    description: "Writes data into an agent's memory for a conversation or user.",
    requiredAnyOf: [["agent_id"]],
    configSchema: MemorySaveConfigSchema,
    ...staticOutputs(["result", "saved"]),
    ports: FLOW_PORTS,
    example: {
      agent_id: "support-bot",
      key: "{{start.sessionId}}",
      memory_type: "conversation",
      data: { question: "{{start.query}}", answer: "{{llm_1.result}}" },
    },
  },
} satisfies { [T in NodeType]: NodeContract & { type: T } };

export type NodeContracts = typeof NODE_CONTRACTS;
export type NodeConfigInput<T extends NodeType> = z.input<NodeContracts[T]["configSchema"]>;
/** A config after parsing: defaults filled in. What the runtime works with. */
export type NodeConfig<T extends NodeType> = z.output<NodeContracts[T]["configSchema"]>;
export type StartConfig = NodeConfig<"start">;
export type EndConfig = NodeConfig<"end">;
export type LlmConfig = NodeConfig<"llm">;
export type HttpConfig = NodeConfig<"http">;
export type ConditionConfig = NodeConfig<"condition">;
export type CodeConfig = NodeConfig<"code">;
export type MemoryLoadConfig = NodeConfig<"memory_load">;
export type MemorySaveConfig = NodeConfig<"memory_save">;

/** The contract of one type, widened to the common interface. */
export function getContract(type: NodeType): NodeContract {
  return NODE_CONTRACTS[type] as NodeContract;
}

/** Known config keys of a node type. */
export function configKeys(type: NodeType): string[] {
  return Object.keys(getContract(type).configSchema.shape);
}

/** The form metadata of one config field. */
export function configFieldMeta(type: NodeType, key: string): FieldMeta | undefined {
  const shape: Record<string, z.ZodType> = getContract(type).configSchema.shape;
  if (!Object.hasOwn(shape, key)) return undefined;
  return shape[key]?.meta() as FieldMeta | undefined;
}

/** Whether a field's strings are rendered as templates, from its widget metadata. */
export function fieldHasTemplates(meta: FieldMeta | undefined): boolean {
  if (!meta) return false;
  return meta["x-templates"] ?? (meta["x-widget"] === "template" || meta["x-widget"] === "textarea-template");
}

/** Config keys whose values may contain {{templates}}, per node type (derived from the widget metadata). */
export const TEMPLATE_FIELDS: Readonly<Record<NodeType, readonly string[]>> = Object.fromEntries(
  NODE_TYPES.map((type) => [type, configKeys(type).filter((key) => fieldHasTemplates(configFieldMeta(type, key)))]),
) as unknown as Record<NodeType, readonly string[]>;

/** Whether a required-group value counts as present: strings need a non-whitespace character. */
export function isNonEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/** The required groups of a type that `config` does not satisfy. */
export function missingRequiredGroups(type: NodeType, config: unknown): string[][] {
  const cfg = isRecord(config) ? config : {};
  return getContract(type).requiredAnyOf.filter(
    (group) => !group.some((key) => Object.hasOwn(cfg, key) && isNonEmpty(cfg[key])),
  );
}

/** The llm user prompt the runtime should use: the first non-empty of userPrompt, user_prompt, prompt_template. */
export function llmUserPrompt(config: Pick<LlmConfig, "userPrompt" | "user_prompt" | "prompt_template">): string {
  for (const value of [config.userPrompt, config.user_prompt, config.prompt_template]) {
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return "";
}
