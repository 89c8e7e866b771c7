/**
 * Verdicts, bulk adoption and Bad Cases as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.items.verdict`, `eval.runs.adopt`, `eval.badCases.*`, ...).
 */
import { defineOperation } from "../../auth/operation";
import { pageOf } from "../../core/params";
import {
  adjudicate,
  adoptSuggestions,
  createBadCase,
  createBadCasesForRun,
  getBadCase,
  listAudits,
  listBadCases,
  setVerdict,
  undoVerdict,
  updateBadCase,
} from "..";
import {
  EvalAdoptOut,
  EvalAuditsOut,
  EvalItemOut,
  EvalVerdictSetOut,
  EvalVerdictUndoOut,
  RunItemParams,
  RunParams,
} from "../runs/schemas";
import { AUDIT_RULES, REVIEW_RULES } from "../vocabulary";
import {
  AdjudicationInput,
  AdoptInput,
  BadCaseCreatedOut,
  BadCaseDetailOut,
  BadCaseOut,
  BadCaseParams,
  CreateBadCaseInput,
  ListBadCasesQuery,
  RunBadCasesOut,
  UndoVerdictInput,
  UpdateBadCaseInput,
  VerdictInput,
} from "./schemas";

export const evalSetVerdict = defineOperation({
  id: "evalSetVerdict",
  trpc: "eval.items.verdict",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "pass or fail, with an optional comment in `basis` (a pass may carry one too). A fail needs `basis` (400 VERDICT_BASIS_REQUIRED) and `attribution` (400 VERDICT_ATTRIBUTION_REQUIRED; see GET /api/eval/meta). `classification` defaults to the sample's. Only answered or failed items (409 ITEM_NOT_JUDGEABLE). Send `expectedVersion` (the item's `verdictVersion` you saw) to refuse a write over someone else's newer verdict (409 VERDICT_CONFLICT, nothing written). Writes to one item are serialised (row lock): every change is kept as a numbered history chain. The run completes when every item has a verdict.",
    "Each change is a VerdictChange (who: a user id or token:<id>; when; before; after; version 1, 2, 3…); `(itemId, version)` is unique in the database, so a lost update fails loudly. A person changing an adopted verdict makes it `human`; typing the same verdict over an adopted one confirms it (a spot-check item is left until then). Attributions (where in the chain it failed): intent, retrieval, tool, context, generation, guardrail, data, expectation (the sample is wrong), other.",
    "On a run with several reviewers per item (reviewsPerItem > 1) your verdict is your review: a second one replaces your own (the history keeps both); a person who is not yet among the item's reviewers when it has all its reviews gets 409 ITEM_REVIEWS_COMPLETE, and an adjudicated item 409 ITEM_ADJUDICATED.",
    REVIEW_RULES,
  ].join(" "),
  params: RunItemParams,
  body: VerdictInput,
  output: EvalVerdictSetOut,
  run: ({ db, params, body, principal }) => setVerdict(db, params.id, params.itemId, body, principal),
});

export const evalAdjudicate = defineOperation({
  id: "evalAdjudicate",
  trpc: "eval.items.adjudicate",
  kind: "mutation",
  permission: "eval.adjudicate",
  description: [
    "Decides a disputed item (its reviewers disagree; status `disputed`) on a run with several reviewers per item. The adjudicator's verdict is final: it needs a `basis` whatever it is (400 VERDICT_BASIS_REQUIRED) and an `attribution` for a fail (400 VERDICT_ATTRIBUTION_REQUIRED); the reviews stay as they were and the item's `reviews.adjudication` says who and when. Afterwards no review, change or undo is accepted on the item (409 ITEM_ADJUDICATED). An item that is not disputed: 409 ITEM_NOT_DISPUTED. Two adjudicators at once: one wins, the other gets 409 ADJUDICATION_CONFLICT with the winner's verdict (nothing written). Admin and builder (eval.adjudicate).",
    REVIEW_RULES,
  ].join(" "),
  params: RunItemParams,
  body: AdjudicationInput,
  output: EvalItemOut,
  run: ({ db, params, body, principal }) => adjudicate(db, params.id, params.itemId, body, principal),
});

export const evalUndoVerdict = defineOperation({
  id: "evalUndoVerdict",
  trpc: "eval.items.undoVerdict",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "Send `version`: the item's verdictVersion your verdict made (its answer says it). The item gets back the verdict it had before (adopted, another person's, or none) and the history keeps both changes: your verdict and its undo (`after.undoOf` names the version taken back). 409 VERDICT_CONFLICT when anything was written since (nothing changes); 409 VERDICT_NOT_UNDOABLE when the item's last change is not your typed verdict (someone else's, an adoption, or an undo: there is no redo). A completed run whose item loses its verdict awaits review again. The annotation page's U key and Undo button.",
    "Only one step: the undo is itself a change (its `after` carries `undoOf`), and there is no redo.",
  ].join(" "),
  params: RunItemParams,
  body: UndoVerdictInput,
  output: EvalVerdictUndoOut,
  run: ({ db, params, body, principal }) => undoVerdict(db, params.id, params.itemId, body, principal),
});

