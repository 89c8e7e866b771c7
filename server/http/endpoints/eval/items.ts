import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, conflict, invalid } from "./shared";

/** A run's items, human verdicts, bulk adoption over REST (/api/eval/*); handlers only call server/eval. */

export const evalListItems = rest(op.evalListItems, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items",
  summary: "A run's items: answer, payload, trace, latency, tokens, error, suggestion, verdict",
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
  responses: {
    200: "The item (changed: false when nothing differed)",
    ...invalid("VERDICT_BASIS_REQUIRED or VERDICT_ATTRIBUTION_REQUIRED"),
    ...notFound,
    ...conflict("ITEM_NOT_JUDGEABLE, VERDICT_CONFLICT, ITEM_REVIEWS_COMPLETE or ITEM_ADJUDICATED"),
  },
});

export const evalAdjudicate = rest(op.evalAdjudicate, {
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/items/{itemId}/adjudication",
  summary: "Decide a disputed item (its reviewers disagree): the adjudicator's verdict is final",
  responses: {
    200: "The item with its final verdict",
    ...invalid("VERDICT_BASIS_REQUIRED or VERDICT_ATTRIBUTION_REQUIRED"),
    ...notFound,
    ...conflict("ITEM_NOT_DISPUTED or ADJUDICATION_CONFLICT (details: the winner's verdict)"),
  },
});

export const evalUndoVerdict = rest(op.evalUndoVerdict, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/items/{itemId}/verdict/undo",
  summary: "Undo: take back your own last typed verdict on an item (one step)",
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
  responses: {
    200: "Adopted",
    ...notFound,
  },
});

export const evalListAudits = rest(op.evalListAudits, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/audits",
  summary: "The audits of adopted passes: each adoption's population, seed, algorithm and drawn sample",
  responses: { 200: "The run's audits", ...notFound },
});

export const evalListQueue = rest(op.evalListQueue, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/queue",
  summary: "The annotation queue: compact item rows and the review progress",
  responses: { 200: "A page of the queue", ...notFound },
});

export const evalReviewProgress = rest(op.evalReviewProgress, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/progress",
  summary:
    "A run's review progress, counted now: judged / total, human vs adopted, spot-check left, what adopt would write",
  responses: { 200: "The progress", ...notFound },
});

export const evalQueueNeighbours = rest(op.evalQueueNeighbours, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items/{itemId}/neighbours",
  summary:
    "Where one item sits in the annotation queue under the filters: its place, the items around it, the next without a verdict",
  responses: { 200: "The item's place and neighbours", ...notFound },
});

export const evalQueueNext = rest(op.evalQueueNext, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/queue/next",
  summary: "Reserve the next queue item for you (10 minutes) and return it, or noneLeft",
  responses: { 200: "The reserved item, or `item: null` with `noneLeft: true`", ...invalid(), ...notFound },
});

export const evalReserveItem = rest(op.evalReserveItem, {
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/items/{itemId}/reservation",
  summary: "Reserve this item for you or renew your reservation (10 minutes from now)",
  responses: { 200: "Your reservation (reserved: false when the item needs no more reviewers)", ...notFound },
});

export const evalReleaseItem = rest(op.evalReleaseItem, {
  ...base,
  method: "DELETE",
  path: "/api/eval/runs/{id}/items/{itemId}/reservation",
  summary: "Release your reservation of this item (leaving it)",
  responses: { 200: "The item's reservations after the release", ...notFound },
});
