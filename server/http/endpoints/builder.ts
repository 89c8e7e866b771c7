import { z } from "zod";
import { env } from "../../core/env";
import { defineEndpoint } from "../endpoint";
import {
  AddVersionInput,
  AgentParams,
  AgentVersionParams,
  CreateAgentInput,
  ListAgentsQuery,
  UpdateAgentInput,
  addVersion,
  createAgent,
  deleteAgent,
  getAgent,
  getVersion,
  listAgents,
  listVersions,
  updateAgent,
  PublishInput,
  publishVersion,
} from "../../agents/service";
import { ErrorOut } from "../../core/errors";
import {
  AgentOut,
  ProvisionOut,
  PublishOut,
  ValidationErrorOut,
  ValidationOut,
  VersionMetaOut,
  VersionOut,
} from "../../agents/schemas";
import {
  RECIPES,
  RecipeParams,
  WORKFLOW_LIMITS,
  nodeTypesSummary,
  requireRecipe,
  validateBodyField,
  workflowInvalid,
} from "../../workflow";
import { validateWorkflowWithCode } from "../../runtime/validate-code";

const auth = { auth: "token", tag: "Workflow builder" } as const;

export const builderListNodeTypes = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/node-types",
  operationId: "builderListNodeTypes",
  summary: "The node-type contract",
  description:
    "Machine-readable summary of the 8 node types: required config (any-of groups), optional keys with types and ranges, JSON Schema per type, output fields, ports, example configs, template syntax, recipes, limits and finding codes.",
  permission: "builder.read",
  responses: { 200: { description: "The node-type summary" } },
  handler: async () => ({ status: 200, body: nodeTypesSummary() }),
});

export const builderValidate = defineEndpoint({
  ...auth,
  method: "POST",
  path: "/api/builder/validate",
  operationId: "builderValidate",
  summary: "Validate a workflow without storing it",
  description:
    'Body: `{ "workflow": {nodes, edges} }`. 200 when there is no error (warnings may exist), 400 with the same shape and `valid: false` otherwise. Every finding has a stable `code` and a JSON-pointer `path` into the request body. Code nodes are also compiled (never run) in the Python sandbox: CODE_SYNTAX_ERROR, or the warning CODE_SYNTAX_UNCHECKED when the sandbox is unavailable.',
  permission: "builder.read",
  body: validateBodyField(),
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    200: { description: "Valid (possibly with warnings)", schema: ValidationOut },
    400: { description: "Invalid: findings listed", schema: ValidationErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
  handler: async ({ body }) => {
    const result = await validateWorkflowWithCode(body, { webhookBaseUrl: env().WEBHOOK_BASE_URL });
    if (!result.valid) throw workflowInvalid(result);
    return { status: 200, body: result };
  },
});

export const builderListRecipes = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/recipes",
  operationId: "builderListRecipes",
  summary: "Built-in workflow recipes",
  permission: "builder.read",
  responses: { 200: { description: "Recipes with their workflows" } },
  handler: async () => ({ status: 200, body: { items: Object.values(RECIPES) } }),
});

export const builderGetRecipe = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/recipes/{name}",
  operationId: "builderGetRecipe",
  summary: "One recipe (minimal, http_call_thin)",
  permission: "builder.read",
  params: RecipeParams,
  responses: { 200: { description: "The recipe" }, 404: { description: "No such recipe", schema: ErrorOut } },
  handler: async ({ params }) => ({ status: 200, body: requireRecipe(params.name) }),
});

export const builderCreateAgent = defineEndpoint({
  ...auth,
  method: "POST",
  path: "/api/builder/agents",
  operationId: "builderCreateAgent",
  summary: "Provision a new agent with its first workflow version",
  description:
    "Validates the workflow first; any error answers 400 with the same findings as /api/builder/validate and stores nothing.",
  permission: "builder.write",
  body: CreateAgentInput,
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    201: { description: "Created: agent, version 1 and any warnings", schema: ProvisionOut },
    400: { description: "Invalid workflow or request", schema: ValidationErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
  handler: async ({ db, body, principal }) => ({
    status: 201,
    body: await createAgent(db, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
  }),
});

export const builderListAgents = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/agents",
  operationId: "builderListAgents",
  summary: "List agents (newest first, paginated)",
  permission: "builder.read",
  query: ListAgentsQuery,
  responses: {
    200: {
      description: "A page of agents; latestSummary describes each agent's latest version",
      schema: z.object({
        items: z.array(
          AgentOut.extend({
            latestSummary: z
              .object({ warningCount: z.number().int(), nodeCount: z.number().int(), nodeTypes: z.array(z.string()) })
              .nullable(),
          }),
        ),
        nextCursor: z.string().nullable(),
      }),
    },
  },
  handler: async ({ db, query }) => ({ status: 200, body: await listAgents(db, query) }),
});

