import { describe, expect, it } from "vitest";
import { evaluateGate, type GateInput, type GateQuestion } from "./gate";

describe("the gate rule", () => {
  const gate = (pass: number, fail: number, unjudged: number, over: Partial<GateInput> = {}) =>
    evaluateGate({
      runId: "r",
      shortId: "R-TEST1",
      runStatus: "awaiting_review",
      setKind: "golden",
      threshold: 26,
      questions: [
        ...Array.from({ length: pass }, (_, i) => ({ key: `p${i}`, verdict: "pass" as const })),
        ...Array.from({ length: fail }, (_, i) => ({ key: `f${i}`, verdict: "fail" as const })),
        ...Array.from({ length: unjudged }, (_, i) => ({ key: `u${i}`, verdict: null })),
      ],
      ...over,
    });
  it("25/30 fails, 26/30 passes, 26/30 with one unjudged fails", () => {
    expect(gate(25, 5, 0).passed).toBe(false);
    expect(gate(25, 5, 0).reasons.map((r) => r.code)).toEqual(["GATE_BELOW_THRESHOLD"]);
    expect(gate(26, 4, 0).passed).toBe(true);
    const oneOpen = gate(26, 3, 1);
    expect(oneOpen.passed).toBe(false);
    expect(oneOpen.reasons.map((r) => r.code)).toEqual(["GATE_UNJUDGED"]);
    expect(oneOpen.unjudged).toEqual(["u0"]);
  });
  it("24 of 28 for the generic golden flow", () => {
    expect(gate(24, 4, 0, { threshold: 24 }).passed).toBe(true);
    expect(gate(23, 5, 0, { threshold: 24 }).passed).toBe(false);
  });
  it("a regression pool run can never pass; unfinished runs and impossible thresholds fail", () => {
    expect(gate(30, 0, 0, { setKind: "regression_pool" }).reasons.map((r) => r.code)).toEqual(["GATE_TRACK_B"]);
    expect(gate(30, 0, 0, { runStatus: "answering" }).passed).toBe(false);
    expect(gate(30, 0, 0, { runStatus: "cancelled" }).passed).toBe(false);
    expect(gate(2, 0, 0, { threshold: 3 }).reasons.map((r) => r.code)).toEqual(["GATE_THRESHOLD_UNREACHABLE"]);
    expect(gate(0, 0, 0, { threshold: 0 }).reasons.map((r) => r.code)).toEqual(["GATE_NO_QUESTIONS"]);
  });
});

/** The gate's three outcomes (issue 20): pass, fail (decided), pending (answering, unjudged, spot-checks left). */
const run = (questions: GateQuestion[], over: { runStatus?: string; threshold?: number; kind?: "golden" } = {}) =>
  evaluateGate({
    runId: "r",
    shortId: "R-GATE1",
    runStatus: over.runStatus ?? "awaiting_review",
    setKind: over.kind ?? "golden",
    threshold: over.threshold ?? 3,
    questions,
  });
const q = (key: string, verdict: "pass" | "fail" | null, extra: Partial<GateQuestion> = {}): GateQuestion => ({
  key,
  verdict,
  ...extra,
});

