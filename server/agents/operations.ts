/**
 * The builder's operations (server/auth/operation.ts), declared once and served by REST
 * (server/http/endpoints/builder.ts) and tRPC (`builder.*`): the node-type contract, recipes, validation, agents and
 * versions. Validation answers its findings on both faces; REST refuses an invalid workflow with 400 WORKFLOW_INVALID
 * and the same findings (its `refuse`), tRPC returns them for the canvas to show in place.
 */
import { defineOperation } from "../auth/operation";
import { env } from "../core/env";
import { validateWorkflowWithCode } from "../runtime/validate-code";
import { RECIPES, RecipeParams, nodeTypesSummary, requireRecipe, validateBodyField } from "../workflow";
import {
  AgentDeletedOut,
  NodeTypesOut,
  RecipeListOut,
  RecipeOut,
  ValidationOut,
  VersionListOut,
  AgentDetailOut,
  AgentListOut,
  AgentOut,
  ProvisionOut,
  PublishOut,
  VersionOut,
} from "./schemas";
import {
  AddVersionInput,
  AgentParams,
  AgentVersionParams,
  CreateAgentInput,
  ListAgentsQuery,
  PublishInput,
  UpdateAgentInput,
  addVersion,
  createAgent,
  deleteAgent,
  getAgent,
  getVersion,
  listAgents,
  listVersions,
  publishVersion,
  updateAgent,
} from "./service";

export const builderListNodeTypes = defineOperation({
  id: "builderListNodeTypes",
  trpc: "builder.nodeTypes",
  kind: "query",
  permission: "builder.read",
  output: NodeTypesOut,
  run: async () => nodeTypesSummary(),
});

export const builderValidate = defineOperation({
  id: "builderValidate",
  trpc: "builder.validate",
  kind: "mutation",
  permission: "builder.read",
  body: validateBodyField(),
  output: ValidationOut,
  run: ({ body }) => validateWorkflowWithCode(body, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});

export const builderListRecipes = defineOperation({
  id: "builderListRecipes",
  trpc: "builder.recipes",
  kind: "query",
  permission: "builder.read",
  output: RecipeListOut,
  run: async () => ({ items: Object.values(RECIPES) }),
});

export const builderGetRecipe = defineOperation({
  id: "builderGetRecipe",
  trpc: "builder.recipe",
  kind: "query",
  permission: "builder.read",
  params: RecipeParams,
  output: RecipeOut,
  run: async ({ params }) => requireRecipe(params.name),
});

export const builderCreateAgent = defineOperation({
  id: "builderCreateAgent",
  trpc: "builder.agents.create",
  kind: "mutation",
  permission: "builder.write",
  body: CreateAgentInput,
  output: ProvisionOut,
  run: ({ db, body, principal }) => createAgent(db, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});

export const builderListAgents = defineOperation({
  id: "builderListAgents",
  trpc: "builder.agents.list",
  kind: "query",
  permission: "builder.read",
  query: ListAgentsQuery,
  output: AgentListOut,
  run: ({ db, query }) => listAgents(db, query),
});

export const builderGetAgent = defineOperation({
  id: "builderGetAgent",
  trpc: "builder.agents.get",
  kind: "query",
  permission: "builder.read",
  params: AgentParams,
  output: AgentDetailOut,
  run: ({ db, params }) => getAgent(db, params.id),
});

export const builderUpdateAgent = defineOperation({
  id: "builderUpdateAgent",
  trpc: "builder.agents.update",
  kind: "mutation",
  permission: "builder.write",
  params: AgentParams,
  body: UpdateAgentInput,
  output: AgentOut,
  run: ({ db, params, body }) => updateAgent(db, params.id, body),
});

export const builderDeleteAgent = defineOperation({
  id: "builderDeleteAgent",
  trpc: "builder.agents.delete",
  kind: "mutation",
  permission: "builder.write",
  params: AgentParams,
  output: AgentDeletedOut,
  run: async ({ db, params }) => {
    await deleteAgent(db, params.id);
    return { deleted: true as const };
  },
});

export const builderPublishAgent = defineOperation({
  id: "builderPublishAgent",
  trpc: "builder.agents.publish",
  kind: "mutation",
  permission: "builder.write",
  params: AgentParams,
  body: PublishInput,
  output: PublishOut,
  run: ({ db, params, body }) => publishVersion(db, params.id, body.version),
});

export const builderAddVersion = defineOperation({
  id: "builderAddVersion",
  trpc: "builder.versions.create",
  kind: "mutation",
  permission: "builder.write",
  params: AgentParams,
  body: AddVersionInput,
  output: ProvisionOut,
  run: ({ db, params, body, principal }) =>
    addVersion(db, params.id, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});

export const builderListVersions = defineOperation({
  id: "builderListVersions",
  trpc: "builder.versions.list",
  kind: "query",
  permission: "builder.read",
  params: AgentParams,
  output: VersionListOut,
  run: async ({ db, params }) => ({ items: await listVersions(db, params.id) }),
});

export const builderGetVersion = defineOperation({
  id: "builderGetVersion",
  trpc: "builder.versions.get",
  kind: "query",
  permission: "builder.read",
  params: AgentVersionParams,
  output: VersionOut,
  run: ({ db, params }) => getVersion(db, params.id, params.version),
});

/** Every declared builder operation, for the faces. */
export const BUILDER_OPERATIONS = [
  builderListNodeTypes,
  builderValidate,
  builderListRecipes,
  builderGetRecipe,
  builderCreateAgent,
  builderListAgents,
  builderGetAgent,
  builderUpdateAgent,
  builderDeleteAgent,
  builderPublishAgent,
  builderAddVersion,
  builderListVersions,
  builderGetVersion,
] as const;
