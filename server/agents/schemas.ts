import { z } from "zod";
import { ErrorOut } from "../core/errors";
import { AGENT_KINDS, NODE_TYPES, WIDGETS } from "../workflow";

/** Response shapes of the agents API (for OpenAPI and typed clients). */
export const FindingOut = z
  .object({
    code: z.string(),
    severity: z.enum(["error", "warning"]),
    message: z.string(),
    path: z.string().meta({ description: "JSON pointer into the request body" }),
    nodeId: z.string().optional(),
    edgeIndex: z.number().int().optional(),
  })
  .meta({ id: "Finding" });

export const AgentOut = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.enum(AGENT_KINDS).meta({
      description:
        "agent: answers users; judge: judges answers for evaluation sets (its workflow follows the judge contract)",
    }),
    latestVersion: z.number().int(),
    publishedVersion: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The version online chat runs (null until one is published)" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    createdById: z.string().nullable(),
  })
  .meta({ id: "Agent" });

export const VersionMetaOut = z
  .object({
    id: z.string(),
    agentId: z.string(),
    version: z.number().int(),
    note: z.string(),
    warnings: z.array(FindingOut),
    createdAt: z.iso.datetime(),
    createdById: z.string().nullable(),
  })
  .meta({ id: "WorkflowVersionMeta" });

export const WorkflowOut = z
  .object({ nodes: z.array(z.record(z.string(), z.unknown())), edges: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: "Workflow", description: "A workflow graph: see GET /api/builder/node-types for node configs" });

export const VersionListOut = z.object({ items: z.array(VersionMetaOut) }).meta({ id: "WorkflowVersionList" });

export const VersionOut = VersionMetaOut.extend({ workflow: WorkflowOut }).meta({ id: "WorkflowVersion" });

export const ProvisionOut = z
  .object({ agent: AgentOut, version: VersionMetaOut, warnings: z.array(FindingOut) })
  .meta({ id: "ProvisionResult" });

export const ValidationOut = z
  .object({ valid: z.boolean(), errors: z.array(FindingOut), warnings: z.array(FindingOut) })
  .meta({ id: "ValidationResult" });

export const ValidationErrorOut = ValidationOut.extend({
  error: ErrorOut.shape.error.extend({ code: z.literal("WORKFLOW_INVALID"), details: z.array(FindingOut) }),
}).meta({
  id: "ValidationError",
  description: "valid:false with the findings, plus the common error object (code WORKFLOW_INVALID)",
});

export const PublishOut = z.object({ agent: AgentOut, workflowVersionId: z.string() }).meta({ id: "PublishResult" });

/** One agent with its latest version's workflow (`GET /api/builder/agents/{id}`). */
export const AgentDetailOut = AgentOut.extend({ latest: VersionOut.nullable() });

/** A page of agents; `latestSummary` describes each agent's latest version. */
export const AgentListOut = z.object({
  items: z.array(
    AgentOut.extend({
      latestSummary: z
        .object({ warningCount: z.number().int(), nodeCount: z.number().int(), nodeTypes: z.array(z.string()) })
        .nullable(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** What deleting answers over tRPC (REST answers 204). */
export const AgentDeletedOut = z.object({ deleted: z.literal(true) });

/** One built-in workflow recipe (GET /api/builder/recipes/{name}). */
export const RecipeOut = z
  .object({
    name: z.string(),
    title: z.string(),
    description: z.string(),
    kind: z.enum(AGENT_KINDS).meta({ description: "The kind of agent the recipe starts (create it with this kind)" }),
    workflow: WorkflowOut,
  })
  .meta({ id: "Recipe" });

export const RecipeListOut = z.object({ items: z.array(RecipeOut) }).meta({ id: "RecipeList" });

const SyntaxOut = z.object({ description: z.string(), examples: z.array(z.string()) });
const JsonSchemaOut = z.record(z.string(), z.unknown()).meta({ description: "A JSON Schema (draft 2020-12)" });

/** The node-type contract (GET /api/builder/node-types): server/workflow/summary.ts builds it. */
export const NodeTypesOut = z
  .object({
    version: z.string().meta({ description: "The contract's version; bumped when a type, key or output changes" }),
    templateSyntax: SyntaxOut.extend({ pattern: z.string() }),
    expressionSyntax: SyntaxOut.extend({ language: z.string() }),
    nodeTypes: z.array(
      z.object({
        type: z.enum(NODE_TYPES),
        title: z.string(),
        description: z.string(),
        requiredAnyOf: z.array(z.array(z.string())).meta({ description: "Any one group of keys is required" }),
        optional: z.array(
          z.object({
            key: z.string(),
            type: z.string().meta({ description: "JSON type, a union such as `string | object`, or `any`" }),
            title: z.string(),
            description: z.string(),
            widget: z.enum(WIDGETS),
            templates: z.boolean().meta({ description: "Whether strings may hold {{node.field}} templates" }),
            minimum: z.number().optional(),
            maximum: z.number().optional(),
            enum: z.array(z.unknown()).optional(),
            default: z.unknown().optional(),
            unit: z.string().optional(),
          }),
        ),
        jsonSchema: JsonSchemaOut,
        outputs: z.array(z.string()),
        outputsNote: z.string().optional(),
        ports: z.object({ inputs: z.array(z.string()), outputs: z.array(z.string()) }),
        example: z.record(z.string(), z.unknown()),
      }),
    ),
    recipes: z.array(z.string()),
    limits: z.record(z.string(), z.number()),
    findingCodes: z.record(z.string(), z.object({ severity: z.enum(["error", "warning"]), description: z.string() })),
  })
  .meta({ id: "NodeTypes" });
