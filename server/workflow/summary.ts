/**
 * The machine-readable node-type summary served at GET /api/builder/node-types (and by the SDK's
 * list_node_types and the MCP tool builder_list_node_types). Pure data, derived from the contract.
 */
import type { z } from "zod";
import { FINDING_CODES, type FindingCodeInfo } from "./codes";
import {
  NODE_TYPES,
  fieldHasTemplates,
  getContract,
  type FieldMeta,
  type NodePorts,
  type NodeType,
  type Widget,
} from "./contract";
import { configJsonSchema } from "./config-schema";
import { WORKFLOW_LIMITS } from "./limits";
import { RECIPE_NAMES } from "./recipes";
import { TEMPLATE_PATTERN_SOURCE } from "./templates";

/** Version of the node-type contract; bumped when a type, key or output changes. */
export const CONTRACT_VERSION = "1.0.0";

type JsonSchema = Record<string, unknown>;

export interface OptionalKeySummary {
  key: string;
  /** JSON type: "string", "number", "integer", "boolean", "object", "array", a union such as "string | object", or "any". */
  type: string;
  title: string;
  description: string;
  widget: Widget;
  /** Whether strings in the value may contain {{node.field}} templates. */
  templates: boolean;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  default?: unknown;
  unit?: string;
}

export interface NodeTypeSummary {
  type: NodeType;
  title: string;
  description: string;
  requiredAnyOf: string[][];
  optional: OptionalKeySummary[];
  /** JSON Schema (draft 2020-12) of the config, any-of requirement included. */
  jsonSchema: JsonSchema;
  /** Fields exposed to templates; empty for start, whose outputs are its declared ones (see outputsNote). */
  outputs: string[];
  outputsNote?: string;
  ports: NodePorts;
  example: Record<string, unknown>;
}

export interface NodeTypesSummary {
  version: string;
  templateSyntax: { pattern: string; description: string; examples: string[] };
  expressionSyntax: { language: string; description: string; examples: string[] };
  nodeTypes: NodeTypeSummary[];
  recipes: string[];
  limits: typeof WORKFLOW_LIMITS;
  findingCodes: Record<string, FindingCodeInfo>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonType(prop: JsonSchema): string {
  if (typeof prop.type === "string") return prop.type;
  if (Array.isArray(prop.anyOf)) {
    const types = prop.anyOf.filter(isRecord).map(jsonType);
    return [...new Set(types)].join(" | ");
  }
  return "any";
}

export { configJsonSchema };

function optionalKeys(type: NodeType, schema: JsonSchema): OptionalKeySummary[] {
  const contract = getContract(type);
  const required = new Set(contract.requiredAnyOf.flat());
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const out: OptionalKeySummary[] = [];
  for (const [key, field] of Object.entries(contract.configSchema.shape as Record<string, z.ZodType>)) {
    if (required.has(key)) continue;
    const meta = field.meta() as FieldMeta | undefined;
    const prop = isRecord(properties[key]) ? properties[key] : {};
    const entry: OptionalKeySummary = {
      key,
      type: jsonType(prop),
      title: meta?.title ?? key,
      description: meta?.description ?? "",
      widget: meta?.["x-widget"] ?? "json",
      templates: fieldHasTemplates(meta),
    };
    if (typeof prop.minimum === "number") entry.minimum = prop.minimum;
    if (typeof prop.maximum === "number") entry.maximum = prop.maximum;
    if (Array.isArray(prop.enum)) entry.enum = prop.enum;
    if (prop.default !== undefined) entry.default = prop.default;
    if (typeof meta?.["x-unit"] === "string") entry.unit = meta["x-unit"];
    out.push(entry);
  }
  return out;
}

function build(): NodeTypesSummary {
  return {
    version: CONTRACT_VERSION,
    templateSyntax: {
      pattern: TEMPLATE_PATTERN_SOURCE,
      description:
        "{{node_id.field}} inserts a field of an upstream node's output; further .segments walk into it (digits index arrays). Spaces inside the braces are allowed; ids, fields and segments use letters, digits, _ and -. The node must be upstream (an ancestor) of the node using the template and the field must be one it outputs. Missing values render as an empty string, objects as JSON. Write \\{{ for a literal {{.",
      examples: ["{{start.query}}", "{{ llm_1.result }}", "{{http_1.result.items.0.name}}"],
    },
    expressionSyntax: {
      language: "CEL",
      description:
        "Condition expressions are CEL (https://cel.dev). Upstream node outputs are maps named by node id. JSON numbers are doubles: comparisons with integers work, arithmetic needs 1.0-style literals.",
      examples: [
        'start.query != "" && http_1.status == 200',
        "size(llm_1.result) > 0",
        'start.query.contains("refund")',
      ],
    },
    nodeTypes: NODE_TYPES.map((type) => {
      const contract = getContract(type);
      const jsonSchema = configJsonSchema(type);
      const summary: NodeTypeSummary = {
        type,
        title: contract.title,
        description: contract.description,
        requiredAnyOf: contract.requiredAnyOf.map((g) => [...g]),
        optional: optionalKeys(type, jsonSchema),
        jsonSchema,
        outputs: contract.staticOutputs ? [...contract.staticOutputs] : [],
        ports: { inputs: [...contract.ports.inputs], outputs: [...contract.ports.outputs] },
        example: structuredClone(contract.example) as Record<string, unknown>,
      };
      if (!contract.staticOutputs) {
        summary.outputsNote = "The names of the declared `outputs` plus the keys of `variables`, e.g. {{start.query}}.";
      }
      return summary;
    }),
    recipes: [...RECIPE_NAMES],
    limits: WORKFLOW_LIMITS,
    findingCodes: FINDING_CODES,
  };
}

let cached: NodeTypesSummary | undefined;

/** The node-type summary; computed once. Treat the result as read-only. */
export function nodeTypesSummary(): NodeTypesSummary {
  cached ??= build();
  return cached;
}
