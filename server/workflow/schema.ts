/**
 * Structural zod schemas of a workflow body and of the validation result. They describe the shape for
 * OpenAPI, typed clients and the canvas; the validator itself walks the input by hand so that it can
 * report every problem with a stable code (see validate.ts), and agrees with these schemas.
 */
import { z } from "zod";
import { FINDING_CODE_LIST, type FindingCode } from "./codes";
import { configJsonSchema } from "./config-schema";
import { NODE_TYPES, getContract } from "./contract";
import { WORKFLOW_LIMITS } from "./limits";

export const PositionSchema = z
  .object({
    x: z.number().meta({ description: "Canvas x coordinate (finite number)." }),
    y: z.number().meta({ description: "Canvas y coordinate (finite number)." }),
  })
  .meta({ description: "Canvas coordinates of the node." });

export const NodeSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(WORKFLOW_LIMITS.maxIdLength)
      .meta({ description: "Unique across the workflow. Letters, digits, _ and - keep it usable in templates." }),
    type: z.enum(NODE_TYPES).meta({ description: "The node type; see GET /api/builder/node-types." }),
    config: z
      .record(z.string(), z.unknown())
      .default({})
      .meta({ description: "Keys per node type; see GET /api/builder/node-types. May be omitted for start and end." }),
    position: PositionSchema,
  })
  .meta({ title: "Node" });

/** An edge's `condition` labels which branch of its source condition node it is. */
export const EdgeConditionSchema = z.union([z.enum(["true", "false"]), z.boolean()]).meta({
  description:
    'Only on edges leaving a condition node: which branch the edge is ("true"/"false" or a boolean). Alternative to trueTarget/falseTarget.',
});

export const EdgeSchema = z
  .object({
    id: z
      .string()
      .max(WORKFLOW_LIMITS.maxStringLength)
      .optional()
      .meta({ description: "Optional edge id (for the canvas)." }),
    source: z.string().meta({ description: "Id of the node the edge leaves." }),
    target: z.string().meta({ description: "Id of the node the edge enters." }),
    condition: EdgeConditionSchema.nullish(),
    label: z.string().max(WORKFLOW_LIMITS.maxStringLength).optional().meta({ description: "Optional display label." }),
  })
  .meta({ title: "Edge" });

export const WorkflowSchema = z
  .object({
    nodes: z.array(NodeSchema).max(WORKFLOW_LIMITS.maxNodes),
    edges: z.array(EdgeSchema).max(WORKFLOW_LIMITS.maxEdges),
  })
  .meta({ title: "Workflow", description: "A workflow graph: at least one start and one end node." });

type JsonSchema = Record<string, unknown>;

/**
 * The workflow's JSON Schema (draft 2020-12, input side), for documents: faces parse a workflow field as anything
 * (validation reports every finding with its path and stores nothing, so a malformed workflow must reach it and be
 * answered with findings, never REQUEST_INVALID), but OpenAPI and MCP publish this real shape so generated clients
 * and fuzzers can build a workflow. A node is `oneOf` by `type`: each variant fixes `type` and gives that type's
 * config schema (`configJsonSchema`, the same the node-type summary publishes); `config` is required for the types
 * with required keys (it may be omitted for start and end).
 */
function workflowJsonSchema(): JsonSchema {
  const { $schema: _draft, ...workflow } = z.toJSONSchema(WorkflowSchema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  const properties = workflow.properties as {
    nodes: JsonSchema & { items: JsonSchema & { properties: JsonSchema; required: string[] } };
  };
  const node = properties.nodes.items;
  const variants = NODE_TYPES.map((type) => {
    const contract = getContract(type);
    const { $schema: _d, ...config } = configJsonSchema(type);
    return {
      ...node,
      title: `${contract.title} node (${type})`,
      properties: {
        ...node.properties,
        type: { const: type, description: `The node type ${type}; see GET /api/builder/node-types.` },
        config: { ...config, description: `The ${type} node's config: ${contract.description}` },
      },
      required: contract.requiredAnyOf.length ? [...node.required, "config"] : node.required,
    };
  });
  // at least one start and one end node (else WORKFLOW_NO_START / WORKFLOW_NO_END), so never an empty workflow
  const hasNode = (type: string) => ({
    contains: { type: "object", properties: { type: { const: type } }, required: ["type"] },
  });
  return {
    ...workflow,
    properties: {
      ...properties,
      nodes: {
        ...properties.nodes,
        minItems: 2,
        allOf: [hasNode("start"), hasNode("end")],
        items: { title: "Node", description: "One node; its `type` selects the config schema.", oneOf: variants },
      },
    },
  };
}

export const WORKFLOW_JSON_SCHEMA: JsonSchema = workflowJsonSchema();

/** A workflow field of a request: parsed as anything, documented as the workflow's JSON Schema. */
export const workflowField = (description: string) => z.unknown().meta({ ...WORKFLOW_JSON_SCHEMA, description });

/**
 * The body of POST /api/builder/validate (and the MCP tool's input): parsed as anything, documented as
 * `{ workflow, kind? }`.
 */
export const validateBodyField = () =>
  z.unknown().meta({
    type: "object",
    required: ["workflow"],
    properties: {
      workflow: WORKFLOW_JSON_SCHEMA,
      kind: {
        type: "string",
        enum: ["agent", "judge"],
        default: "agent",
        description:
          "What the workflow is for: agent (default) or judge, whose workflow must also follow the judge contract (start inputs question, expected_points, answer, optional payload, script, scenario; the end outputs the judge answer JSON). An unknown kind is the finding AGENT_KIND_UNKNOWN.",
      },
    },
    description: '{ "workflow": { "nodes": [...], "edges": [...] }, "kind": "agent" | "judge" }',
  });

export const ValidateRequestSchema = z
  .object({ workflow: WorkflowSchema, kind: z.enum(["agent", "judge"]).optional() })
  .meta({ title: "Validate request", description: "Body of POST /api/builder/validate." });

export type Workflow = z.output<typeof WorkflowSchema>;
export type WorkflowInput = z.input<typeof WorkflowSchema>;
export type WorkflowNode = z.output<typeof NodeSchema>;
export type WorkflowEdge = z.output<typeof EdgeSchema>;
export type NodePosition = z.output<typeof PositionSchema>;

export const FindingSchema = z
  .object({
    code: z.enum(FINDING_CODE_LIST as [FindingCode, ...FindingCode[]]).meta({ description: "Stable finding code." }),
    severity: z.enum(["error", "warning"]),
    message: z.string().meta({ description: "A sentence naming the node and field." }),
    path: z.string().meta({ description: "JSON pointer into the request body." }),
    nodeId: z.string().optional().meta({ description: "Id of the node concerned, when there is one." }),
    edgeIndex: z.int().optional().meta({ description: "Index of the edge concerned, when there is one." }),
  })
  .meta({ title: "Finding" });

export const ValidationResultSchema = z
  .object({
    valid: z.boolean().meta({ description: "True when there is no error (warnings may exist)." }),
    errors: z.array(FindingSchema),
    warnings: z.array(FindingSchema),
  })
  .meta({ title: "Validation result" });

export type Finding = z.output<typeof FindingSchema>;
export type ValidationResult = z.output<typeof ValidationResultSchema>;
