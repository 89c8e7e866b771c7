import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ErrorOut } from "../../../core/errors";
import { base, conflict, invalid, noContent, notFound } from "./shared";

/** The online feedback loop over REST (/api/eval/online/*, /api/eval/sets/{id}/pool); handlers only call server/eval. */

export const evalListLeads = rest(op.evalListLeads, {
  ...base,
  method: "GET",
  path: "/api/eval/online/leads",
  summary: "Leads from online traffic: low feedback scores and guardrail signals",
  responses: { 200: "A page of leads", ...notFound },
});

export const evalLeadCounts = rest(op.evalLeadCounts, {
  ...base,
  method: "GET",
  path: "/api/eval/online/leads/per-day",
  summary: "Leads per day and status over a time range (the leads chart)",
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
  responses: { 200: "The board", ...notFound },
});

export const evalConfirmSample = rest(op.evalConfirmSample, {
  ...base,
  method: "POST",
  path: "/api/eval/samples/{id}/confirm",
  summary: "Confirm a regression-pool candidate (the online loop's board)",
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
  responses: {
    200: "The sample",
    ...notFound,
    ...conflict("SET_NOT_REGRESSION_POOL or SET_VERSION_FROZEN"),
  },
});

export const evalGetOnlineJudging = rest(op.evalGetOnlineJudging, {
  ...base,
  method: "GET",
  path: "/api/eval/online/judging/{agentId}",
  summary: "The agent's online judging rule (sampling, filters, judge) and its recent judgments",
  responses: { 200: "The rule (null when none) and the last 7 days' judgments", ...notFound },
});

export const evalPutOnlineJudging = rest(op.evalPutOnlineJudging, {
  ...base,
  method: "PUT",
  path: "/api/eval/online/judging/{agentId}",
  summary: "Set the agent's online judging rule",
  responses: {
    200: "The rule",
    ...invalid(
      "REQUEST_INVALID (samplingRate outside 0..1, a filter), JUDGE_NEEDS_POINTS (the built-in judge), JUDGE_NOT_A_JUDGE, WORKFLOW_INVALID",
    ),
    ...notFound,
  },
});

export const evalListAlertRules = rest(op.evalListAlertRules, {
  ...base,
  method: "GET",
  path: "/api/eval/online/alert-rules",
  summary: "The agent's alert rules on its online answers",
  responses: { 200: "The rules", ...notFound },
});

export const evalCreateAlertRule = rest(op.evalCreateAlertRule, {
  ...base,
  method: "POST",
  path: "/api/eval/online/alert-rules",
  summary: "Add an alert rule (share of leads among the last N answers, or K leads within a window)",
  responses: {
    201: "Created",
    ...invalid("REQUEST_INVALID: a figure the kind needs is missing"),
    ...notFound,
    413: { description: "EVAL_LIMIT_EXCEEDED: 20 rules per agent", schema: ErrorOut },
  },
});

export const evalUpdateAlertRule = rest(op.evalUpdateAlertRule, {
  ...base,
  method: "PATCH",
  path: "/api/eval/online/alert-rules/{id}",
  summary: "Change an alert rule",
  responses: { 200: "The rule", ...invalid(), ...notFound },
});

export const evalDeleteAlertRule = rest(op.evalDeleteAlertRule, {
  ...base,
  method: "DELETE",
  path: "/api/eval/online/alert-rules/{id}",
  summary: "Delete an alert rule and its alerts",
  responses: { 204: { description: "Deleted" }, ...notFound },
  respond: noContent,
});

export const evalListAlerts = rest(op.evalListAlerts, {
  ...base,
  method: "GET",
  path: "/api/eval/online/alerts",
  summary: "Alerts fired on the agent's online answers (open=true: not acknowledged yet)",
  responses: { 200: "Alerts, newest first", ...notFound },
});

export const evalAcknowledgeAlert = rest(op.evalAcknowledgeAlert, {
  ...base,
  method: "POST",
  path: "/api/eval/online/alerts/{id}/acknowledge",
  summary: "Acknowledge an alert (it leaves the online loop tab's banner)",
  responses: { 200: "The acknowledged alert", ...notFound },
});
