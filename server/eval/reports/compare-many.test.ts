import { describe, expect, it } from "vitest";
import { compareManyRuns, filterMany, type ManyRunInput, NO_VERDICTS_YET, whyNotComparable } from "./compare-many";
import { trendSeries } from "./trend";

/**
 * Reference intervals computed independently with scipy 1.17.1 (Python 3.11):
 *   python3 -c "from scipy.stats import binomtest as bt
 *   for k,n in [(2,3),(1,3),(3,4),(1,2),(2,2),(3,3),(2,4)]:
 *     ci=bt(k,n).proportion_ci(confidence_level=0.95, method='wilson'); print(k,n,ci.low,ci.high)"
 *   2 3 0.20765960080204782 0.9385080552796038
 *   1 3 0.06149194472039626 0.7923403991979523
 *   3 4 0.30064184258240184 0.9544127391902995
 *   1 2 0.09453120573423074 0.9054687942657693
 *   2 2 0.34238022750665303 1.0
 *   3 3 0.4385029682449546 1.0
 *   2 4 0.15003898915214953 0.8499610108478505
 * The answers round outwards to 4 decimals (statistics.ts roundedInterval).
 */
type V = "pass" | "fail" | null;
const KEYS = ["q1", "q2", "q3", "q4"];
const run = (id: string, day: number, verdicts: V[], over: Partial<ManyRunInput> = {}): ManyRunInput => ({
  id,
  shortId: `R-${id}`,
  setId: "s",
  setVersionId: "v1",
  setVersion: 1,
  tier: "pipeline_live",
  mode: "pasted",
  agentId: "agent",
  workflowVersion: day,
  environment: "",
  createdAt: new Date(Date.UTC(2026, 10, day)),
  status: "awaiting_review",
  items: KEYS.map((key, i) => ({ itemId: `${id}-${key}`, key, human: verdicts[i] ?? null, machine: "pass" })),
  ...over,
});

