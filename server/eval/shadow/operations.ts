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

export const evalGetShadow = defineOperation({
  id: "evalGetShadow",
  trpc: "eval.shadow.get",
  kind: "query",
  permission: "eval.read",
  params: ShadowParams,
  output: ShadowConfigOut,
  run: ({ db, params }) => getShadowConfig(db, params.agentId),
});

export const evalPutShadow = defineOperation({
  id: "evalPutShadow",
  trpc: "eval.shadow.put",
  kind: "mutation",
  permission: "eval.manage",
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
  params: ShadowParams,
  output: ShadowPublishOut,
  run: ({ db, params, principal }) =>
    publishShadowCandidate(db, params.agentId, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});
