/**
 * The builder's agent and version operations (server/auth/operation.ts), declared once and served by REST
 * (server/http/endpoints/builder.ts) and tRPC (`builder.agents.*`, `builder.versions.*`). Not declared here, on
 * purpose: node types, recipes and validate (their REST and tRPC answers differ: validate throws over REST and
 * returns findings over tRPC, node types and recipes have no output schema yet) and the version list (`{ items }` over
 * REST, an array over tRPC); server/api/routers/builder.ts keeps those.
 */
import { defineOperation } from "../auth/operation";
import { env } from "../core/env";
import {
  AgentDeletedOut,
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
  publishVersion,
  updateAgent,
} from "./service";

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
  builderCreateAgent,
  builderListAgents,
  builderGetAgent,
  builderUpdateAgent,
  builderDeleteAgent,
  builderPublishAgent,
  builderAddVersion,
  builderGetVersion,
] as const;
