import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, conflict, invalid } from "./shared";

/** A run's items, human verdicts, bulk adoption over REST (/api/eval/*); handlers only call server/eval. */

export const evalListItems = rest(op.evalListItems, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items",
  summary: "A run's items: answer, payload, trace, latency, tokens, error, suggestion, verdict",
  description:
    "Filters: status, verdict (pass|fail|none), suggestion (pass|fail|unknown|none), spotCheck=true (suggestion fail or unknown, or any guardrail flag; every such item, checked or not).",
  responses: {
    200: "A page of items",
    ...notFound,
  },
});

export const evalGetItem = rest(op.evalGetItem, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items/{itemId}",
  summary: "One item with its verdict history (who, when, before, after)",
  responses: {
    200: "The item",
    ...notFound,
  },
});

export const evalSetVerdict = rest(op.evalSetVerdict, {
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/items/{itemId}/verdict",
  summary: "Record (or change) the human verdict of an item",
  description:
    "pass or fail, with an optional comment in `basis` (a pass may carry one too). A fail needs `basis` (400 VERDICT_BASIS_REQUIRED) and `attribution` (400 VERDICT_ATTRIBUTION_REQUIRED; see GET /api/eval/meta). `classification` defaults to the sample's. Only answered or failed items (409 ITEM_NOT_JUDGEABLE). Send `expectedVersion` (the item's `verdictVersion` you saw) to refuse a write over someone else's newer verdict (409 VERDICT_CONFLICT, nothing written). Writes to one item are serialised (row lock): every change is kept as a numbered history chain. The run completes when every item has a verdict.",
  responses: {
    200: "The item (changed: false when nothing differed)",
    ...invalid("VERDICT_BASIS_REQUIRED or VERDICT_ATTRIBUTION_REQUIRED"),
    ...notFound,
    ...conflict("ITEM_NOT_JUDGEABLE or VERDICT_CONFLICT"),
  },
});

export const evalUndoVerdict = rest(op.evalUndoVerdict, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/items/{itemId}/verdict/undo",
  summary: "Undo: take back your own last typed verdict on an item (one step)",
  description:
    "Send `version`: the item's verdictVersion your verdict made (its answer says it). The item gets back the verdict it had before (adopted, another person's, or none) and the history keeps both changes: your verdict and its undo (`after.undoOf` names the version taken back). 409 VERDICT_CONFLICT when anything was written since (nothing changes); 409 VERDICT_NOT_UNDOABLE when the item's last change is not your typed verdict (someone else's, an adoption, or an undo: there is no redo). A completed run whose item loses its verdict awaits review again. The annotation page's U key and Undo button.",
  responses: {
    200: "The item as it is now, and the version taken back",
    ...notFound,
    ...conflict("VERDICT_CONFLICT or VERDICT_NOT_UNDOABLE"),
  },
});

export const evalAdoptSuggestions = rest(op.evalAdoptSuggestions, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/adopt",
  summary: "Bulk adopt: write every pass/fail machine suggestion as a verdict, then list the items to spot-check",
  description:
    "Adopted verdicts are marked source=adopted (never human). Unknown suggestions never become verdicts; items with a verdict are left alone. A fail gets the suggestion's rationale as basis and an attribution derived from its flags. spotCheck: fail, unknown and guardrail-flagged items. Send `{}`.",
  responses: {
    200: "Adopted",
    ...notFound,
  },
});

export const evalListQueue = rest(op.evalListQueue, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/queue",
  summary: "The annotation queue: compact item rows and the review progress",
  description:
    "The same filters as GET /runs/{id}/items (status, verdict, suggestion, spotCheck, classification, q), but rows without answers or payloads (key, question cut at 240 characters, effective classification, status, suggestion verdict and flags, verdict and its source, spot-check mark and whether it is left (`spotCheckLeft`: no verdict a person typed), Bad Case), plus counts: total, judged, human-typed, adopted, spot-check items not yet confirmed by a person, what bulk adopt would write now, unknown suggestions left to a person, and items matching the filters.",
  responses: { 200: "A page of the queue", ...notFound },
});

export const evalReviewProgress = rest(op.evalReviewProgress, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/progress",
  summary:
    "A run's review progress, counted now: judged / total, human vs adopted, spot-check left, what adopt would write",
  description:
    "The queue's counts without its rows, for a page to refresh after verdicts and before it offers bulk adoption: `adoptable` (items without a verdict whose suggestion is pass or fail) and `unknownOpen` (unknown suggestions adopt leaves to a person) are what POST /runs/{id}/adopt would do now. `spotCheckLeft` uses the one spot-check rule (suggestion fail or unknown, or any guardrail flag) and counts items without a person's verdict.",
  responses: { 200: "The progress", ...notFound },
});

export const evalQueueNeighbours = rest(op.evalQueueNeighbours, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items/{itemId}/neighbours",
  summary:
    "Where one item sits in the annotation queue under the filters: its place, the items around it, the next without a verdict",
  description:
    "The queue's filters (status, verdict, suggestion, spotCheck, classification, q), no paging. Queue order is the sample position. The item itself need not match the filters (a shared link opens any item; then `position` is null). `before` and `after` list up to 20 matching items on each side (its previous item is the last of `before`, its next the first of `after`). `nextOpen` is the next matching item still to do after it, else the first one before it: without a verdict, and with spotCheck=true also an adopted one (a spot-check item is left until a person has typed its verdict).",
  responses: { 200: "The item's place and neighbours", ...notFound },
});