describe("the gate: pass / fail / pending", () => {
  it("still answering is pending, never fail, while the threshold can be reached", () => {
    const g = run([q("a", "pass"), q("b", null), q("c", null), q("d", null)], { runStatus: "answering" });
    expect(g.status).toBe("pending");
    expect(g.passed).toBe(false);
    expect(g.missing).toEqual(["the run is still answering", "3 questions without a verdict", "2 more passes"]);
    expect(g.summary).toMatch(/^PENDING R-GATE1: /);
    expect(g.reasons.map((r) => r.code)).toEqual(["GATE_ANSWERING", "GATE_UNJUDGED", "GATE_BELOW_THRESHOLD"]);
  });
  it("fail is decided: the threshold out of reach even if every open question passed", () => {
    const g = run([q("a", "fail"), q("b", "fail"), q("c", "pass"), q("d", null)], { runStatus: "answering" });
    expect(g.status).toBe("fail");
    expect(g.counts.reachablePasses).toBe(2);
    expect(g.reasons.map((r) => r.code)).toContain("GATE_OUT_OF_REACH");
    expect(g.missing).toEqual([]);
    expect(g.summary).toMatch(/^FAIL /);
  });
  it("all judged below the threshold fails; all judged at the threshold passes", () => {
    expect(run([q("a", "pass"), q("b", "pass"), q("c", "fail")]).status).toBe("fail");
    expect(run([q("a", "pass"), q("b", "pass"), q("c", "pass")]).status).toBe("pass");
  });
  it("spot-checks left keep the gate pending; an adopted fail to check still counts as a possible pass", () => {
    const adoptedPass = (k: string, spotCheck = false) => q(k, "pass", { source: "adopted", spotCheck });
    const questions = [
      adoptedPass("a"),
      adoptedPass("b"),
      adoptedPass("c", true), // flagged, adopted pass: counts as a pass but is not checked
      q("d", "fail", { source: "adopted", spotCheck: true }),
    ];
    const g = run(questions);
    expect(g.status).toBe("pending");
    expect(g.missing).toEqual(["2 spot-checks left"]);
    expect(g.spotChecksLeft).toEqual(["c", "d"]);
    expect(g.counts).toMatchObject({ pass: 3, passTyped: 0, passAdopted: 3, typed: 0, adopted: 4, spotChecksLeft: 2 });
    // a person confirms both: pass, with the passes told apart
    const checked = run([
      adoptedPass("a"),
      adoptedPass("b"),
      q("c", "pass", { source: "human", spotCheck: true }),
      q("d", "fail", { source: "human", spotCheck: true }),
    ]);
    expect(checked.status).toBe("pass");
    expect(checked.counts).toMatchObject({ pass: 3, passTyped: 1, passAdopted: 2, typed: 2, adopted: 2 });
    expect(checked.summary).toContain(
      "3/4 human-confirmed passes, 95 % interval 30-95 %, threshold 3 (1 typed, 2 adopted; 4 judged, 0 unjudged)",
    );
    // with only adopted fails left to check, the threshold is out of reach only when they could not make it up
    const short = run(
      [
        adoptedPass("a"),
        q("b", "fail", { source: "adopted", spotCheck: true }),
        q("c", "fail", { source: "human", spotCheck: true }),
      ],
      { threshold: 3 },
    );
    expect(short.status).toBe("fail");
    expect(short.counts.reachablePasses).toBe(2);
  });
  it("a regression pool, a cancelled run and a threshold above the questions are decided fails", () => {
    const all = [q("a", "pass"), q("b", "pass"), q("c", "pass")];
    expect(evaluateGate({ ...base(all), setKind: "regression_pool" }).status).toBe("fail");
    expect(run(all, { runStatus: "cancelled" }).status).toBe("fail");
    expect(run(all, { threshold: 4 }).status).toBe("fail");
  });
  it("names the 95 % Wilson interval of the judged beside the count; the rule stays the threshold on the count", () => {
    const keys = Array.from({ length: 30 }, (_, i) => `q${i}`);
    // 27 of 30 passes, all judged: the sentence (statsmodels: 0.7438-0.9654)
    const all = evaluateGate({
      ...base(keys.map((k, i) => q(k, i < 27 ? "pass" : "fail"))),
      threshold: 26,
    });
    expect(all.status).toBe("pass");
    expect(all.counts.interval).toEqual({ low: 0.7437, high: 0.9655 });
    expect(all.summary).toContain("27/30 human-confirmed passes, 95 % interval 74-97 %, threshold 26");
    // 3 unjudged: not in n (24 of 27 judged; statsmodels: 0.7194-0.9615), and the text says how many
    const open = evaluateGate({
      ...base(keys.map((k, i) => q(k, i < 3 ? null : i < 27 ? "pass" : "fail"))),
      threshold: 24,
    });
    expect(open.status).toBe("pending"); // 24 passes reach the threshold, but 3 questions have no verdict
    expect(open.counts).toMatchObject({ judged: 27, unjudged: 3, interval: { low: 0.7194, high: 0.9615 } });
    expect(open.summary).toContain("24/30 human-confirmed passes, 95 % interval 72-96 %, threshold 24");
    expect(open.summary).toContain("27 judged, 3 unjudged");
    // nothing judged: no interval
    const none = evaluateGate({ ...base(keys.slice(0, 2).map((k) => q(k, null))), threshold: 1 });
    expect(none.counts.interval).toBeNull();
    expect(none.summary).toContain("0/2 human-confirmed passes, no interval (nothing judged), threshold 1");
  });
  it("inputs without source or spotCheck (older clients) read as typed verdicts, not spot-checks", () => {
    const g = run([q("a", "pass"), q("b", "pass"), q("c", "pass")]);
    expect(g).toMatchObject({ status: "pass", counts: { typed: 3, passTyped: 3, spotChecksLeft: 0 } });
  });
});

function base(questions: GateQuestion[]) {
  return {
    runId: "r",
    shortId: "R-GATE1",
    runStatus: "awaiting_review",
    setKind: "golden" as const,
    threshold: 3,
    questions,
  };
}

