/**
 * Comparing up to eight runs of one set version question by question (pure): the many-run form of the comparison
 * (`GET /api/eval/runs/compare?run=R-1&run=R-2&...`). The runs must test one agent on one frozen set version, so every
 * run asked the same questions (matched by sample key) and a question's verdicts can be read across the runs.
 *
 * The runs are ordered oldest first (by creation), so the last one is "the latest". Per question: each run's human
 * verdict and machine suggestion (null: the question is not in that run), `changed` (its human verdicts include both
 * a pass and a fail: unjudged runs do not count) and `failingLatest` (the latest run's human verdict is fail). Per
 * run: the human-confirmed pass rate over the judged questions with its 95 % Wilson interval and n, the same for the
 * machine's suggestions, and "no verdicts yet" for a run without a single human verdict (its rate and interval null).
 */
import type { CompareRunInput } from "./compare";
import { roundedInterval, wilson } from "./statistics";

/** The most runs one comparison takes (the grid stays readable, the answer small). */
export const MAX_COMPARE_RUNS = 8;
export const MIN_COMPARE_RUNS = 2;
export const NO_VERDICTS_YET = "no verdicts yet" as const;

export type ManyRunInput = CompareRunInput & { createdAt: Date; status: string };
type Item = CompareRunInput["items"][number];
export type ManyCell = { itemId: string; human: Item["human"]; machine: Item["machine"] } | null;

/** Why these runs cannot be compared in one grid (null: they can): another agent or another set version. */
export function whyNotComparable(
  runs: ManyRunInput[],
): { message: string; details: Array<{ run: string; field: "agent" | "setVersion"; value: string }> } | null {
  const [first] = runs;
  if (!first) return null;
  const otherAgent = runs.filter((r) => r.agentId !== first.agentId);
  if (otherAgent.length)
    return {
      message: `The runs test different agents (${first.shortId} tests agent ${first.agentId}, ${otherAgent.map((r) => `${r.shortId} tests ${r.agentId}`).join(", ")}): compare runs of one agent`,
      details: runs.map((r) => ({ run: r.shortId, field: "agent", value: r.agentId })),
    };
  const otherVersion = runs.filter((r) => r.setVersionId !== first.setVersionId);
  if (otherVersion.length)
    return {
      message: `The runs use different set versions (${runs.map((r) => `${r.shortId}: ${r.setId === first.setId ? `v${r.setVersion}` : "another set"}`).join(", ")}): a many-run comparison reads the same frozen questions across runs; compare two runs of different versions with run_a and run_b`,
      details: runs.map((r) => ({ run: r.shortId, field: "setVersion", value: r.setVersionId })),
    };
  return null;
}

const rate = (k: number, n: number) => (n === 0 ? null : Math.round((k / n) * 10000) / 10000);

function rateOf(items: Item[], side: "human" | "machine") {
  const n = items.filter((i) => i[side] !== null).length;
  const pass = items.filter((i) => i[side] === "pass").length;
  return { pass, n, rate: rate(pass, n), interval: roundedInterval(wilson(pass, n)) };
}

/** THE many-run comparison of runs already checked comparable (whyNotComparable), in any order. */
export function compareManyRuns(input: ManyRunInput[]) {
  const runs = [...input].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || x.id.localeCompare(y.id));
  const byKey = runs.map((r) => new Map(r.items.map((i) => [i.key, i])));
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of runs)
    for (const i of r.items)
      if (!seen.has(i.key)) {
        seen.add(i.key);
        keys.push(i.key);
      }
  const latest = byKey.length - 1;
  let changed = 0;
  let failingLatest = 0;
  const questions = keys.map((key) => {
    const cells: ManyCell[] = byKey.map((m) => {
      const i = m.get(key);
      return i ? { itemId: i.itemId, human: i.human, machine: i.machine } : null;
    });
    const verdicts = new Set(cells.map((c) => c?.human).filter((v) => v === "pass" || v === "fail"));
    const isChanged = verdicts.size === 2;
    const isFailingLatest = cells[latest]?.human === "fail";
    if (isChanged) changed++;
    if (isFailingLatest) failingLatest++;
    return { key, cells, changed: isChanged, failingLatest: isFailingLatest };
  });
  return {
    runs: runs.map((r) => {
      const human = rateOf(r.items, "human");
      return {
        id: r.id,
        shortId: r.shortId,
        createdAt: r.createdAt.toISOString(),
        status: r.status,
        setVersion: r.setVersion,
        tier: r.tier,
        mode: r.mode,
        workflowVersion: r.workflowVersion,
        environment: r.environment,
        questions: r.items.length,
        human,
        machine: rateOf(r.items, "machine"),
        note: human.n === 0 ? NO_VERDICTS_YET : null,
      };
    }),
    counts: { questions: questions.length, changed, failingLatest },
    questions,
  };
}
export type ManyCompareResult = ReturnType<typeof compareManyRuns>;

/** The filters of the grid (on the server): changed only, failing in the latest run, the keys of a text search. */
export function filterMany(
  questions: ManyCompareResult["questions"],
  opts: { changed?: boolean; failingLatest?: boolean; keys?: ReadonlySet<string>; offset?: number; limit?: number },
) {
  const filtered = questions.filter(
    (q) =>
      (!opts.changed || q.changed) && (!opts.failingLatest || q.failingLatest) && (!opts.keys || opts.keys.has(q.key)),
  );
  const offset = Math.min(opts.offset ?? 0, filtered.length);
  const rows = opts.limit === undefined ? filtered.slice(offset) : filtered.slice(offset, offset + opts.limit);
  return { rows, page: { offset, limit: opts.limit ?? null, total: filtered.length } };
}
