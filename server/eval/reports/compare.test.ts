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
    expect(c.passRates.human).toMatchObject({ a: 0.4, b: 0.6, delta: 0.2 });
    expect(c.warnings).toEqual([]);
  });
  it("a run without verdicts has no human pass rate (null, not 0 %), and no delta", () => {
    const a = run("A", [it_("q1", null, "pass"), it_("q2", null, "fail")]);
    const b = run("B", [it_("q1", "pass"), it_("q2", null, null)]);
    const c = compareRuns(a, b);
    expect(c.passRates.human).toMatchObject({ a: null, b: 0.5, delta: null });
    expect(c.passRates.machine).toMatchObject({ a: 0.5, b: 0.5, delta: 0 });
    expect(c.runA).toMatchObject({ judged: 0, suggested: 2 });
    expect(c.runB).toMatchObject({ judged: 1, suggested: 1 });
    const none = compareRuns(run("A", [it_("q1", null, null)]), run("B", [it_("q1", null, null)]));
    expect(none.passRates).toMatchObject({
      human: { a: null, b: null, delta: null, n: { a: 0, b: 0 }, interval: { a: null, b: null } },
      machine: { a: null, b: null, delta: null, n: { a: 0, b: 0 }, interval: { a: null, b: null } },
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
  const table = (cells: { bothPass: number; onlyA: number; onlyB: number; bothFail: number; unjudged?: number }) => {
    const a: CompareRunInput["items"] = [];
    const b: CompareRunInput["items"] = [];
    const add = (x: "pass" | "fail" | null, y: "pass" | "fail" | null, times: number) => {
      for (let i = 0; i < times; i++) {
        const key = `q${a.length}`;
        a.push(it_(key, x));
        b.push(it_(key, y));
      }
    };
    add("pass", "pass", cells.bothPass);
    add("pass", "fail", cells.onlyA);
    add("fail", "pass", cells.onlyB);
    add("fail", "fail", cells.bothFail);
    add("pass", null, cells.unjudged ?? 0);
    return [a, b] as const;
  };
  it("pairs two runs of one set version: the table, the exact McNemar p-value and the sentence", () => {
    // the fixture: b = 3 (A pass / B fail), c = 1 -> p = 0.625; questions judged in one run only are left out
    const [a1, b1] = table({ bothPass: 20, onlyA: 3, onlyB: 1, bothFail: 2, unjudged: 4 });
    const one = compareRuns(run("A", a1), run("B", b1));
    expect(one.pairedUnavailable).toBeNull();
    expect(one.paired).toEqual({
      bothPass: 20,
      onlyA: 3,
      onlyB: 1,
      bothFail: 2,
      n: 26,
      pValue: 0.625,
      significant: false,
      sentence: "B is better on 1 question and worse on 3; the difference is not significant (p = 0.63)",
    });
    // b = 1, c = 3: the sentence
    const [a2, b2] = table({ bothPass: 5, onlyA: 1, onlyB: 3, bothFail: 0 });
    expect(compareRuns(run("A", a2), run("B", b2)).paired?.sentence).toBe(
      "B is better on 3 questions and worse on 1; the difference is not significant (p = 0.63)",
    );
    // b = 10, c = 0 -> p = 0.001953125 (0.002)
    const [a3, b3] = table({ bothPass: 0, onlyA: 10, onlyB: 0, bothFail: 0 });
    expect(compareRuns(run("A", a3), run("B", b3)).paired).toMatchObject({
      pValue: 0.001953125,
      significant: true,
      sentence: "B is better on 0 questions and worse on 10; the difference is significant (p = 0.002)",
    });
    // no discordant question: p = 1
    const [a4, b4] = table({ bothPass: 7, onlyA: 0, onlyB: 0, bothFail: 1 });
    expect(compareRuns(run("A", a4), run("B", b4)).paired).toMatchObject({
      pValue: 1,
      sentence: "A and B agree on all 8 questions both runs judged; no difference (p = 1)",
    });
    // nothing judged in both runs: an empty table, said in words
    const [a5, b5] = table({ bothPass: 0, onlyA: 0, onlyB: 0, bothFail: 0, unjudged: 3 });
    expect(compareRuns(run("A", a5), run("B", b5)).paired).toMatchObject({ n: 0, pValue: 1 });
  });
  it("does not pair runs of different set versions or sets, and the rates carry their intervals", () => {
    const [a, b] = table({ bothPass: 27, onlyA: 0, onlyB: 3, bothFail: 0 });
    const c = compareRuns(run("A", a), run("B", b, { setVersionId: "v2", setVersion: 2 }));
    expect(c.paired).toBeNull();
    expect(c.pairedUnavailable).toMatchObject({ code: "DIFFERENT_SET_VERSION" });
    expect(c.pairedUnavailable?.reason).toContain("v1 vs v2");
    // statsmodels proportion_confint(27, 30, method="wilson") = (0.74379, 0.96540); 30 of 30 = (0.88648, 1.0)
    expect(c.passRates.human).toMatchObject({
      a: 0.9,
      b: 1,
      n: { a: 30, b: 30 },
      interval: { a: { low: 0.7437, high: 0.9655 }, b: { low: 0.8864, high: 1 } },
    });
    const otherSet = compareRuns(run("A", a), run("B", b, { setId: "t", setVersionId: "w1" }));
    expect(otherSet).toMatchObject({ paired: null, pairedUnavailable: { code: "DIFFERENT_SET" } });
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