export const evalAdoptSuggestions = defineOperation({
  id: "evalAdoptSuggestions",
  trpc: "eval.runs.adopt",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "Adopted verdicts are marked source=adopted (never human). Unknown suggestions never become verdicts; items with a verdict are left alone. A fail gets the suggestion's rationale as basis and an attribution derived from its flags. spotCheck: fail, unknown and guardrail-flagged items. Send `{}`.",
    "The attribution of an adopted fail comes from its strongest flag: no_query -> retrieval, execution_error -> tool, refusal -> guardrail, empty_items -> data, else generation. A spot-check item (suggestion fail or unknown, or any flag; also GET /runs/{id}/items?spotCheck=true) stays left until a person has typed its verdict (the same verdict, typed, counts); the progress, the queue's marks, the neighbours' nextOpen and the gate use that one rule.",
    AUDIT_RULES,
  ].join(" "),
  params: RunParams,
  body: AdoptInput,
  output: EvalAdoptOut,
  run: ({ db, params, principal }) => adoptSuggestions(db, params.id, principal),
});

export const evalListAudits = defineOperation({
  id: "evalListAudits",
  trpc: "eval.runs.audits",
  kind: "query",
  permission: "eval.read",
  description: [
    "Every adoption's audit of the passes it wrote, oldest first: the population (item ids, sorted), the seed, the algorithm and the drawn sample with its keys, and the run's auditRate and maxAuditOverturn (fixed when the run was created). With the verdict history (GET /runs/{id}/items/{itemId}) this is what the gate's GATE_AUDIT_PENDING and GATE_AUDIT_OVERTURNED rest on.",
    AUDIT_RULES,
  ].join(" "),
  params: RunParams,
  output: EvalAuditsOut,
  run: ({ db, params }) => listAudits(db, params.id),
});

export const evalCreateBadCase = defineOperation({
  id: "evalCreateBadCase",
  trpc: "eval.items.badCase",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "Only items whose verdict is fail (409 BAD_CASE_REQUIRES_FAIL). Body `{ title?, notes? }` (send `{}` for defaults).",
    "A Bad Case links sample, run and item; its states: open -> fixing -> fixed -> verified | wont_fix. One per item (unique in the database): callers racing on one item get the same Bad Case (the later one with created: false), never a 500. Every Bad Case keeps its history (created, each status change with who and when).",
  ].join(" "),
  params: RunItemParams,
  body: CreateBadCaseInput,
  output: BadCaseCreatedOut,
  run: ({ db, params, body, principal }) => createBadCase(db, params.id, params.itemId, body, principal),
});

export const evalCreateRunBadCases = defineOperation({
  id: "evalCreateRunBadCases",
  trpc: "eval.runs.badCases",
  kind: "mutation",
  permission: "eval.annotate",
  description:
    "Counts only the Bad Cases it made: items given one meanwhile are skipped (one insert per 500 items, ON CONFLICT DO NOTHING, and one event each). Idempotent: a second call makes none.",
  params: RunParams,
  output: RunBadCasesOut,
  run: ({ db, params, principal }) => createBadCasesForRun(db, params.id, principal),
});

export const evalListBadCases = defineOperation({
  id: "evalListBadCases",
  trpc: "eval.badCases.list",
  kind: "query",
  permission: "eval.read",
  description:
    "`runId` takes a short Run ID too; `classification` is the scenario as the list shows it (the item's verdict scenario, else the sample's); also attribution, setId, agentId, status.",
  query: ListBadCasesQuery,
  output: pageOf(BadCaseOut),
  run: ({ db, query }) => listBadCases(db, query),
});

export const evalGetBadCase = defineOperation({
  id: "evalGetBadCase",
  trpc: "eval.badCases.get",
  kind: "query",
  permission: "eval.read",
  description:
    "With its history (each status change with who, when, the verifying run or a manager's reason), the question's expected points, `foundInVersion` (the agent version it was found with), `verifiableBy` (the newest later run of the set answered in the platform by a newer agent version with a pass for the question, typed or adopted, and who gave it: what setting the status to verified rests on; null while there is none) and `latestRun` (the newest later run holding the question, e.g. the re-run, with its verdict or its answering state, its mode and version, and `notEvidence`: why it cannot verify, pasted or not_newer).",
  params: BadCaseParams,
  output: BadCaseDetailOut,
  run: ({ db, params }) => getBadCase(db, params.id),
});

export const evalUpdateBadCase = defineOperation({
  id: "evalUpdateBadCase",
  trpc: "eval.badCases.update",
  kind: "mutation",
  permission: "eval.annotate",
  description: [
    "Status `verified` needs evidence: a later run of the Bad Case's set answered in the platform (not pasted answers) by an agent version newer than the one it was found with (`foundInVersion`), in which a person passed the question (typed or adopted); the newest such run is kept as `verifiedRunId`. Without one, a manager (eval.manage: admin, builder) may verify with `reason`, kept as `verifiedReason` and in the history with who and when. Otherwise 409 BAD_CASE_NOT_VERIFIED, saying what is missing (details: the question, `foundInVersion`, the newest later pass and why it does not count); a `reason` from a role without eval.manage: 403; a `reason` with another status: 400. Any other status drops `verifiedRunId` and `verifiedReason` (the history keeps them).",
    "Bad Cases verified before this rule keep their status. Leaving verified and coming back needs evidence or a reason again.",
  ].join(" "),
  params: BadCaseParams,
  body: UpdateBadCaseInput,
  output: BadCaseOut,
  run: ({ db, params, body, principal }) => updateBadCase(db, params.id, body, principal),
});
