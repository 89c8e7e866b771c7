/**
 * The online feedback loop as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.online.*`).
 */
import { defineOperation } from "../../auth/operation";
import {
  addTraceToPool,
  confirmSample,
  dismissLead,
  leadsPerDay,
  listLeads,
  loopBoard,
  restoreLead,
  unconfirmSample,
} from "..";
import { EvalSampleOut } from "../sets/schemas";
import {
  BoardQuery,
  ConfirmParams,
  DismissLeadInput,
  LeadCountsOut,
  LeadCountsQuery,
  LeadsPageOut,
  LeadsQuery,
  LeadStatusOut,
  LoopBoardOut,
  PoolAddInput,
  PoolAddOut,
  PoolParams,
  TraceParam,
} from "./schemas";

export const evalListLeads = defineOperation({
  id: "evalListLeads",
  trpc: "eval.online.leads",
  kind: "query",
  permission: "eval.read",
  description:
    "Online traces of the agent (source chat or api: the answers callers got from the published agent; newest first) with a feedback score at or below maxScore (default 2) or a signal of the guardrail rules: execution_error, empty_items (a live query returned no items), no_query (no query although the workflow has http nodes). Each lead has a status: new, in_pool (with the pool sample) or dismissed (who, why); status and signal=low_score filter in the query itself. A page scans at most 2000 traces; nextCursor continues (a page can be short or empty with a nextCursor when the scanned stretch held no lead). perDay counts this page only: GET /api/eval/online/leads/per-day counts a whole range.",
  query: LeadsQuery,
  output: LeadsPageOut,
  run: ({ db, query }) => listLeads(db, query),
});

export const evalLeadCounts = defineOperation({
  id: "evalLeadCounts",
  trpc: "eval.online.leadCounts",
  kind: "query",
  permission: "eval.read",
  description:
    "The same filters as GET /api/eval/online/leads (agentId, from, to, maxScore, signal, status), counted over the whole range by UTC day and status. The range defaults to the last 30 days ending today (at most 366 days: 400 REQUEST_INVALID beyond, or when from is after to). The newest 20,000 online traces of the range are looked at; complete: false says the range held more (counts then cover coveredFrom .. to).",
  query: LeadCountsQuery,
  output: LeadCountsOut,
  run: ({ db, query }) => leadsPerDay(db, query),
});

export const evalDismissLead = defineOperation({
  id: "evalDismissLead",
  trpc: "eval.online.dismiss",
  kind: "mutation",
  permission: "eval.manage",
  params: TraceParam,
  body: DismissLeadInput,
  output: LeadStatusOut,
  run: ({ db, params, body, principal }) => dismissLead(db, params.traceId, body, principal),
});

export const evalRestoreLead = defineOperation({
  id: "evalRestoreLead",
  trpc: "eval.online.restore",
  kind: "mutation",
  permission: "eval.manage",
  params: TraceParam,
  output: LeadStatusOut,
  run: ({ db, params }) => restoreLead(db, params.traceId),
});

export const evalAddToPool = defineOperation({
  id: "evalAddToPool",
  trpc: "eval.online.addToPool",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Into the pool's draft version (a new draft copied from the latest when that one is frozen). The question defaults to the trace's user message; an earlier conversation of the session becomes a script with preset earlier turns; the online answer is kept as referenceAnswer; sourceTraceId is the trace. A golden set: 409 SET_NOT_REGRESSION_POOL. A trace already in any version of the set: 200 with that sample and duplicate: true (concurrent adds of one trace create one sample). likelyDuplicateOf names a sample of the version with the same normalised question.",
  params: PoolParams,
  body: PoolAddInput,
  output: PoolAddOut,
  run: ({ db, params, body, principal }) => addTraceToPool(db, params.id, body, principal),
});

export const evalLoopBoard = defineOperation({
  id: "evalLoopBoard",
  trpc: "eval.online.board",
  kind: "query",
  permission: "eval.read",
  description:
    "Stages: candidate (in a draft, its trace neither confirmed in any version of the pool nor frozen before) -> confirmed (a person confirmed it, or an earlier freeze took it in unconfirmed) -> expectations (confirmed, with expected points) -> frozen (frozen version, no run yet) -> in_run (the latest run with the sample, its verdict) -> bad_case (a Bad Case not verified yet) -> verified (the Bad Case was verified by a later run, and the latest run does not fail it). From the first run on, the stage follows the latest run item. Each card has its history and links (source trace, annotation item, comparison).",
  query: BoardQuery,
  output: LoopBoardOut,
  run: ({ db, query }) => loopBoard(db, query),
});

export const evalConfirmSample = defineOperation({
  id: "evalConfirmSample",
  trpc: "eval.online.confirm",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "A person confirms that the sample belongs in the pool. Confirming is a property of the sample's trace in the pool: confirmedAt and confirmedById are set on every draft sample of the set with the same trace (idempotent: the first confirmation is kept) and new versions copy it (from the copied sample, else from the trace's first confirmation in the set). Drafts of regression-pool sets only: a golden set is 409 SET_NOT_REGRESSION_POOL, a frozen version 409 SET_VERSION_FROZEN. Freezing does not require it (the board warns with a count); a sample frozen unconfirmed is in the pool since that freeze and is not a candidate in later drafts.",
  params: ConfirmParams,
  output: EvalSampleOut,
  run: ({ db, params, principal }) => confirmSample(db, params.id, principal),
});

export const evalUnconfirmSample = defineOperation({
  id: "evalUnconfirmSample",
  trpc: "eval.online.unconfirm",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "On every draft sample of the set with the same trace. A trace already in a frozen version of the pool stays in the pool: 409 SET_VERSION_FROZEN (remove the sample from the draft instead).",
  params: ConfirmParams,
  output: EvalSampleOut,
  run: ({ db, params }) => unconfirmSample(db, params.id),
});
