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
  "Intent shadow: a candidate intent classifier computed beside online traffic, never changing or delaying the user's answer. Every online chat answered by the published version (cache hits included) is sampled at `sampleRate` and queued; a worker runs the candidate's intent subgraph (the nodes `candidateRef` names and their ancestors) on the chat's input and history at tier pipeline (http nodes make no request), isolated, within 30 s, one job at a time and only on a quiet event loop (a saturated instance falls behind instead of slowing answers). The live intent is `liveRef` rendered over the live trace (for a cache hit, the trace that produced the cached answer). One result per trace: both intents, agree (case-insensitive), ok or failed with the error, and the candidate's key (a hash of the candidate's content and both references): results of another candidate stay stored but are not reported.";

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
  description: [
    `${SHADOW} candidateVersion or candidateWorkflow (a draft wins when both are given); a draft is validated like any provisioned workflow, Python syntax of code nodes included (400 WORKFLOW_INVALID with the findings; warnings come back with the saved configuration). Results are reported per candidate: after the candidate or an intent reference changes, the report starts empty (replay fills it).`,
    "`liveRef` and `candidateRef` are templates such as {{detect_scene.result.scene}} naming the node output that is the intent (`candidateRef` must name nodes of the candidate); `sampleRate` 0..1; `enabled`; `candidateNote` says where the candidate came from. Changing the rate or on/off keeps the key; a draft and the version provisioned from it have the same key. Changing it needs eval.manage.",
  ].join(" "),
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
  description: `${SHADOW} Replay runs the candidate over the agent's last N online chats (source chat, finished; cache hits included), 4 at a time, in the request, and answers with the counts and the report.`,
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
  description: `${SHADOW} The configured candidate's results aggregated in the database (no cap): results, compared (both intents read), agreed, agreement, failures, missing live intents, per UTC day, the confusion matrix (non-zero cells), per-intent counts, the first page of disagreements with disagreementsNextCursor and the latest 20 failures.`,
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
  description: [
    `${SHADOW} Cursor pages (limit 1..100, default 20): pass nextCursor as cursor.`,
    "Cursor = the last row's trace id, with `total`; each row: message, live, candidate, the live trace, the candidate's run.",
  ].join(" "),
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
  description: [
    `${SHADOW} A version candidate is published; a draft candidate is first provisioned as the agent's next version (validated like any provisioning, 400 WORKFLOW_INVALID otherwise) and that version is published. The shadow then names that version and is turned off (its results stay). Builders and admins (builder.write, like publishing a version).`,
    "Every online chat is answered by the published version from the next message (its whole answer, not only the intent). Provisioning, publishing and the configuration change are one transaction under the configuration's row lock: a failure leaves no version behind, and concurrent publishes provision one version (the later ones publish it again). Switching the shadow on again with that version keeps its results (same content, same key).",
  ].join(" "),
  params: ShadowParams,
  output: ShadowPublishOut,
  run: ({ db, params, principal }) =>
    publishShadowCandidate(db, params.agentId, principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
});
