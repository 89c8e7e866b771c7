/**
 * Runs, pasted answers and a run's items as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.*`, `eval.items.*`).
 */
import { defineOperation } from "../../auth/operation";
import { actorRef } from "../../auth/service";
import { pageOf } from "../../core/params";
import {
  ANSWERING_RULES,
  RUN_LIFECYCLE,
  REVIEW_RULES,
  SUGGESTION_RULES,
  cancelRun,
  closeAnswering,
  createRun,
  getItem,
  getRun,
  listItems,
  listQueue,
  listRuns,
  queueNeighbours,
  rerunRun,
  resuggestRun,
  progressWithPeople,
  startRun,
  claimNextItem,
  reserveItem,
  releaseItem,
  assignItems,
  getAssignment,
  submitPastedAnswers,
} from "..";
import {
  CreateRunInput,
  EvalCloseAnsweringOut,
  EvalItemDetailOut,
  EvalItemListOut,
  EvalPastedAnswersOut,
  EvalQueueNeighboursOut,
  EvalQueueOut,
  EvalResuggestOut,
  ResuggestInput,
  EvalReviewProgressOut,
  EvalRunOut,
  AssigneesInput,
  EvalAssigneesOut,
  EvalAssignmentOut,
  EvalQueueNextOut,
  EvalReservationOut,
  QueueNextInput,
  ListItemsQuery,
  ListRunsQuery,
  PastedAnswersInput,
  QueueFilterQuery,
  RerunInput,
  RunItemParams,
  RunParams,
} from "./schemas";

export const evalCreateRun = defineOperation({
  id: "evalCreateRun",
  trpc: "eval.runs.create",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    `A draft version answers 400 SET_VERSION_NOT_FROZEN. The run snapshots the agent's workflow version (latest, or agentVersion) and gets a short Run ID. mode: in_platform (the platform answers through the runtime at the tier, never the online answer cache) or pasted (answers uploaded). tier: pipeline_live | pipeline | invoke. ${RUN_LIFECYCLE}`,
    "Every sample of the version becomes an item. concurrency defaults to EVAL_CONCURRENCY (4; 1..32); environment is a free label. The Run ID is `R-` and five Crockford base32 characters (no I L O U); it and the id are accepted wherever a run is addressed. The run keeps the set's gate threshold of this moment.",
    'repeats (in-platform runs, 1-5, default 1; kept with the run, a re-run copies it): each question is answered that many times and every answer gets a machine suggestion; people judge the first answer and the gate counts only verdicts; the item detail lists the other answers (otherAnswers) and the report\'s consistency lists the questions whose suggestions differ (unstable: [{ key, suggestions, text: "unstable: pass 2 of 3" }], unstableShare). A pasted run with repeats other than 1, and repeats 0, 6 or not an integer, answer 400 REQUEST_INVALID.',
  ].join(" "),
  body: CreateRunInput,
  output: EvalRunOut,
  run: ({ db, body, principal }) => createRun(db, body, principal),
});

export const evalListRuns = defineOperation({
  id: "evalListRuns",
  trpc: "eval.runs.list",
  kind: "query",
  permission: "eval.read",
  description:
    "`q` searches the short Run ID, the set's name and the environment; `unfiledFails=true` keeps runs with failed items that have no Bad Case yet. Every run's `progress` counts judged and, of those, adopted and human (typed by people), fails and unfiledFails.",
  query: ListRunsQuery,
  output: pageOf(EvalRunOut),
  run: ({ db, query }) => listRuns(db, query),
});

export const evalGetRun = defineOperation({
  id: "evalGetRun",
  trpc: "eval.runs.get",
  kind: "query",
  permission: "eval.read",
  description: "Addressed by id or short Run ID.",
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => getRun(db, params.id),
});

export const evalStartRun = defineOperation({
  id: "evalStartRun",
  trpc: "eval.runs.start",
  kind: "mutation",
  permission: "eval.manage",
  description: `In-platform runs queue every item (an answering run's unfinished items are queued again; the queue ignores duplicates). Pasted runs start accepting answers (the first upload starts them too). Starting again changes nothing; a cancelled or failed run answers 409 RUN_STATE_CONFLICT. ${ANSWERING_RULES} ${RUN_LIFECYCLE}`,
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => startRun(db, params.id),
});

