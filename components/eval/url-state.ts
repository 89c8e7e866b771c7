import { z } from "zod";

/**
 * Everything a view of the evaluation center shows is in its URL, so any view can be shared and reloaded:
 * `/eval?tab=<tab>&agent=<agentId>&...`. Pure: parsing is tolerant (an unknown or broken value falls back to the
 * default instead of failing) and serialising writes parameters in a fixed order and omits defaults.
 *
 *   online-loop    (default)
 *   sets           set=<setId> v=<version> q=<sample search>
 *   runs           run=<id|R-XXXXX> | view=compare a=<run> b=<run> [q=<key or text>] | view=usage; list filters: set, status, tier
 *   annotation     run=<id|R-XXXXX> item=<itemId>; filters: verdict, suggestion, spot, cls, q
 *   bad-cases      case=<badCaseId>; filters: status, attribution
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

const id = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_\-]+$/);
const opt = <T extends z.ZodType>(s: T) => s.optional().catch(undefined);
const text = z.string().trim().min(1).max(200);

export const EvalUrlSchema = z.object({
  tab: z.enum(TAB_IDS).catch("online-loop"),
  agent: opt(id),
  // sets
  set: opt(id),
  v: opt(z.coerce.number().int().min(1).max(2_147_483_647)),
  // runs and annotation
  run: opt(id),
  view: opt(z.enum(["compare", "usage"])),
  a: opt(id),
  b: opt(id),
  item: opt(id),
  case: opt(id),
  // filters
  status: opt(z.string().regex(/^[a-z_]{1,32}$/)),
  tier: opt(z.enum(["pipeline_live", "pipeline", "invoke"])),
  verdict: opt(z.enum(["pass", "fail", "none"])),
  suggestion: opt(z.enum(["pass", "fail", "unknown", "none"])),
  spot: opt(z.enum(["1"])),
  cls: opt(text),
  attribution: opt(z.string().regex(/^[a-z_]{1,40}$/)),
  q: opt(text),
});
export type EvalUrl = z.output<typeof EvalUrlSchema>;

/** The order parameters are written in (and the only ones written). */
const ORDER = ["tab", "agent", "set", "v", "run", "view", "a", "b", "item", "case", "status", "tier", "verdict", "suggestion", "spot", "cls", "attribution", "q"] as const satisfies ReadonlyArray<keyof EvalUrl>;

type SearchParamsLike = { get(name: string): string | null } | URLSearchParams;

export function parseEvalUrl(params: SearchParamsLike | Record<string, string | string[] | undefined>): EvalUrl {
  const raw: Record<string, string | undefined> = {};
  for (const k of ORDER) {
    const v = "get" in params && typeof params.get === "function" ? (params as SearchParamsLike).get(k) : (params as Record<string, string | string[] | undefined>)[k];
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
  "online-loop": ["status", "q"],
  sets: ["set", "v", "q"],
  runs: ["run", "view", "a", "b", "set", "status", "tier", "q"],
  annotation: ["run", "item", "verdict", "suggestion", "spot", "cls", "q"],
  "bad-cases": ["case", "status", "attribution"],
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
    ...(state.cls ? { classification: state.cls } : {}),
    ...(state.q ? { q: state.q } : {}),
  };
}
