/**
 * The online feedback loop as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.online.*`).
 */
import { defineOperation } from "../../auth/operation";
import {
  acknowledgeAlert,
  addTraceToPool,
  createAlertRule,
  deleteAlertRule,
  getOnlineJudging,
  listAlertRules,
  listAlerts,
  putOnlineJudging,
  updateAlertRule,
  confirmSample,
  dismissLead,
  leadsPerDay,
  listLeads,
  loopBoard,
  restoreLead,
  unconfirmSample,
} from "..";
import { DeletedOut, EvalSampleOut } from "../sets/schemas";
import {
  AlertIdParams,
  AlertOut,
  AlertRuleIdParams,
  AlertRuleInput,
  AlertRuleOut,
  AlertRulePatch,
  AlertRulesOut,
  AlertRulesQuery,
  AlertsOut,
  AlertsQuery,
  JudgingParams,
  OnlineJudgingInput,
  OnlineJudgingOut,
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

/** What every online judging operation's description starts with. */
const JUDGING =
  "Sampled online judging: a judge looks at a share of the agent's online answers (chat and API) in the background, after the chat answered (the durable queue eval-online; the chat never waits for it). An answer is sampled when a hash of its trace id falls below samplingRate (deterministic: every instance and retry decides the same), then the filters apply: source (chat or api), minLength (characters of the user's message), scenario ({ ref: a template such as {{detect.result.scene}} read from the trace's steps, values: the scenarios judged, case-insensitive}). A judged fail or unknown makes the answer a lead with the signal judge_fail or judge_unknown and the judge's rationale (GET /api/eval/online/leads?signal=judge_fail).";

export const evalGetOnlineJudging = defineOperation({
  id: "evalGetOnlineJudging",
  trpc: "eval.online.judging.get",
  kind: "query",
  permission: "eval.read",
  description: `${JUDGING} Answers the agent's rule (null when none was set) and its judgments of the last 7 days by verdict. An unknown agent is 404.`,
  params: JudgingParams,
  output: OnlineJudgingOut,
  run: ({ db, params }) => getOnlineJudging(db, params.agentId),
});

export const evalPutOnlineJudging = defineOperation({
  id: "evalPutOnlineJudging",
  trpc: "eval.online.judging.put",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    `${JUDGING} Sets the agent's rule whole (a change applies to answers from then on; nothing already judged is judged again).`,
    "Judges: llm, the LLM judge with its reference-free rubric (does the answer address the question, use what the agent's queries returned, invent nothing; one criterion not met is fail, all met pass, otherwise unknown; without a model provider every sampled answer is unknown with that reason); agent, a judge agent's pinned version, run with expected_points: [] beside question, answer, payload and scenario (404 JUDGE_VERSION_NOT_FOUND, 400 JUDGE_NOT_A_JUDGE, 400 WORKFLOW_INVALID as for a set's judge). builtin is refused with 400 JUDGE_NEEDS_POINTS: it needs expected points. samplingRate outside 0..1 is 400 REQUEST_INVALID; an unknown agent 404. An answer whose run failed or is empty is not judged (its guardrail signal makes it a lead already).",
  ].join(" "),
  params: JudgingParams,
  body: OnlineJudgingInput,
  output: OnlineJudgingOut,
  run: ({ db, params, body, principal }) => putOnlineJudging(db, params.agentId, body, principal),
});

/** What every alert operation's description starts with. */
const ALERTS =
  "Alerts on an agent's online answers: a rule of kind share (more than percent % of the last lastN online answers are leads; it waits for lastN answers) or count (at least minCount leads among the online answers of the last windowMinutes), optionally of one lead signal. Rules are evaluated by the online worker after each batch of online answers and each judgment (within seconds of the answer that crosses one, never on the chat's path). A rule that fires records an alert with its figures, sends the webhook event alert.fired (the figures and leadsUrl, a link to the leads) and does not fire again for cooldownMinutes; the alert shows on the online loop tab until a person acknowledges it.";

export const evalListAlertRules = defineOperation({
  id: "evalListAlertRules",
  trpc: "eval.online.alertRules.list",
  kind: "query",
  permission: "eval.read",
  description: `${ALERTS} The agent's rules, oldest first, each with lastFiredAt.`,
  query: AlertRulesQuery,
  output: AlertRulesOut,
  run: ({ db, query }) => listAlertRules(db, query.agentId),
});

export const evalCreateAlertRule = defineOperation({
  id: "evalCreateAlertRule",
  trpc: "eval.online.alertRules.create",
  kind: "mutation",
  permission: "eval.manage",
  description: `${ALERTS} A share rule needs lastN (1..1000) and percent (0..100), a count rule minCount (1..10000) and windowMinutes (1..10080): 400 REQUEST_INVALID naming the missing field. cooldownMinutes defaults to 60 (0..10080). At most 20 rules per agent (413 EVAL_LIMIT_EXCEEDED). An unknown agent is 404.`,
  body: AlertRuleInput,
  output: AlertRuleOut,
  run: ({ db, body, principal }) => createAlertRule(db, body, principal),
});

export const evalUpdateAlertRule = defineOperation({
  id: "evalUpdateAlertRule",
  trpc: "eval.online.alertRules.update",
  kind: "mutation",
  permission: "eval.manage",
  description: `${ALERTS} Changes the fields given (the kind stays: a figure of the other kind is 400 REQUEST_INVALID); disabling stops its evaluation, the cool-down of a past firing stays.`,
  params: AlertRuleIdParams,
  body: AlertRulePatch,
  output: AlertRuleOut,
  run: ({ db, params, body }) => updateAlertRule(db, params.id, body),
});

export const evalDeleteAlertRule = defineOperation({
  id: "evalDeleteAlertRule",
  trpc: "eval.online.alertRules.delete",
  kind: "mutation",
  permission: "eval.manage",
  description: `${ALERTS} Deletes the rule and its alerts.`,
  params: AlertRuleIdParams,
  output: DeletedOut,
  run: ({ db, params }) => deleteAlertRule(db, params.id),
});

export const evalListAlerts = defineOperation({
  id: "evalListAlerts",
  trpc: "eval.online.alerts.list",
  kind: "query",
  permission: "eval.read",
  description: `${ALERTS} The agent's alerts, newest first (open=true: not acknowledged yet, the banner's), each with its figures (answers, leads, percent or the window, the leads counted) and leadsUrl.`,
  query: AlertsQuery,
  output: AlertsOut,
  run: ({ db, query }) => listAlerts(db, query),
});

export const evalAcknowledgeAlert = defineOperation({
  id: "evalAcknowledgeAlert",
  trpc: "eval.online.alerts.acknowledge",
  kind: "mutation",
  permission: "eval.annotate",
  description: `${ALERTS} Acknowledges an alert: it leaves the banner (idempotent: a second acknowledgement keeps the first's who and when). The rule's cool-down is not changed. Anyone who reviews (eval.annotate) may acknowledge.`,
  params: AlertIdParams,
  output: AlertOut,
  run: ({ db, params, principal }) => acknowledgeAlert(db, params.id, principal),
});
