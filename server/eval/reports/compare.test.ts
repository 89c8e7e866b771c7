import { describe, expect, it } from "vitest";
import { compareRuns, pageOfQuestions, type CompareRunInput } from "./compare";

describe("compare", () => {
  const run = (id: string, items: CompareRunInput["items"], over: Partial<CompareRunInput> = {}): CompareRunInput => ({
    id,
    shortId: id,
    setId: "s",
    setVersionId: "v1",
    setVersion: 1,
    tier: "pipeline",
    mode: "in_platform",
    agentId: "a",
    workflowVersion: 1,
    environment: "",
    items,
    ...over,
  });
  const it_ = (key: string, human: "pass" | "fail" | null, machine: "pass" | "fail" | "unknown" | null = human) => ({
    itemId: `item-${key}`,
    key,
    human,
    machine,
  });
  it("both-pass / fixed / regressed / both-fail and deltas", () => {
    const a = run("A", [it_("q1", "pass"), it_("q2", "fail"), it_("q3", "pass"), it_("q4", "fail"), it_("q5", null)]);
    const b = run("B", [it_("q1", "pass"), it_("q2", "pass"), it_("q3", "fail"), it_("q4", "fail"), it_("q5", "pass")]);
    const c = compareRuns(a, b);
    expect(c.summary).toMatchObject({ both_pass: 1, fixed: 1, regressed: 1, both_fail: 1, incomplete: 1 });
    expect(c.questions.find((q) => q.key === "q2")).toMatchObject({
      outcome: "fixed",
      a: { itemId: "item-q2" },
      b: { itemId: "item-q2" },
    });
    expect(c.passRates.human).toEqual({ a: 0.4, b: 0.6, delta: 0.2 });
    expect(c.warnings).toEqual([]);
  });
  it("a run without verdicts has no human pass rate (null, not 0 %), and no delta", () => {
    const a = run("A", [it_("q1", null, "pass"), it_("q2", null, "fail")]);
    const b = run("B", [it_("q1", "pass"), it_("q2", null, null)]);
    const c = compareRuns(a, b);
    expect(c.passRates.human).toEqual({ a: null, b: 0.5, delta: null });
    expect(c.passRates.machine).toEqual({ a: 0.5, b: 0.5, delta: 0 });
    expect(c.runA).toMatchObject({ judged: 0, suggested: 2 });
    expect(c.runB).toMatchObject({ judged: 1, suggested: 1 });
    const none = compareRuns(run("A", [it_("q1", null, null)]), run("B", [it_("q1", null, null)]));
    expect(none.passRates).toEqual({
      human: { a: null, b: null, delta: null },
      machine: { a: null, b: null, delta: null },
    });
  });
  it("warns on different set versions and tiers; unmatched keys are only_a / only_b", () => {
    const c = compareRuns(
      run("A", [it_("q1", "pass")]),
      run("B", [it_("q2", "pass")], { setVersionId: "v2", setVersion: 2, tier: "pipeline_live" }),
    );
    expect(c.warnings.map((w) => w.code)).toEqual(["DIFFERENT_SET_VERSION", "DIFFERENT_TIER"]);
    expect(c.summary).toMatchObject({ only_a: 1, only_b: 1 });
  });
  it("pages the questions on the server: outcome filter, text-search keys, offset and limit; counts per outcome", () => {
    const n = 10_000;
    const keys = Array.from({ length: n }, (_, i) => `k${i}`);
    // every 4th question regresses, every 4th+1 is fixed, the rest pass in both runs
    const a = run(
      "A",
      keys.map((k, i) => it_(k, i % 4 === 1 ? "fail" : "pass")),
    );
    const b = run(
      "B",
      keys.map((k, i) => it_(k, i % 4 === 0 ? "fail" : "pass")),
    );
    const c = compareRuns(a, b);
    expect(c.summary).toMatchObject({ regressed: 2500, fixed: 2500, both_pass: 5000 });
    const first = pageOfQuestions(c.questions, { outcome: "regressed", limit: 50 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows.every((r) => r.outcome === "regressed")).toBe(true);
    expect(first.page).toMatchObject({ offset: 0, limit: 50, total: 2500 });
    expect(first.page.matching).toEqual(c.summary);
    const last = pageOfQuestions(c.questions, { outcome: "regressed", limit: 50, offset: 2480 });
    expect(last.rows.map((r) => r.key)).toEqual(Array.from({ length: 20 }, (_, i) => `k${(2480 + i) * 4}`));
    expect(pageOfQuestions(c.questions, { outcome: "regressed", limit: 50, offset: 9999 }).rows).toEqual([]);
    // a text search narrows first; the outcome counts follow it
    const searched = pageOfQuestions(c.questions, { keys: new Set(["k0", "k1", "k2"]) });
    expect(searched.page).toMatchObject({
      total: 3,
      limit: null,
      matching: { regressed: 1, fixed: 1, both_pass: 1, both_fail: 0 },
    });
    // without a limit, every question (the response before paging existed)
    expect(pageOfQuestions(c.questions, {}).rows).toHaveLength(n);
  });
});