describe("the gate with several reviewers per item (issue 23)", () => {
  const input = (questions: GateQuestion[], over: Partial<GateInput> = {}): GateInput => ({
    runId: "r",
    shortId: "R-TEST2",
    runStatus: "awaiting_review",
    setKind: "golden",
    threshold: 2,
    questions,
    ...over,
  });
  const decided: GateQuestion[] = [
    { key: "a", verdict: "pass" },
    { key: "b", verdict: "pass" },
    { key: "c", verdict: "fail" },
  ];
  it("disputed questions keep it pending with GATE_DISPUTED and their count; they are not unjudged", () => {
    const g = evaluateGate(input([...decided, { key: "d", verdict: null, disputed: true, spotCheck: true }]));
    expect(g).toMatchObject({
      status: "pending",
      disputed: ["d"],
      unjudged: [],
      spotChecksLeft: [],
      missing: ["1 disputed question to adjudicate"],
      counts: { disputed: 1, unjudged: 0, reachablePasses: 3 },
    });
    expect(g.reasons.map((r) => r.code)).toEqual(["GATE_DISPUTED"]);
    // a disputed question may still become a pass: the threshold is in reach
    const reach = evaluateGate(input([decided[0]!, { key: "d", verdict: null, disputed: true }]));
    expect(reach.status).toBe("pending");
  });
  it("agreement below minKappa: pending while anything is open, a fail once nothing is; undefined kappa never fails", () => {
    const low = { n: 3, kappa: 0.4, minKappa: 0.6 };
    const open = evaluateGate(
      input([...decided, { key: "d", verdict: null, disputed: true }], { reviewerAgreement: low }),
    );
    expect(open.status).toBe("pending");
    expect(open.reasons.map((r) => r.code)).toEqual(["GATE_DISPUTED", "GATE_REVIEWER_AGREEMENT"]);
    const done = evaluateGate(input(decided, { reviewerAgreement: low }));
    expect(done.status).toBe("fail");
    expect(done.reasons).toEqual([
      {
        code: "GATE_REVIEWER_AGREEMENT",
        message: "agreement between reviewers is kappa 0.4 over 3 questions, the set requires 0.6",
      },
    ]);
    expect(evaluateGate(input(decided, { reviewerAgreement: { n: 3, kappa: 0.6, minKappa: 0.6 } })).status).toBe(
      "pass",
    );
    expect(evaluateGate(input(decided, { reviewerAgreement: { n: 3, kappa: null, minKappa: 0.6 } })).status).toBe(
      "pass",
    );
    expect(evaluateGate(input(decided, { reviewerAgreement: { n: 3, kappa: 0.1, minKappa: null } })).status).toBe(
      "pass",
    );
  });
});

/**
 * The audit of adopted passes (issue 23). The false-pass intervals are the 95 % Wilson intervals statsmodels 0.15.0
 * gives (Python 3.11.7, 2026-11-28):
 *
 *   python3 -c "
 *   from statsmodels.stats.proportion import proportion_confint as pc
 *   for k,n in [(1,5),(0,3),(0,5),(2,10)]: print(k,n,repr(pc(k,n,method='wilson')))"
 *
 *   1 5 (0.036224108632430196, 0.6244653702374748)
 *   0 3 (0.0, 0.5614970317550455)
 *   0 5 (0.0, 0.43448246478317487)
 *   2 10 (0.056682151454375246, 0.5098375284633583)
 *
 * The gate rounds an interval outwards to 4 decimals (statistics.ts roundedInterval).
 */