export const evalCancelRun = defineOperation({
  id: "evalCancelRun",
  trpc: "eval.runs.cancel",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Pending items become cancelled; executions in flight are aborted (on this instance at once, on other instances within a poll interval); answers already finished are kept. Cancelling a cancelled run changes nothing; other states answer 409 RUN_STATE_CONFLICT.",
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => cancelRun(db, params.id),
});

export const evalCloseAnswering = defineOperation({
  id: "evalCloseAnswering",
  trpc: "eval.runs.close",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Every item still pending becomes `failed` with error `NOT_ANSWERED` (judgeable; the built-in rules suggest fail) and is listed in `unanswered`. The gate still needs a verdict for every question. Only pasted runs (409 RUN_MODE_MISMATCH) that are created or answering (409 RUN_STATE_CONFLICT).",
  params: RunParams,
  output: EvalCloseAnsweringOut,
  run: ({ db, params }) => closeAnswering(db, params.id),
});

export const evalRerun = defineOperation({
  id: "evalRerun",
  trpc: "eval.runs.rerun",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "Snapshots the agent's current workflow version (or agentVersion). Send `{}` for the defaults.",
    "rerunOfId links the new run to this one; GET /api/eval/runs?rerunOf= lists the re-runs.",
  ].join(" "),
  params: RunParams,
  body: RerunInput,
  output: EvalRunOut,
  run: ({ db, params, body, principal }) => rerunRun(db, params.id, body, principal),
});

export const evalPasteAnswers = defineOperation({
  id: "evalPasteAnswers",
  trpc: "eval.runs.answers",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "Body: `{ answers: [{ sampleId | key, answer, payload?, traceId?, latencyMs?, error? }] }` or `{ format: json|jsonl|csv, content }` with columns sample_id or key, answer, payload, trace_id, latency_ms, error. Invalid rows reject the upload (400 IMPORT_INVALID, row errors). Rows matching no sample come back in `unmatched`; items that already have a verdict are `skipped`. Machine suggestions are computed at once (built-in judge) or queued (LLM judge). When no item is left pending the run awaits review.",
    "Only pasted runs that are created or answering; the first upload moves a created run to answering. Rows carry text PostgreSQL can store (a NUL or lone surrogate is a row error).",
  ].join(" "),
  params: RunParams,
  body: PastedAnswersInput,
  output: EvalPastedAnswersOut,
  run: ({ db, params, body }) => submitPastedAnswers(db, params.id, body),
});

export const evalResuggest = defineOperation({
  id: "evalResuggest",
  trpc: "eval.runs.suggest",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "Every answered or failed item gets a new suggestion (a new judge call for the LLM judge, with an Idempotency-Key of its own).",
    "Without `judge`, with the run's judge (the set's judge when the run was created), replacing the items' suggestions.",
    "With `judge` (builtin, llm, or a judge agent's pinned version, checked like a set's judge: JUDGE_VERSION_NOT_FOUND, JUDGE_NOT_A_JUDGE, WORKFLOW_INVALID), a judge other than the run's re-judges the run: its suggestions are kept in each item's `otherSuggestions` under the judge's key, beside the earlier ones; the run's own suggestions stay what the queue, spot-checks and adoption use.",
    "The built-in judge judges at once (`judged`); a model or agent judge through the queue (`queued`). A judge agent's failure (its run failed or timed out, its answer is not a judge answer) is an unknown suggestion with the reason, never a pass. Judge calls count as judging tokens in usage.",
    SUGGESTION_RULES,
  ].join(" "),
  params: RunParams,
  body: ResuggestInput,
  output: EvalResuggestOut,
  run: ({ db, params, body }) => resuggestRun(db, params.id, {}, body),
});

export const evalListItems = defineOperation({
  id: "evalListItems",
  trpc: "eval.items.list",
  kind: "query",
  permission: "eval.read",
  description: `Filters: status (disputed: items whose reviewers disagree), verdict (pass|fail|none), suggestion (pass|fail|unknown|none), spotCheck=true (suggestion fail or unknown, or any guardrail flag; every such item, checked or not). ${REVIEW_RULES}`,
  params: RunParams,
  query: ListItemsQuery,
  output: EvalItemListOut,
  run: ({ db, params, query, principal }) => listItems(db, params.id, query, actorRef(principal)),
});

