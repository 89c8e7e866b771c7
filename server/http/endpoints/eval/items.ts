import { z } from "zod";
import { defineEndpoint } from "../../endpoint";
import { AdoptInput, adoptSuggestions, getItem, listItems, ListItemsQuery, listQueue, RunItemParams, RunParams, setVerdict, VerdictInput } from "../../../eval";
import { EvalItemOut, EvalQueueOut, EvalRunOut, VerdictChangeOut } from "../../../eval/out-schemas";
import { base, notFound, conflict, invalid, page } from "./shared";

/** A run's items, human verdicts, bulk adoption over REST (/api/eval/*); handlers only call server/eval. */

export const evalListItems = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items",
  operationId: "evalListItems",
  summary: "A run's items: answer, payload, trace, latency, tokens, error, suggestion, verdict",
  description: "Filters: status, verdict (pass|fail|none), suggestion (pass|fail|unknown|none), spotCheck=true (suggestion fail or unknown, or any guardrail flag).",
  permission: "eval.read",
  params: RunParams,
  query: ListItemsQuery,
  responses: { 200: { description: "A page of items", schema: z.object({ run: EvalRunOut, items: z.array(EvalItemOut), nextCursor: z.string().nullable() }) }, ...notFound },
  handler: async ({ db, params, query }) => ({ status: 200, body: await listItems(db, params.id, query) }),
});

export const evalGetItem = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items/{itemId}",
  operationId: "evalGetItem",
  summary: "One item with its verdict history (who, when, before, after)",
  permission: "eval.read",
  params: RunItemParams,
  responses: { 200: { description: "The item", schema: EvalItemOut.extend({ history: z.array(VerdictChangeOut) }) }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getItem(db, params.id, params.itemId) }),
});

export const evalSetVerdict = defineEndpoint({
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/items/{itemId}/verdict",
  operationId: "evalSetVerdict",
  summary: "Record (or change) the human verdict of an item",
  description:
    "pass or fail. A fail needs `basis` (400 VERDICT_BASIS_REQUIRED) and `attribution` (400 VERDICT_ATTRIBUTION_REQUIRED; see GET /api/eval/meta). `classification` defaults to the sample's. Only answered or failed items (409 ITEM_NOT_JUDGEABLE). Every change is kept. The run completes when every item has a verdict.",
  permission: "eval.annotate",
  params: RunItemParams,
  body: VerdictInput,
  responses: {
    200: { description: "The item (changed: false when nothing differed)", schema: EvalItemOut.extend({ changed: z.boolean() }) },
    ...invalid("VERDICT_BASIS_REQUIRED or VERDICT_ATTRIBUTION_REQUIRED"),
    ...notFound,
    ...conflict("ITEM_NOT_JUDGEABLE"),
  },
  handler: async ({ db, params, body, principal }) => ({ status: 200, body: await setVerdict(db, params.id, params.itemId, body, principal) }),
});

export const evalAdoptSuggestions = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/adopt",
  operationId: "evalAdoptSuggestions",
  summary: "Bulk adopt: write every pass/fail machine suggestion as a verdict, then list the items to spot-check",
  description:
    "Adopted verdicts are marked source=adopted (never human). Unknown suggestions never become verdicts; items with a verdict are left alone. A fail gets the suggestion's rationale as basis and an attribution derived from its flags. spotCheck: fail, unknown and guardrail-flagged items. Send `{}`.",
  permission: "eval.annotate",
  params: RunParams,
  body: AdoptInput,
  responses: {
    200: {
      description: "Adopted",
      schema: z.object({ adopted: z.number().int(), skipped: z.object({ unknown: z.number().int(), noSuggestion: z.number().int(), alreadyJudged: z.number().int() }), spotCheck: z.array(EvalItemOut) }),
    },
    ...notFound,
  },
  handler: async ({ db, params, principal }) => ({ status: 200, body: await adoptSuggestions(db, params.id, principal) }),
});

export const evalListQueue = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/queue",
  operationId: "evalListQueue",
  summary: "The annotation queue: compact item rows and the review progress",
  description:
    "The same filters as GET /runs/{id}/items (status, verdict, suggestion, spotCheck, classification, q), but rows without answers or payloads (key, question cut at 240 characters, effective classification, status, suggestion verdict and flags, verdict and its source, spot-check mark, Bad Case), plus counts: total, judged, human-typed, adopted, spot-check items not yet confirmed by a person, and items matching the filters.",
  permission: "eval.read",
  params: RunParams,
  query: ListItemsQuery,
  responses: { 200: { description: "A page of the queue", schema: EvalQueueOut }, ...notFound },
  handler: async ({ db, params, query }) => ({ status: 200, body: await listQueue(db, params.id, query) }),
});