export const builderGetAgent = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}",
  operationId: "builderGetAgent",
  summary: "One agent with its latest version's workflow",
  permission: "builder.read",
  params: AgentParams,
  responses: {
    200: { description: "The agent", schema: AgentOut.extend({ latest: VersionOut.nullable() }) },
    404: { description: "Not found", schema: ErrorOut },
  },
  handler: async ({ db, params }) => ({ status: 200, body: await getAgent(db, params.id) }),
});

export const builderUpdateAgent = defineEndpoint({
  ...auth,
  method: "PATCH",
  path: "/api/builder/agents/{id}",
  operationId: "builderUpdateAgent",
  summary: "Rename or re-describe an agent (its versions are immutable)",
  permission: "builder.write",
  params: AgentParams,
  body: UpdateAgentInput,
  responses: {
    200: { description: "The agent", schema: AgentOut },
    404: { description: "Not found", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateAgent(db, params.id, body) }),
});

export const builderDeleteAgent = defineEndpoint({
  ...auth,
  method: "DELETE",
  path: "/api/builder/agents/{id}",
  operationId: "builderDeleteAgent",
  summary: "Delete an agent and all its versions",
  permission: "builder.write",
  params: AgentParams,
  responses: {
    204: { description: "Deleted" },
    404: { description: "Not found", schema: ErrorOut },
    409: {
      description: "AGENT_HAS_FROZEN_SETS: the agent owns evaluation sets with frozen versions; delete them first",
      schema: ErrorOut,
    },
  },
  handler: async ({ db, params }) => {
    await deleteAgent(db, params.id);
    return new Response(null, { status: 204 });
  },
});

export const builderAddVersion = defineEndpoint({
  ...auth,
  method: "POST",
  path: "/api/builder/agents/{id}/versions",
  operationId: "builderAddVersion",
  summary: "Provision the next version of an agent's workflow",
  permission: "builder.write",
  params: AgentParams,
  body: AddVersionInput,
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    201: { description: "Created", schema: ProvisionOut },
    400: { description: "Invalid workflow or request", schema: ValidationErrorOut },
    404: { description: "No such agent", schema: ErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
  handler: async ({ db, params, body, principal }) => ({
    status: 201,
    body: await addVersion(db, params.id, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
  }),
});

export const builderListVersions = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}/versions",
  operationId: "builderListVersions",
  summary: "An agent's versions, newest first",
  permission: "builder.read",
  params: AgentParams,
  responses: {
    200: { description: "Versions", schema: z.object({ items: z.array(VersionMetaOut) }) },
    404: { description: "No such agent", schema: ErrorOut },
  },
  handler: async ({ db, params }) => ({ status: 200, body: { items: await listVersions(db, params.id) } }),
});

export const builderGetVersion = defineEndpoint({
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}/versions/{version}",
  operationId: "builderGetVersion",
  summary: "One version with its workflow",
  permission: "builder.read",
  params: AgentVersionParams,
  responses: {
    200: { description: "The version", schema: VersionOut },
    404: { description: "Not found", schema: ErrorOut },
  },
  handler: async ({ db, params }) => ({ status: 200, body: await getVersion(db, params.id, params.version) }),
});

export const builderPublishAgent = defineEndpoint({
  ...auth,
  method: "POST",
  path: "/api/builder/agents/{id}/publish",
  operationId: "builderPublishAgent",
  summary: "Publish a version for online chat",
  description:
    "Body `{ version }`: POST /api/agents/{id}/chat runs this version from now on. Cached chat answers are per version, so publishing never serves another version's answers.",
  permission: "builder.write",
  params: AgentParams,
  body: PublishInput,
  responses: {
    200: { description: "Published", schema: PublishOut },
    404: { description: "No such agent or version", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await publishVersion(db, params.id, body.version) }),
});
