import { z } from "zod";
import type { EvalCompare, In } from "./types";

/**
 * Everything a view of the evaluation center shows is in its URL, so any view can be shared and reloaded:
 * `/eval?tab=<tab>&agent=<agentId>&...`. Pure: parsing is tolerant (an unknown or broken value falls back to the
 * default instead of failing) and serialising writes parameters in a fixed order and omits defaults.
 *
 *   online-loop    (default) leads filters: status (new|in_pool|dismissed), signal, score (max feedback score 1..5),
 *                  from/to (days, YYYY-MM-DD)
 *   sets           set=<setId> v=<version> q=<sample search> judge=<judge key: the Judge card's calibration of it>
 *   runs           run=<id|R-XXXXX>
 *                  | view=compare a=<run> b=<run> [q=<key or text>] [outcome=<outcome>] [page=<n>] [open=<sample key>]
 *                  | view=compare runs=<run>,<run>[,...up to 8] [changed=1] [failing=1] [q=...] [page=<n>]
 *                  | view=usage [from=<YYYY-MM-DD>] [to=<YYYY-MM-DD>] [scope=all]
 *                  list filters: set, status, tier
 *   annotation     run=<id|R-XXXXX> item=<itemId>; filters: verdict, suggestion, spot, source (adopted: not yet
 *                  typed by a person; with verdict=pass the adopted passes an overturning audit asks people to review), cls, q
 *   bad-cases      case=<badCaseId>; filters: status, attribution, cls (scenario), run, set
 *   intent-shadow
 */
export const EVAL_TABS = [
  { id: "online-loop", label: "Online feedback loop" },
  { id: "sets", label: "Evaluation sets" },
  { id: "runs", label: "Runs" },
  { id: "annotation", label: "Annotation" },
  { id: "bad-cases", label: "Bad Case" },
  { id: "intent-shadow", label: "Intent shadow" },
] as const;
export type EvalTab = (typeof EVAL_TABS)[number]["id"];
const TAB_IDS = EVAL_TABS.map((t) => t.id) as [EvalTab, ...EvalTab[]];

const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const opt = <T extends z.ZodType>(s: T) => s.optional().catch(undefined);
const text = z.string().trim().min(1).max(200);
/** A calendar day that exists (2026-02-30 does not). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d));
/**
 * The server's values of a union type `T` the URL must recognise, which the browser may not import (components reach
 * the server through tRPC; its types only): the list is checked both ways against the server's type, so a value
 * the server adds or drops fails to compile here instead of drifting. What people read of them (labels, meanings)
 * comes from the server's vocabulary (`eval.meta`).
 */
const everyOf =
  <T extends string>() =>
  <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L =>
    list;
/** The comparison's outcomes (the server's, `EvalCompare`), in the order the page offers them. */
export type CompareOutcome = EvalCompare["questions"][number]["outcome"];
export const COMPARE_OUTCOMES = everyOf<CompareOutcome>()([
  "regressed",
  "fixed",
  "both_fail",
  "both_pass",
  "incomplete",
  "only_a",
  "only_b",
]);
/** The online loop's lead signals (the server's, the leads query's `signal`). */
export type LeadSignal = NonNullable<In["online"]["leads"]["signal"]>;
const LEAD_SIGNAL_IDS = everyOf<LeadSignal>()([
  "low_score",
  "execution_error",
  "empty_items",
  "no_query",
  "judge_fail",
  "judge_unknown",
]);

export const EvalUrlSchema = z.object({
  tab: z.enum(TAB_IDS).catch("online-loop"),
  agent: opt(id),
  // sets
  set: opt(id),
  v: opt(z.coerce.number().int().min(1).max(2_147_483_647)),
  judge: opt(z.string().regex(/^(builtin|llm|agent:[A-Za-z0-9_-]{1,64}@[1-9][0-9]{0,8})$/)),
  // runs and annotation
  run: opt(id),
  view: opt(z.enum(["compare", "usage"])),
  a: opt(id),
  b: opt(id),
  // the many-run comparison: 2 to 8 runs, comma-separated, and its two filters
  runs: opt(z.string().regex(/^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){1,7}$/)),
  changed: opt(z.enum(["1"])),
  failing: opt(z.enum(["1"])),
  item: opt(id),
  case: opt(id),
  // filters
  status: opt(z.string().regex(/^[a-z_]{1,32}$/)),
  tier: opt(z.enum(["pipeline_live", "pipeline", "invoke"])),
  verdict: opt(z.enum(["pass", "fail", "none"])),
  suggestion: opt(z.enum(["pass", "fail", "unknown", "none"])),
  spot: opt(z.enum(["1"])),
  source: opt(z.enum(["adopted", "human"])),
  cls: opt(text),
  attribution: opt(z.string().regex(/^[a-z_]{1,40}$/)),
  q: opt(text),
  // the comparison: one outcome, the page (1-based), the opened question (its sample key)
  outcome: opt(z.enum(COMPARE_OUTCOMES)),
  page: opt(z.coerce.number().int().min(1).max(1_000_000)),
  open: opt(text),
  // a range of days: usage's range and the online loop's lead range
  from: opt(day),
  to: opt(day),
  scope: opt(z.enum(["all"])),
  // online loop leads
  signal: opt(z.enum(LEAD_SIGNAL_IDS)),
  score: opt(z.coerce.number().int().min(1).max(5)),
});
export type EvalUrl = z.output<typeof EvalUrlSchema>;

