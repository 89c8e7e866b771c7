import { z } from "zod";
import { env } from "../../core/env";
import { defineEndpoint } from "../endpoint";
import { AgentParams, listVersions } from "../../agents/service";
import * as op from "../../agents/operations";
import { rest } from "../rest";
import { ErrorOut } from "../../core/errors";
import { ValidationErrorOut, VersionMetaOut } from "../../agents/schemas";
import { WORKFLOW_LIMITS, workflowInvalid } from "../../workflow";

const auth = { auth: "token", tag: "Workflow builder" } as const;

export const builderListNodeTypes = rest(op.builderListNodeTypes, {
  ...auth,
  method: "GET",
  path: "/api/builder/node-types",
  summary: "The node-type contract",
  description:
    "Machine-readable summary of the 8 node types: required config (any-of groups), optional keys with types and ranges, JSON Schema per type, output fields, ports, example configs, template syntax, recipes, limits and finding codes.",
  responses: { 200: "The node-type summary" },
});

export const builderValidate = rest(op.builderValidate, {
  ...auth,
  method: "POST",
  path: "/api/builder/validate",
  summary: "Validate a workflow without storing it",
  description:
    'Body: `{ "workflow": {nodes, edges} }`. 200 when there is no error (warnings may exist), 400 with the same shape and `valid: false` otherwise. Every finding has a stable `code` and a JSON-pointer `path` into the request body. Code nodes are also compiled (never run) in the Python sandbox: CODE_SYNTAX_ERROR, or the warning CODE_SYNTAX_UNCHECKED when the sandbox is unavailable.',
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    200: "Valid (possibly with warnings)",
    400: { description: "Invalid: findings listed", schema: ValidationErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
  refuse: (result) => (result.valid ? undefined : workflowInvalid(result)),
});

export const builderListRecipes = rest(op.builderListRecipes, {
  ...auth,
  method: "GET",
  path: "/api/builder/recipes",
  summary: "Built-in workflow recipes",
  responses: { 200: "Recipes with their workflows" },
});

export const builderGetRecipe = rest(op.builderGetRecipe, {
  ...auth,
  method: "GET",
  path: "/api/builder/recipes/{name}",
  summary: "One recipe (minimal, http_call_thin)",
  responses: { 200: "The recipe", 404: { description: "No such recipe", schema: ErrorOut } },
});

const noContent = () => new Response(null, { status: 204 });

export const builderCreateAgent = rest(op.builderCreateAgent, {
  ...auth,
  method: "POST",
  path: "/api/builder/agents",
  summary: "Provision a new agent with its first workflow version",
  description:
    "Validates the workflow first; any error answers 400 with the same findings as /api/builder/validate and stores nothing.",
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    201: "Created: agent, version 1 and any warnings",
    400: { description: "Invalid workflow or request", schema: ValidationErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
});

export const builderListAgents = rest(op.builderListAgents, {
  ...auth,
  method: "GET",
  path: "/api/builder/agents",
  summary: "List agents (newest first, paginated)",
  responses: { 200: "A page of agents; latestSummary describes each agent's latest version" },
});

export const builderGetAgent = rest(op.builderGetAgent, {
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}",
  summary: "One agent with its latest version's workflow",
  responses: { 200: "The agent", 404: { description: "Not found", schema: ErrorOut } },
});

export const builderUpdateAgent = rest(op.builderUpdateAgent, {
  ...auth,
  method: "PATCH",
  path: "/api/builder/agents/{id}",
  summary: "Rename or re-describe an agent (its versions are immutable)",
  responses: { 200: "The agent", 404: { description: "Not found", schema: ErrorOut } },
});

export const builderDeleteAgent = rest(op.builderDeleteAgent, {
  ...auth,
  method: "DELETE",
  path: "/api/builder/agents/{id}",
  summary: "Delete an agent and all its versions",
  responses: {
    204: { description: "Deleted" },
    404: { description: "Not found", schema: ErrorOut },
    409: {
      description:
        "AGENT_HAS_FROZEN_SETS: the agent owns evaluation sets with frozen versions; delete them first. JUDGE_IN_USE: the agent is the judge of evaluation sets (named in details); choose another judge for them first",
      schema: ErrorOut,
    },
  },
  respond: noContent,
});

export const builderAddVersion = rest(op.builderAddVersion, {
  ...auth,
  method: "POST",
  path: "/api/builder/agents/{id}/versions",
  summary: "Provision the next version of an agent's workflow",
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    201: "Created",
    400: { description: "Invalid workflow or request", schema: ValidationErrorOut },
    404: { description: "No such agent", schema: ErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
});

export const builderListVersions = rest(op.builderListVersions, {
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}/versions",
  summary: "An agent's versions, newest first",
  responses: { 200: "Versions", 404: { description: "No such agent", schema: ErrorOut } },
});

export const builderGetVersion = rest(op.builderGetVersion, {
  ...auth,
  method: "GET",
  path: "/api/builder/agents/{id}/versions/{version}",
  summary: "One version with its workflow",
  responses: { 200: "The version", 404: { description: "Not found", schema: ErrorOut } },
});

export const builderPublishAgent = rest(op.builderPublishAgent, {
  ...auth,
  method: "POST",
  path: "/api/builder/agents/{id}/publish",
  summary: "Publish a version for online chat",
  description:
    "Body `{ version }`: POST /api/agents/{id}/chat runs this version from now on. Cached chat answers are per version, so publishing never serves another version's answers.",
  responses: { 200: "Published", 404: { description: "No such agent or version", schema: ErrorOut } },
});
