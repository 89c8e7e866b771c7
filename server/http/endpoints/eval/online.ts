import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, conflict } from "./shared";

/** The online feedback loop over REST (/api/eval/online/*, /api/eval/sets/{id}/pool); handlers only call server/eval. */

export const evalListLeads = rest(op.evalListLeads, {
  ...base,
  method: "GET",
  path: "/api/eval/online/leads",
  summary: "Leads from online traffic: low feedback scores and guardrail signals",
  description:
    "Online traces of the agent (source chat or api: the answers callers got from the published agent; newest first) with a feedback score at or below maxScore (default 2) or a signal of the guardrail rules: execution_error, empty_items (a live query returned no items), no_query (no query although the workflow has http nodes). Each lead has a status: new, in_pool (with the pool sample) or dismissed (who, why); status and signal=low_score filter in the query itself. A page scans at most 2000 traces; nextCursor continues (a page can be short or empty with a nextCursor when the scanned stretch held no lead). perDay counts this page only: GET /api/eval/online/leads/per-day counts a whole range.",
  responses: { 200: "A page of leads", ...notFound },
});

export const evalLeadCounts = rest(op.evalLeadCounts, {
  ...base,
  method: "GET",
  path: "/api/eval/online/leads/per-day",
  summary: "Leads per day and status over a time range (the leads chart)",
  description:
    "The same filters as GET /api/eval/online/leads (agentId, from, to, maxScore, signal, status), counted over the whole range by UTC day and status. The range defaults to the last 30 days ending today (at most 366 days: 400 REQUEST_INVALID beyond, or when from is after to). The newest 20,000 online traces of the range are looked at; complete: false says the range held more (counts then cover coveredFrom .. to).",
  responses: { 200: "Counts per day", ...notFound },
});

export const evalDismissLead = rest(op.evalDismissLead, {
  ...base,
  method: "POST",
  path: "/api/eval/online/leads/{traceId}/dismiss",
  summary: "Set a lead aside, with the reason",
  responses: {
    200: "Dismissed",
    ...notFound,
    ...conflict("TRACE_NOT_ONLINE: not an online trace"),
  },
});

export const evalRestoreLead = rest(op.evalRestoreLead, {
  ...base,
  method: "DELETE",
  path: "/api/eval/online/leads/{traceId}/dismiss",
  summary: "Undo a dismissal: the lead is new again",
  responses: {
    200: "New again",
    ...notFound,
    ...conflict("TRACE_NOT_ONLINE: not an online trace"),
  },
});

export const evalAddToPool = rest(op.evalAddToPool, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/pool",
  summary: "Add an online trace to a regression-pool set",
  description:
    "Into the pool's draft version (a new draft copied from the latest when that one is frozen). The question defaults to the trace's user message; an earlier conversation of the session becomes a script with preset earlier turns; the online answer is kept as referenceAnswer; sourceTraceId is the trace. A golden set: 409 SET_NOT_REGRESSION_POOL. A trace already in any version of the set: 200 with that sample and duplicate: true (concurrent adds of one trace create one sample). likelyDuplicateOf names a sample of the version with the same normalised question.",
  responses: {
    201: "Added",
    200: "Already in the pool (duplicate: true)",
    ...notFound,
    ...conflict("SET_NOT_REGRESSION_POOL (a golden set), TRACE_NOT_ONLINE or TRACE_OTHER_AGENT"),
  },
  // a trace already in the set is answered 200 with duplicate: true; a new sample 201
  status: (added) => (added.duplicate ? 200 : 201),
});

export const evalLoopBoard = rest(op.evalLoopBoard, {
  ...base,
  method: "GET",
  path: "/api/eval/online/board",
  summary: "The online loop's board: each online-sourced pool sample and its stage",
  description:
    "Stages: candidate (in a draft, its trace neither confirmed in any version of the pool nor frozen before) -> confirmed (a person confirmed it, or an earlier freeze took it in unconfirmed) -> expectations (confirmed, with expected points) -> frozen (frozen version, no run yet) -> in_run (the latest run with the sample, its verdict) -> bad_case (a Bad Case not verified yet) -> verified (the Bad Case was verified by a later run, and the latest run does not fail it). From the first run on, the stage follows the latest run item. Each card has its history and links (source trace, annotation item, comparison).",
  responses: { 200: "The board", ...notFound },
});

export const evalConfirmSample = rest(op.evalConfirmSample, {
  ...base,
  method: "POST",
  path: "/api/eval/samples/{id}/confirm",
  summary: "Confirm a regression-pool candidate (the online loop's board)",
  description:
    "A person confirms that the sample belongs in the pool. Confirming is a property of the sample's trace in the pool: confirmedAt and confirmedById are set on every draft sample of the set with the same trace (idempotent: the first confirmation is kept) and new versions copy it (from the copied sample, else from the trace's first confirmation in the set). Drafts of regression-pool sets only: a golden set is 409 SET_NOT_REGRESSION_POOL, a frozen version 409 SET_VERSION_FROZEN. Freezing does not require it (the board warns with a count); a sample frozen unconfirmed is in the pool since that freeze and is not a candidate in later drafts.",
  responses: {
    200: "The confirmed sample",
    ...notFound,
    ...conflict("SET_NOT_REGRESSION_POOL or SET_VERSION_FROZEN"),
  },
});

export const evalUnconfirmSample = rest(op.evalUnconfirmSample, {
  ...base,
  method: "DELETE",
  path: "/api/eval/samples/{id}/confirm",
  summary: "Take a confirmation back (the sample is a candidate again)",
  description:
    "On every draft sample of the set with the same trace. A trace already in a frozen version of the pool stays in the pool: 409 SET_VERSION_FROZEN (remove the sample from the draft instead).",
  responses: {
    200: "The sample",
    ...notFound,
    ...conflict("SET_NOT_REGRESSION_POOL or SET_VERSION_FROZEN"),
  },
});