export const evalListQueue = defineOperation({
  id: "evalListQueue",
  trpc: "eval.items.queue",
  kind: "query",
  permission: "eval.read",
  description: [
    "The same filters as GET /runs/{id}/items (status, verdict, suggestion, spotCheck, classification, q), but rows without answers or payloads (key, question cut at 240 characters, effective classification, status, suggestion verdict and flags, verdict and its source, spot-check mark and whether it is left (`spotCheckLeft`: no verdict a person typed), Bad Case), plus counts: total, judged, human-typed, adopted, spot-check items not yet confirmed by a person, what bulk adopt would write now, unknown suggestions left to a person, and items matching the filters.",
    "On a run with several reviewers per item each row carries `reviews` { needed, given, mine } (your own verdict, never the others': blind review); status=disputed lists the items an adjudicator decides.",
    "The first page (no cursor) carries the progress with `matching`; the pages after it carry `counts: null` (refresh the progress from GET /runs/{id}/progress), so paging a long queue does not recount it.",
  ].join(" "),
  params: RunParams,
  query: ListItemsQuery,
  output: EvalQueueOut,
  run: ({ db, params, query, principal }) => listQueue(db, params.id, query, actorRef(principal)),
});

export const evalGetItem = defineOperation({
  id: "evalGetItem",
  trpc: "eval.items.get",
  kind: "query",
  permission: "eval.read",
  description: `The verdict history is a complete chain: each change has who (a user id or token:<id>), when, before, after and its version 1, 2, 3…; a reviewer who has not given their verdict yet sees only their own changes (blind review). ${REVIEW_RULES} ${SUGGESTION_RULES}`,
  params: RunItemParams,
  output: EvalItemDetailOut,
  run: ({ db, params, principal }) => getItem(db, params.id, params.itemId, actorRef(principal)),
});

export const evalReviewProgress = defineOperation({
  id: "evalReviewProgress",
  trpc: "eval.items.progress",
  kind: "query",
  permission: "eval.read",
  description:
    "The queue's counts without its rows, for a page to refresh after verdicts and before it offers bulk adoption: `adoptable` (items without a verdict whose suggestion is pass or fail) and `unknownOpen` (unknown suggestions adopt leaves to a person) are what POST /runs/{id}/adopt would do now. `spotCheckLeft` uses the one spot-check rule (suggestion fail or unknown, or any guardrail flag) and counts items without a person's verdict. `people`: per person (everyone who reviewed, holds a live reservation or is assigned items on the run) reviewed, reserved, assigned, left (assigned items still to do for them) and itemsPerHour (their reviews per hour between their first and last review; null before the second). An API token counts as the user who owns it.",
  params: RunParams,
  output: EvalReviewProgressOut,
  run: ({ db, params }) => progressWithPeople(db, params.id),
});

export const evalQueueNeighbours = defineOperation({
  id: "evalQueueNeighbours",
  trpc: "eval.items.neighbours",
  kind: "query",
  permission: "eval.read",
  description:
    "The queue's filters (status, verdict, suggestion, spotCheck, classification, q), no paging. Queue order is the sample position. The item itself need not match the filters (a shared link opens any item; then `position` is null). `before` and `after` list up to 20 matching items on each side (its previous item is the last of `before`, its next the first of `after`). `nextOpen` is the next matching item still to do after it, else the first one before it: without a verdict, and with spotCheck=true also an adopted one (a spot-check item is left until a person has typed its verdict); never a disputed item, nor one you have already reviewed.",
  params: RunItemParams,
  query: QueueFilterQuery,
  output: EvalQueueNeighboursOut,
  run: ({ db, params, query, principal }) => queueNeighbours(db, params.id, params.itemId, query, actorRef(principal)),
});

const RESERVATION_RULES =
  "A reservation holds an item for one person for 10 minutes (RESERVATION_MS) after it is taken or renewed; it is released by that person's verdict on the item or by DELETE /runs/{id}/items/{itemId}/reservation (leaving it), and lapses after 10 minutes without renewal. An item is reserved by at most as many people as it still needs reviews (the run's reviewsPerItem minus the reviews given), never twice by one person, never by someone who has reviewed it. Reservation is a courtesy, not a lock: a verdict on an item reserved by someone else is accepted (the item and queue answers carry `queue.reservedByOthers`, and the reservation's answer `heldBy` names those people, so a page can warn first). An API token reserves and reviews as the user who owns it.";