/** The order parameters are written in (and the only ones written). */
const ORDER = [
  "tab",
  "agent",
  "set",
  "v",
  "judge",
  "run",
  "view",
  "a",
  "b",
  "runs",
  "changed",
  "failing",
  "item",
  "case",
  "status",
  "tier",
  "verdict",
  "suggestion",
  "spot",
  "source",
  "cls",
  "attribution",
  "q",
  "signal",
  "score",
  "outcome",
  "page",
  "open",
  "from",
  "to",
  "scope",
] as const satisfies ReadonlyArray<keyof EvalUrl>;

type SearchParamsLike = { get(name: string): string | null } | URLSearchParams;

export function parseEvalUrl(params: SearchParamsLike | Record<string, string | string[] | undefined>): EvalUrl {
  const raw: Record<string, string | undefined> = {};
  for (const k of ORDER) {
    const v =
      "get" in params && typeof params.get === "function"
        ? (params as SearchParamsLike).get(k)
        : (params as Record<string, string | string[] | undefined>)[k];
    raw[k] = Array.isArray(v) ? v[0] : (v ?? undefined);
  }
  return EvalUrlSchema.parse(raw);
}

/** `/eval?...` for a state; the default tab is written only when other parameters need it to be explicit. */
export function evalHref(state: Partial<EvalUrl>): string {
  const sp = new URLSearchParams();
  for (const k of ORDER) {
    const v = state[k];
    if (v === undefined || v === null || v === "") continue;
    if (k === "tab" && v === "online-loop") continue;
    sp.set(k, String(v));
  }
  const qs = sp.toString();
  return qs ? `/eval?${qs}` : "/eval";
}

/** Which parameters belong to which tab: switching tabs keeps the agent and drops the other tab's state. */
const TAB_KEYS: Record<EvalTab, ReadonlyArray<keyof EvalUrl>> = {
  "online-loop": ["status", "signal", "score", "from", "to", "q"],
  sets: ["set", "v", "judge", "q"],
  runs: [
    "run",
    "view",
    "a",
    "b",
    "runs",
    "changed",
    "failing",
    "set",
    "status",
    "tier",
    "q",
    "outcome",
    "page",
    "open",
    "from",
    "to",
    "scope",
  ],
  annotation: ["run", "item", "verdict", "suggestion", "spot", "source", "status", "cls", "q"],
  "bad-cases": ["case", "status", "attribution", "cls", "run", "set"],
  "intent-shadow": [],
};

export function switchTab(current: EvalUrl, tab: EvalTab, keep: Partial<EvalUrl> = {}): Partial<EvalUrl> {
  return { tab, agent: current.agent, ...keep };
}

/** The state with `patch` applied, keeping only parameters that belong to the resulting tab. */
export function withParams(current: Partial<EvalUrl>, patch: Partial<EvalUrl>): Partial<EvalUrl> {
  const next: Partial<EvalUrl> = { ...current, ...patch };
  const tab = next.tab ?? "online-loop";
  const allowed = new Set<keyof EvalUrl>(["tab", "agent", ...TAB_KEYS[tab]]);
  for (const k of Object.keys(next) as Array<keyof EvalUrl>) if (!allowed.has(k)) delete next[k];
  return next;
}

/** Where a link or `go` leads: a patch naming a tab is a whole view (only the agent carries over); one without a tab changes the current view. */
export function nextView(current: EvalUrl, patch: Partial<EvalUrl>): Partial<EvalUrl> {
  return patch.tab ? withParams({ tab: patch.tab, agent: current.agent }, patch) : withParams(current, patch);
}

/** The annotation filters as the queue API takes them. */
export function queueFilter(state: EvalUrl) {
  return {
    ...(state.verdict ? { verdict: state.verdict } : {}),
    ...(state.suggestion ? { suggestion: state.suggestion } : {}),
    ...(state.spot ? { spotCheck: true } : {}),
    ...(state.source ? { source: state.source } : {}),
    ...(state.status === "disputed" ? { status: "disputed" as const } : {}),
    ...(state.cls ? { classification: state.cls } : {}),
    ...(state.q ? { q: state.q } : {}),
  };
}

/** The comparison as the compare API takes it: both runs, the outcome and text filters, and the page (1-based in the URL). */
export function compareQuery(state: EvalUrl, pageSize: number) {
  return {
    run_a: state.a ?? "",
    run_b: state.b ?? "",
    ...(state.outcome ? { outcome: state.outcome } : {}),
    ...(state.q ? { q: state.q } : {}),
    limit: pageSize,
    offset: ((state.page ?? 1) - 1) * pageSize,
  };
}

/** The runs of a many-run comparison (`runs=R-1,R-2`), in the URL's order. */
export const manyRuns = (state: EvalUrl): string[] => state.runs?.split(",") ?? [];

/** The many-run comparison as the compare API takes it: the runs (`run`), the grid's filters and the page. */
export function manyQuery(state: EvalUrl, pageSize: number) {
  return {
    run: manyRuns(state),
    ...(state.changed ? { changed: true } : {}),
    ...(state.failing ? { failing_latest: true } : {}),
    ...(state.q ? { q: state.q } : {}),
    limit: pageSize,
    offset: ((state.page ?? 1) - 1) * pageSize,
  };
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The usage view's range and scope, for the date inputs to show before the server answers: `to` defaults to today,
 * `from` to 29 days before `to` (the server's default range, `DAY_RANGE` in server/core/params.ts, which the
 * browser may not import), the scope to the selected agent. That display default is all the browser knows of the
 * range rule: a range the server refuses (from after to, more than 366 days) is passed on as it is, so the server's
 * message shows; the server answers the range it counted (`from`, `to`) and the chart follows that.
 */
export function usageRange(state: EvalUrl, now = Date.now()): { from: string; to: string; allAgents: boolean } {
  const to = state.to ?? isoDay(now);
  const from = state.from ?? isoDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  return { from, to, allAgents: state.scope === "all" };
}
