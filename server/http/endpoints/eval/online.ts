import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, conflict } from "./shared";

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
