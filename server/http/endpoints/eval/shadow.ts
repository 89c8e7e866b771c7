import { z } from "zod";
import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ValidationErrorOut } from "../../../agents/schemas";
import { ErrorOut } from "../../../core/errors";
import { base, notFound, conflict, invalid } from "./shared";

/** 400: the draft candidate's findings (WORKFLOW_INVALID, as /api/builder/validate answers them) or the one error shape. */
const invalidCandidate = (description: string) => ({
  400: { description, schema: z.union([ValidationErrorOut, ErrorOut]) },
});

/** The intent shadow over REST (/api/eval/shadow/{agentId}); handlers only call server/eval. */

export const evalGetShadow = rest(op.evalGetShadow, {
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}",
  summary: "The agent's intent-shadow configuration (config null when none)",
  responses: { 200: "The configuration", ...notFound },
});

export const evalPutShadow = rest(op.evalPutShadow, {
  ...base,
  method: "PUT",
  path: "/api/eval/shadow/{agentId}",
  summary: "Set the intent shadow: candidate, intent references, sample rate, on/off",
  responses: {
    200: "Saved, with the draft's validation warnings",
    ...invalidCandidate("REQUEST_INVALID, or WORKFLOW_INVALID with the draft's findings"),
    ...notFound,
  },
});

export const evalReplayShadow = rest(op.evalReplayShadow, {
  ...base,
  method: "POST",
  path: "/api/eval/shadow/{agentId}/replay",
  summary: "Run the candidate over the last N online chats (at most 200) and report",
  responses: {
    200: "Replayed, with the report",
    ...notFound,
    ...conflict("SHADOW_NOT_CONFIGURED"),
  },
});

export const evalShadowReport = rest(op.evalShadowReport, {
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}/report",
  summary: "Agreement live vs candidate: overall, per day, confusion matrix, per intent, disagreements",
  responses: { 200: "The report", ...notFound },
});

export const evalShadowDisagreements = rest(op.evalShadowDisagreements, {
  ...base,
  method: "GET",
  path: "/api/eval/shadow/{agentId}/disagreements",
  summary: "The configured candidate's disagreements with the live intent, newest first, by pages",
  responses: { 200: "A page", ...invalid(), ...notFound },
});

export const evalPublishShadowCandidate = rest(op.evalPublishShadowCandidate, {
  ...base,
  method: "POST",
  path: "/api/eval/shadow/{agentId}/publish",
  summary: "Publish the candidate: online chat answers with it from the next message",
  responses: {
    200: "Published",
    ...invalidCandidate("WORKFLOW_INVALID with the draft's findings"),
    ...notFound,
    ...conflict("SHADOW_NOT_CONFIGURED"),
  },
});