describe("many-run comparison", () => {
  // given out of order: the answer orders them by creation, so R-C is the latest
  const a = run("A", 1, ["pass", "pass", "fail", null]);
  const c = run("C", 3, ["pass", "fail", "fail", "pass"]);
  const b = run("B", 2, ["pass", "pass", "pass", null]);
  const none = run("N", 4, [null, null, null, null]);

  it("orders the runs oldest first, marks changed questions and those failing in the latest run", () => {
    const r = compareManyRuns([c, a, b]);
    expect(r.runs.map((x) => x.shortId)).toEqual(["R-A", "R-B", "R-C"]);
    const q = Object.fromEntries(r.questions.map((x) => [x.key, x]));
    expect(q.q1).toMatchObject({ changed: false, failingLatest: false });
    expect(q.q2).toMatchObject({ changed: true, failingLatest: true }); // pass, pass, fail
    expect(q.q3).toMatchObject({ changed: true, failingLatest: true }); // fail, pass, fail
    expect(q.q4).toMatchObject({ changed: false, failingLatest: false }); // unjudged twice, then pass
    expect(q.q2!.cells.map((x) => x?.human)).toEqual(["pass", "pass", "fail"]);
    expect(q.q4!.cells[0]).toEqual({ itemId: "A-q4", human: null, machine: "pass" });
    expect(r.counts).toEqual({ questions: 4, changed: 2, failingLatest: 2 });
  });

  it("each run's human rate over its judged questions with the Wilson interval (scipy reference)", () => {
    const r = compareManyRuns([a, b, c, none]);
    expect(r.runs[0]!.human).toEqual({ pass: 2, n: 3, rate: 0.6667, interval: { low: 0.2076, high: 0.9386 } });
    expect(r.runs[1]!.human).toEqual({ pass: 3, n: 3, rate: 1, interval: { low: 0.4385, high: 1 } });
    expect(r.runs[2]!.human).toEqual({ pass: 2, n: 4, rate: 0.5, interval: { low: 0.15, high: 0.85 } });
    expect(r.runs[0]!.note).toBeNull();
    // a run without a verdict: "no verdicts yet", no rate and no interval (not 0 %)
    expect(r.runs[3]).toMatchObject({ note: NO_VERDICTS_YET, human: { pass: 0, n: 0, rate: null, interval: null } });
    expect(r.runs[3]!.machine).toMatchObject({ pass: 4, n: 4, rate: 1 });
  });

  it("a question missing from a run is a null cell", () => {
    const short = run("S", 5, ["fail", "pass"], {
      items: [{ itemId: "S-q1", key: "q1", human: "fail", machine: null }],
    });
    const r = compareManyRuns([a, short]);
    expect(r.questions.find((x) => x.key === "q2")!.cells).toEqual([
      { itemId: "A-q2", human: "pass", machine: "pass" },
      null,
    ]);
    expect(r.questions.find((x) => x.key === "q1")).toMatchObject({ changed: true, failingLatest: true });
  });

  it("filters: changed only, failing in the latest, keys, pages", () => {
    const { questions } = compareManyRuns([a, b, c]);
    expect(filterMany(questions, { changed: true }).rows.map((x) => x.key)).toEqual(["q2", "q3"]);
    expect(filterMany(questions, { failingLatest: true, keys: new Set(["q3"]) }).rows.map((x) => x.key)).toEqual([
      "q3",
    ]);
    const page = filterMany(questions, { offset: 1, limit: 2 });
    expect(page.rows.map((x) => x.key)).toEqual(["q2", "q3"]);
    expect(page.page).toEqual({ offset: 1, limit: 2, total: 4 });
  });

  it("refuses runs of different agents or set versions, naming them", () => {
    expect(whyNotComparable([a, b, c])).toBeNull();
    const other = whyNotComparable([a, run("X", 2, [], { agentId: "agent-2" })]);
    expect(other?.message).toContain("different agents");
    expect(other?.details).toEqual([
      { run: "R-A", field: "agent", value: "agent" },
      { run: "R-X", field: "agent", value: "agent-2" },
    ]);
    const v2 = whyNotComparable([a, run("Y", 2, [], { setVersionId: "v2", setVersion: 2 })]);
    expect(v2?.message).toContain("R-A: v1, R-Y: v2");
  });
});

describe("trend series", () => {
  const row = (
    runId: string,
    setVersion: number,
    tier: "pipeline_live" | "invoke",
    day: number,
    pass: number,
    n: number,
  ) => ({
    runId,
    shortId: `R-${runId}`,
    createdAt: new Date(Date.UTC(2026, 10, day)),
    status: "completed",
    mode: "pasted",
    tier,
    setVersion,
    workflowVersion: day,
    questions: 4,
    pass,
    n,
  });
  it("one series per version and tier, oldest first, each point with its rate and Wilson interval", () => {
    const s = trendSeries([
      row("3", 1, "pipeline_live", 3, 3, 4),
      row("1", 1, "pipeline_live", 1, 1, 3),
      row("2", 1, "invoke", 2, 1, 2),
      row("4", 2, "pipeline_live", 4, 0, 0),
    ]);
    expect(s.map((x) => [x.setVersion, x.tier, x.points.map((p) => p.runId)])).toEqual([
      [1, "invoke", ["2"]],
      [1, "pipeline_live", ["1", "3"]],
      [2, "pipeline_live", ["4"]],
    ]);
    expect(s[1]!.points[0]).toMatchObject({
      rate: 0.3333,
      interval: { low: 0.0614, high: 0.7924 },
      workflowVersion: 1,
    });
    expect(s[1]!.points[1]).toMatchObject({ rate: 0.75, interval: { low: 0.3006, high: 0.9545 } });
    expect(s[0]!.points[0]).toMatchObject({ rate: 0.5, interval: { low: 0.0945, high: 0.9055 } });
    expect(s[2]!.points[0]).toMatchObject({ rate: null, interval: null, n: 0 });
    expect(s[1]!.points[0]!.createdAt).toBe("2026-11-01T00:00:00.000Z");
  });
});
