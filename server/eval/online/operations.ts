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
  description: [
    "Online traces of the agent (source chat or api: the answers callers got from the published agent; newest first) with a feedback score at or below maxScore (default 2) or a signal of the guardrail rules: execution_error, empty_items (a live query returned no items), no_query (no query although the workflow has http nodes). Each lead has a status: new, in_pool (with the pool sample) or dismissed (who, why); status and signal=low_score filter in the query itself. A page scans at most 2000 traces; nextCursor continues (a page can be short or empty with a nextCursor when the scanned stretch held no lead). perDay counts this page only: GET /api/eval/online/leads/per-day counts a whole range.",
    "Only online answers (sources chat and api, the traces that accept feedback and that the pool accepts) are leads; test runs, eval items and shadow runs never are. The lowest score of a trace counts. A lead's conversation is its chat session's earlier turns (an api call has none). Each lead: traceId, startedAt, message, conversation, answer, payload, score, comment, signals, flags, status, pool, dismissal { reason, by, byLabel, at }. `scanned` says how many traces were looked at; nextCursor is null when every trace in range was. from/to are UTC days (to inclusive; either may be left out); from after to is 400 REQUEST_INVALID naming from.",
  ].join(" "),
  query: LeadsQuery,
  output: LeadsPageOut,
  run: ({ db, query }) => listLeads(db, query),
});

export const evalLeadCounts = defineOperation({
  id: "evalLeadCounts",
  trpc: "eval.online.leadCounts",
  kind: "query",
  permission: "eval.read",
  description: [
    "The same filters as GET /api/eval/online/leads (agentId, from, to, maxScore, signal, status), counted over the whole range by UTC day and status. The range defaults to the last 30 days ending today (at most 366 days: 400 REQUEST_INVALID beyond, or when from is after to). The newest 20,000 online traces of the range are looked at; complete: false says the range held more (counts then cover coveredFrom .. to).",
    "`days` lists every day, zeros included, with `byStatus` and `total`. The signals are judged on each trace's steps by the same rules as the list, so the counts equal what the list's unfiltered scan finds.",
  ].join(" "),
  query: LeadCountsQuery,
  output: LeadCountsOut,
  run: ({ db, query }) => leadsPerDay(db, query),
});

export const evalDismissLead = defineOperation({
  id: "evalDismissLead",
  trpc: "eval.online.dismiss",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "The lead's status becomes dismissed with who and why; it leaves the default list (status filter) until restored.",
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
  description: "Deletes the dismissal: the lead's status is new again (or in_pool when its trace is in a pool).",
  params: TraceParam,
  output: LeadStatusOut,
  run: ({ db, params }) => restoreLead(db, params.traceId),
});

export const evalAddToPool = defineOperation({
  id: "evalAddToPool",
  trpc: "eval.online.addToPool",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "Into the pool's draft version (a new draft copied from the latest when that one is frozen). The question defaults to the trace's user message; an earlier conversation of the session becomes a script with preset earlier turns; the online answer is kept as referenceAnswer; sourceTraceId is the trace. A golden set: 409 SET_NOT_REGRESSION_POOL. A trace already in any version of the set: 200 with that sample and duplicate: true (concurrent adds of one trace create one sample). likelyDuplicateOf names a sample of the version with the same normalised question.",
    "Also refused: a trace of another agent (409 TRACE_OTHER_AGENT), a test-run or eval trace (409 TRACE_NOT_ONLINE). The sample's key is t-<last 8 of the trace id>; addedById says who added it. Adds to one set are serialised by a lock on the set's row, and the new draft after a freeze is made under that lock in the same transaction: 20 concurrent adds of different traces right after a freeze make one new draft holding all 20; 20 of one trace make one sample. likelyDuplicateOf compares questions after NFKC, lower case and without spaces or punctuation.",
  ].join(" "),
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
  description: [
    "Stages: candidate (in a draft, its trace neither confirmed in any version of the pool nor frozen before) -> confirmed (a person confirmed it, or an earlier freeze took it in unconfirmed) -> expectations (confirmed, with expected points) -> frozen (frozen version, no run yet) -> in_run (the latest run with the sample, its verdict) -> bad_case (a Bad Case not verified yet) -> verified (the Bad Case was verified by a later run, and the latest run does not fail it). From the first run on, the stage follows the latest run item. Each card has its history and links (source trace, annotation item, comparison).",
    "An earlier Bad Case that is not verified keeps a sample in bad_case (the card shows the latest run's verdict: passed -> verify it); an earlier verified Bad Case shows verified only while the latest run passes (a later fail is in_run with that fail: a regression). Each card: the points, `confirmed` and `confirmedVia` (person or freeze), the latest run item with its answering state `itemStatus` (only an answered item can be judged), the Bad Case (`verifyIn`: a later platform run of a newer version with a pass, else null), `compare` (the Bad Case's run and the latest run, else the latest run and the run it re-ran) and `history` (added, confirmed, expectations, frozen in vN, the last five runs with their verdicts, the Bad Case and its status). `drafts`: every draft version of the agent's pools with its online samples and the unconfirmed ones counted exactly in the database (the cards stop at 5,000 samples).",
  ].join(" "),
  query: BoardQuery,
  output: LoopBoardOut,
  run: ({ db, query }) => loopBoard(db, query),
});

export const evalConfirmSample = defineOperation({
  id: "evalConfirmSample",
  trpc: "eval.online.confirm",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "A person confirms that the sample belongs in the pool. Confirming is a property of the sample's trace in the pool: confirmedAt and confirmedById are set on every draft sample of the set with the same trace (idempotent: the first confirmation is kept) and new versions copy it (from the copied sample, else from the trace's first confirmation in the set). Drafts of regression-pool sets only: a golden set is 409 SET_NOT_REGRESSION_POOL, a frozen version 409 SET_VERSION_FROZEN. Freezing does not require it (the board warns with a count); a sample frozen unconfirmed is in the pool since that freeze and is not a candidate in later drafts.",
    "Needs eval.manage, like adding to the pool and editing samples, because it decides what goes into the frozen version. After a freeze took a sample in unconfirmed, the board shows it confirmed via freeze and taking the confirmation back is 409 SET_VERSION_FROZEN.",
  ].join(" "),
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
