/**
 * The intent shadow as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.shadow.*`). Provisioning a draft candidate needs the webhook base URL
 * of the environment, read here and handed to the services.
 */
import { defineOperation } from "../../auth/operation";
import { env } from "../../core/env";
import {
  getShadowConfig,
  listDisagreements,
  publishShadowCandidate,
  putShadowConfig,
  replayShadow,
  shadowReport,
} from "..";
import {
  DisagreementsQuery,
  ReplayInput,
  ReplayOut,
  ShadowConfigInput,
  ShadowConfigOut,
  ShadowConfigPutOut,
  ShadowDisagreementsOut,
  ShadowParams,
  ShadowPublishOut,
  ShadowReportOut,
  ShadowReportQuery,
} from "./schemas";

/** What every shadow operation's description starts with. */
const SHADOW =
  "Intent shadow: a candidate intent classifier computed beside online traffic at tier pipeline, never changing the user's answer.";

export const evalGetShadow = defineOperation({
  id: "evalGetShadow",
  trpc: "eval.shadow.get",
  kind: "query",
  permission: "eval.read",
  description: SHADOW,
  params: ShadowParams,
  output: ShadowConfigOut,
  run: ({ db, params }) => getShadowConfig(db, params.agentId),
});

export const evalPutShadow = defineOperation({
  id: "evalPutShadow",
  trpc: "eval.shadow.put",
  kind: "mutation",
  permission: "eval.manage",
  description: `${SHADOW} candidateVersion or candidateWorkflow (a draft wins when both are given); a draft is validated like any provisioned workflow, Python syntax of code nodes included (400 WORKFLOW_INVALID with the findings; warnings come back with the saved configuration). Results are reported per candidate: after the candidate or an intent reference changes, the report starts empty (replay fills it).`,
  params: ShadowParams,
  body: ShadowConfigInput,
  output: ShadowConfigPutOut,
  run: ({ db, params, body, principal }) =>
    putShadowConfig(db, params.agentId, body, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});

export const evalReplayShadow = defineOperation({
  id: "evalReplayShadow",
  trpc: "eval.shadow.replay",
  kind: "mutation",
  permission: "eval.manage",
  description: SHADOW,
  params: ShadowParams,
  body: ReplayInput,
  output: ReplayOut,
  run: ({ db, params, body }) => replayShadow(db, params.agentId, body),
});

export const evalShadowReport = defineOperation({
  id: "evalShadowReport",
  trpc: "eval.shadow.report",
  kind: "query",
  permission: "eval.read",
  description: SHADOW,
  params: ShadowParams,
  query: ShadowReportQuery,
  output: ShadowReportOut,
  run: ({ db, params, query }) => shadowReport(db, params.agentId, query),
});

export const evalShadowDisagreements = defineOperation({
  id: "evalShadowDisagreements",
  trpc: "eval.shadow.disagreements",
  kind: "query",
  permission: "eval.read",
  description: `${SHADOW} Cursor pages (limit 1..100, default 20): pass nextCursor as cursor.`,
  params: ShadowParams,
  query: DisagreementsQuery,
  output: ShadowDisagreementsOut,
  run: ({ db, params, query }) => listDisagreements(db, params.agentId, query),
});

export const evalPublishShadowCandidate = defineOperation({
  id: "evalPublishShadowCandidate",
  trpc: "eval.shadow.publish",
  kind: "mutation",
  permission: "builder.write",
  description: `${SHADOW} A version candidate is published; a draft candidate is first provisioned as the agent's next version (validated like any provisioning, 400 WORKFLOW_INVALID otherwise) and that version is published. The shadow then names that version and is turned off (its results stay). Builders and admins (builder.write, like publishing a version).`,
  params: ShadowParams,
  output: ShadowPublishOut,
  run: ({ db, params, principal }) =>
    publishShadowCandidate(db, params.agentId, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});