export const evalQueueNext = defineOperation({
  id: "evalQueueNext",
  trpc: "eval.items.next",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "Reserves the next item of the queue for you and returns it. Body: the queue's filters (status, verdict, suggestion, spotCheck, classification, source, q; all optional). The next item is the first in queue order (sample position) that you can judge (answered or failed) and is still to do for you (no final verdict, with spotCheck=true or source=adopted also an adopted one; not disputed; not reviewed by you), that you do not hold already and that is not reserved by as many people as it still needs reviews: first among the items assigned to you (`fromAssigned: true`), then the unassigned ones, then those assigned to others (`queue.assignedToOther: true`). Each call reserves a further item; to keep one, renew it with PUT /runs/{id}/items/{itemId}/reservation.",
    "When nothing is left to reserve for you the answer is 200 with `item: null` and `noneLeft: true`. Concurrent calls never hand one item to more people than it needs, nor twice to one person: the claim is one atomic UPDATE that skips rows another caller is claiming.",
    RESERVATION_RULES,
  ].join(" "),
  params: RunParams,
  body: QueueNextInput,
  output: EvalQueueNextOut,
  run: ({ db, params, body, principal }) => claimNextItem(db, params.id, body, actorRef(principal)),
});

export const evalReserveItem = defineOperation({
  id: "evalReserveItem",
  trpc: "eval.items.reserve",
  kind: "mutation",
  permission: "eval.annotate",
  description: `Reserves this item for you, or renews your reservation (another 10 minutes from now): the annotation page calls it when an item opens and every few minutes while it stays open. \`reserved: false\` (200) when the item needs no more reviewers: its places are reserved by others or reviewed, or it has its final verdict or is disputed. ${RESERVATION_RULES}`,
  params: RunItemParams,
  output: EvalReservationOut,
  run: ({ db, params, principal }) => reserveItem(db, params.id, params.itemId, actorRef(principal)),
});

export const evalReleaseItem = defineOperation({
  id: "evalReleaseItem",
  trpc: "eval.items.release",
  kind: "mutation",
  permission: "eval.annotate",
  description: `Releases your reservation of this item (leaving it); releasing one you do not hold changes nothing. Over REST it takes the browser's session cookie and no body, so a page that is closing can send it with \`fetch(url, { method: "DELETE", keepalive: true })\` (the annotation page does on \`pagehide\`). ${RESERVATION_RULES}`,
  params: RunItemParams,
  output: EvalReservationOut,
  run: ({ db, params, principal }) => releaseItem(db, params.id, params.itemId, actorRef(principal)),
});

export const evalGetAssignees = defineOperation({
  id: "evalGetAssignees",
  trpc: "eval.runs.assignees",
  kind: "query",
  permission: "eval.manage",
  description:
    "The run's assignment as stored (the people its items are split between, the seed, when it was set) and the candidates: every enabled user whose role may review (admin, builder, annotator), with name and e-mail. Listing users is otherwise for admins (Settings); this list is what a manager (eval.manage) needs to choose whom to assign, and nothing more.",
  params: RunParams,
  output: EvalAssignmentOut,
  run: ({ db, params }) => getAssignment(db, params.id),
});

export const evalPutAssignees = defineOperation({
  id: "evalPutAssignees",
  trpc: "eval.runs.assign",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Assigns the run's items to people: `{ userIds, seed? }` splits all its items evenly (each person gets the item count divided by the number of people, rounded down or up) and at random: a seeded shuffle (mulberry32, Fisher-Yates) dealt in turn in the order of userIds; the seed (drawn when not given) is stored with the run, so the same seed and people reproduce the same split. Each item stores its person; assigning again replaces the split, an empty list removes it. Each person's POST /runs/{id}/queue/next starts with their own items; the others' items stay reachable and are marked `queue.assignedToOther` in item and queue answers. A user id that is not an enabled user answers 400 REQUEST_INVALID naming it.",
  params: RunParams,
  body: AssigneesInput,
  output: EvalAssigneesOut,
  run: ({ db, params, body, principal }) => assignItems(db, params.id, body, actorRef(principal)),
});