describe("the gate: the audit of adopted passes", () => {
  const adoptedPass = (key: string, extra: Partial<GateQuestion> = {}): GateQuestion => ({
    key,
    verdict: "pass",
    source: "adopted",
    ...extra,
  });
  const typed = (key: string, verdict: "pass" | "fail", extra: Partial<GateQuestion> = {}): GateQuestion => ({
    key,
    verdict,
    source: "human",
    ...extra,
  });
  const audited = (questions: GateQuestion[], audit: Partial<NonNullable<GateInput["audit"]>> = {}, threshold = 3) =>
    evaluateGate({
      runId: "r",
      shortId: "R-AUDIT",
      runStatus: "completed",
      setKind: "golden",
      threshold,
      questions,
      audit: { rate: 0.1, maxOverturn: 0, draws: 1, ...audit },
    });
  const round4 = (x: number, up: boolean) => (up ? Math.ceil(x * 10000) : Math.floor(x * 10000)) / 10000;

  it("is pending with GATE_AUDIT_PENDING and the count until every audit item has a typed verdict", () => {
    const qs = [
      adoptedPass("a", { audit: true }),
      adoptedPass("b", { audit: true }),
      typed("c", "pass", { audit: true }),
      adoptedPass("d"),
      adoptedPass("e"),
    ];
    const g = audited(qs);
    expect(g.status).toBe("pending");
    expect(g.reasons.map((r) => r.code)).toEqual(["GATE_AUDIT_PENDING"]);
    expect(g.reasons[0]!.message).toMatch(/^2 of 3 audit items/);
    expect(g.missing).toEqual(["2 audit items to check"]);
    expect(g.auditLeft).toEqual(["a", "b"]);
    expect(g.audit).toMatchObject({ sampled: 3, checked: 1, overturned: 0, adoptedPassesLeft: 4 });
    expect(g.audit!.line).toBe("audit of adopted passes: 1 of 3 checked, 0 overturned");
    // every audit item confirmed: the verdicts decide (adopted passes still count)
    const done = audited([typed("a", "pass", { audit: true }), typed("b", "pass", { audit: true }), ...qs.slice(2)]);
    expect(done.status).toBe("pass");
    expect(done.audit).toMatchObject({ sampled: 3, checked: 3, overturned: 0, falsePassRate: 0 });
    expect(done.audit!.interval).toEqual({ low: 0, high: round4(0.5614970317550455, true) });
  });

  it("fails with GATE_AUDIT_OVERTURNED past maxAuditOverturn until the rest of the adopted passes are reviewed", () => {
    const qs = [
      typed("a", "fail", { audit: true }),
      typed("b", "pass", { audit: true }),
      typed("c", "pass", { audit: true }),
      typed("d", "pass", { audit: true }),
      typed("e", "pass", { audit: true }),
      adoptedPass("f"),
      adoptedPass("g"),
    ];
    const g = audited(qs);
    expect(g.status).toBe("fail");
    expect(g.reasons.map((r) => r.code)).toEqual(["GATE_AUDIT_OVERTURNED"]);
    expect(g.reasons[0]!.message).toBe(
      "the audit overturned 1 of 5 checked adopted passes (the set allows 0): 2 adopted passes left for people to review",
    );
    expect(g.audit).toMatchObject({ sampled: 5, checked: 5, overturned: 1, adoptedPassesLeft: 2, falsePassRate: 0.2 });
    expect(g.audit!.line).toBe("audit of adopted passes: 5 of 5 checked, 1 overturned");
    expect(g.audit!.interval).toEqual({
      low: round4(0.036224108632430196, false),
      high: round4(0.6244653702374748, true),
    });
    // one overturn allowed: no audit reason
    expect(audited(qs, { maxOverturn: 1 }).status).toBe("pass");
    // people review one of the rest: still failing; both: the verdicts decide again
    expect(audited([...qs.slice(0, 5), typed("f", "pass"), adoptedPass("g")]).status).toBe("fail");
    const reviewed = audited([...qs.slice(0, 5), typed("f", "pass"), typed("g", "pass")]);
    expect(reviewed.status).toBe("pass");
    expect(reviewed.audit).toMatchObject({ overturned: 1, adoptedPassesLeft: 0 });
  });

  it("rate 0 is 'no audit'; no draw yet at a rate above 0 shows nothing; several reviewers per item have none", () => {
    const none = audited([adoptedPass("a"), adoptedPass("b"), adoptedPass("c")], { rate: 0 });
    expect(none.status).toBe("pass");
    expect(none.audit).toMatchObject({ rate: 0, sampled: 0, checked: 0, falsePassRate: null, interval: null });
    expect(none.audit!.line).toBe("audit of adopted passes: no audit (rate 0)");
    expect(audited([adoptedPass("a")], { draws: 0 }, 1).audit).toBeNull();
    expect(
      evaluateGate({
        runId: "r",
        shortId: "R-AUDIT",
        runStatus: "completed",
        setKind: "golden",
        threshold: 1,
        questions: [q("a", "pass")],
        audit: null,
      }).audit,
    ).toBeNull();
  });

  it("the false-pass estimate in words", async () => {
    const { falsePassWords } = await import("./gate");
    const g = audited([
      typed("a", "fail", { audit: true }),
      ...["b", "c", "d", "e", "f", "g", "h", "i"].map((k) => typed(k, "pass", { audit: true })),
      typed("j", "fail", { audit: true }),
    ]);
    expect(g.audit).toMatchObject({ checked: 10, overturned: 2, falsePassRate: 0.2 });
    expect(g.audit!.interval).toEqual({
      low: round4(0.056682151454375246, false),
      high: round4(0.5098375284633583, true),
    });
    expect(falsePassWords(g.audit!)).toBe(
      "estimated false-pass rate of the adopted passes 20 % (95 % interval 6-51 %, n 10)",
    );
  });
});
