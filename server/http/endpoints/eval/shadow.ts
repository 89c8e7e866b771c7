import { z } from "zod";
import { env } from "../../../core/env";
import { defineEndpoint } from "../../endpoint";
import {
  DisagreementsQuery,
  getShadowConfig,
  listDisagreements,
  publishShadowCandidate,
  putShadowConfig,
  replayShadow,
  ReplayInput,
  shadowReport,
  ShadowConfigInput,
  ShadowParams,
  ShadowReportQuery,
} from "../../../eval";
import {
  ReplayOut,
  ShadowConfigOut,
  ShadowConfigPutOut,
  ShadowDisagreementsOut,
  ShadowPublishOut,
  ShadowReportOut,
} from "../../../eval/shadow/schemas";
import { ValidationErrorOut } from "../../../agents/schemas";
import { ErrorOut } from "../../../core/errors";
import { base, notFound, conflict, invalid } from "./shared";

/** 400: the draft candidate's findings (WORKFLOW_INVALID, as /api/builder/validate answers them) or the one error shape. */
const invalidCandidate = (description: string) => ({
  400: { description, schema: z.union([ValidationErrorOut, ErrorOut]) },
});

/** The intent shadow over REST (/api/eval/shadow/{agentId}); handlers only call server/eval. */
const SHADOW =
  "Intent shadow: a candidate intent classifier computed beside online traffic at tier pipeline, never changing the user's answer (see server/eval/README.md).";

export const evalGetShadow = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}",
  operationId: "evalGetShadow",
  summary: "The agent's intent-shadow configuration (config null when none)",
  description: SHADOW,
  permission: "eval.read",
  params: ShadowParams,
  responses: { 200: { description: "The configuration", schema: ShadowConfigOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getShadowConfig(db, params.agentId) }),
});

export const evalPutShadow = defineEndpoint({
  ...base,
  method: "PUT",
  path: "/api/eval/shadow/{agentId}",
  operationId: "evalPutShadow",
  summary: "Set the intent shadow: candidate, intent references, sample rate, on/off",
  description: `${SHADOW} candidateVersion or candidateWorkflow (a draft wins when both are given); a draft is validated like any provisioned workflow, Python syntax of code nodes included (400 WORKFLOW_INVALID with the findings; warnings come back with the saved configuration). Results are reported per candidate: after the candidate or an intent reference changes, the report starts empty (replay fills it).`,
  permission: "eval.manage",
  params: ShadowParams,
  body: ShadowConfigInput,
  responses: {
    200: { description: "Saved, with the draft's validation warnings", schema: ShadowConfigPutOut },
    ...invalidCandidate("REQUEST_INVALID, or WORKFLOW_INVALID with the draft's findings"),
    ...notFound,
  },
  handler: async ({ db, params, body, principal }) => ({
    status: 200,
    body: await putShadowConfig(db, params.agentId, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
  }),
});

export const evalReplayShadow = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/shadow/{agentId}/replay",
  operationId: "evalReplayShadow",
  summary: "Run the candidate over the last N online chats (at most 200) and report",
  description: SHADOW,
  permission: "eval.manage",
  params: ShadowParams,
  body: ReplayInput,
  responses: {
    200: { description: "Replayed, with the report", schema: ReplayOut },
    ...notFound,
    ...conflict("SHADOW_NOT_CONFIGURED"),
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await replayShadow(db, params.agentId, body) }),
});

export const evalShadowReport = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}/report",
  operationId: "evalShadowReport",
  summary: "Agreement live vs candidate: overall, per day, confusion matrix, per intent, disagreements",
  description: SHADOW,
  permission: "eval.read",
  params: ShadowParams,
  query: ShadowReportQuery,
  responses: { 200: { description: "The report", schema: ShadowReportOut }, ...notFound },
  handler: async ({ db, params, query }) => ({ status: 200, body: await shadowReport(db, params.agentId, query) }),
});

export const evalShadowDisagreements = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}/disagreements",
  operationId: "evalShadowDisagreements",
  summary: "The configured candidate's disagreements with the live intent, newest first, by pages",
  description: `${SHADOW} Cursor pages (limit 1..100, default 20): pass nextCursor as cursor.`,
  permission: "eval.read",
  params: ShadowParams,
  query: DisagreementsQuery,
  responses: { 200: { description: "A page", schema: ShadowDisagreementsOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, query }) => ({ status: 200, body: await listDisagreements(db, params.agentId, query) }),
});

export const evalPublishShadowCandidate = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/shadow/{agentId}/publish",
  operationId: "evalPublishShadowCandidate",
  summary: "Publish the candidate: online chat answers with it from the next message",
  description: `${SHADOW} A version candidate is published; a draft candidate is first provisioned as the agent's next version (validated like any provisioning, 400 WORKFLOW_INVALID otherwise) and that version is published. The shadow then names that version and is turned off (its results stay). Builders and admins (builder.write, like publishing a version).`,
  permission: "builder.write",
  params: ShadowParams,
  responses: {
    200: { description: "Published", schema: ShadowPublishOut },
    ...invalidCandidate("WORKFLOW_INVALID with the draft's findings"),
    ...notFound,
    ...conflict("SHADOW_NOT_CONFIGURED"),
  },
  handler: async ({ db, params, principal }) => ({
    status: 200,
    body: await publishShadowCandidate(db, params.agentId, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
  }),
});
