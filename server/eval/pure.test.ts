import { describe, expect, it } from "vitest";
import { evaluateAssertions } from "./rules";
import { AssertionSchema, SampleInput } from "./schemas";
import { coverageJudge, llmJudge, type JudgeProvider } from "./judge";
import { contentTokens } from "./text";
import { computeFlags, isRefusal } from "./guardrails";
import { combineSuggestion, inferAttribution, needsSpotCheck } from "./suggest";
import { agreement } from "./kappa";
import { evaluateGate, type GateInput } from "./gate";
import { compareRuns, pageOfQuestions, type CompareRunInput } from "./compare";
import {
  SAMPLE_COLUMNS,
  exportSamples,
  parseAnswerRows,
  parseCsv,
  parseSampleFile,
  splitRecords,
  type SampleDoc,
} from "./io";
import { checkWaveCSize } from "./wave-c";

describe("rule assertions", () => {
  const t = {
    answer: 'Try the Scallion Pancake: 12 yuan. {"x":1}',
    payload: { goods_list: [{ name: "Scallion pancake" }], meta: { count: 1, empty: [] } },
  };
  const run = (a: unknown) => evaluateAssertions(null, [AssertionSchema.parse(a)], t)[0]!;
  it("covers the documented vocabulary", () => {
    expect(run({ type: "contains", value: "Scallion" }).passed).toBe(true);
    expect(run({ type: "contains", value: "scallion" }).passed).toBe(false);
    expect(run({ type: "icontains", value: "SCALLION" }).passed).toBe(true);
    expect(run({ type: "not-contains", value: "tofu" }).passed).toBe(true);
    expect(run({ type: "not-icontains", value: "PANCAKE" }).passed).toBe(false);
    expect(run({ type: "regex", value: "\\d+\\s*yuan" }).passed).toBe(true);
    expect(run({ type: "is-json" }).passed).toBe(false);
    expect(
      evaluateAssertions(null, [AssertionSchema.parse({ type: "is-json" })], { answer: '{"a":1}', payload: null })[0]!
        .passed,
    ).toBe(true);
    expect(run({ type: "json-path-equals", path: "$.meta.count", value: 1 }).passed).toBe(true);
    expect(run({ type: "json-path-equals", path: "goods_list.0.name", value: "Scallion pancake" }).passed).toBe(true);
    expect(run({ type: "json-path-nonempty", path: "$.meta.empty" }).passed).toBe(false);
    expect(run({ type: "json-path-nonempty", path: "$.missing" }).message).toMatch(/not found/);
    expect(run({ type: "max-length", value: 10 }).passed).toBe(false);
    expect(run({ type: "min-length", value: 10 }).passed).toBe(true);
    expect(run({ type: "payload-items-nonempty" }).passed).toBe(true);
    expect(
      evaluateAssertions(null, [AssertionSchema.parse({ type: "payload-items-nonempty" })], {
        answer: "x",
        payload: { goods_list: [] },
      })[0]!.passed,
    ).toBe(false);
  });
  it("set-level rules apply before sample rules and say their scope", () => {
    const r = evaluateAssertions(
      [AssertionSchema.parse({ type: "max-length", value: 1000 })],
      [AssertionSchema.parse({ type: "contains", value: "nope", name: "mentions nope" })],
      t,
    );
    expect(r.map((x) => [x.scope, x.passed, x.label])).toEqual([
      ["set", true, "max-length 1000"],
      ["sample", false, "mentions nope"],
    ]);
  });
  it("refuses an invalid regex at input time", () => {
    expect(AssertionSchema.safeParse({ type: "regex", value: "([" }).success).toBe(false);
    expect(AssertionSchema.safeParse({ type: "unknown-rule" }).success).toBe(false);
  });
});

describe("built-in point-coverage judge", () => {
  it("tokenises Chinese with Intl.Segmenter, not whitespace", () => {
    expect(contentTokens("推荐了早餐菜品").map((t) => t.text)).toEqual(["推荐", "早餐", "菜品"]);
    expect(contentTokens("给出价格").map((t) => t.text)).toEqual(["价格"]);
    expect(contentTokens("mentions the price").map((t) => t.text)).toEqual(["price"]);
  });
  it("Chinese: covered points pass, a missing point fails", () => {
    const ok = coverageJudge(["推荐了早餐菜品", "给出价格"], "为您推荐以下早餐：豆浆油条、小笼包，价格12元。");
    expect(ok.verdict).toBe("pass");
    expect(ok.coverage.map((c) => c.status)).toEqual(["covered", "covered"]);
    const bad = coverageJudge(["推荐了早餐菜品", "给出价格"], "为您推荐以下早餐：豆浆油条、小笼包。");
    expect(bad.verdict).toBe("fail");
    expect(bad.coverage[1]).toMatchObject({ point: "给出价格", status: "missing" });
    expect(coverageJudge(["推荐了早餐菜品"], "今天天气很好。").verdict).toBe("fail");
  });
  it("English: concept synonyms (price = costs $5) and stems", () => {
    expect(coverageJudge(["mentions the price"], "The set costs $5.99.").verdict).toBe("pass");
    expect(coverageJudge(["mentions the price"], "We suggest eggs and toast.").verdict).toBe("fail");
    expect(
      coverageJudge(["recommends breakfast dishes"], "I recommend these breakfast options:\n1. Pancakes\n2. Porridge")
        .verdict,
    ).toBe("pass");
  });
  it("partial coverage is unknown, no points is unknown", () => {
    const partial = coverageJudge(
      ["recommends a breakfast dish with its price"],
      "I recommend the pancake for breakfast.",
    );
    expect(partial.coverage[0]!.status).toBe("partial");
    expect(partial.verdict).toBe("unknown");
    expect(coverageJudge([], "anything").verdict).toBe("unknown");
  });
  it("mixed Chinese and English", () => {
    expect(coverageJudge(["推荐早餐", "mentions the price"], "推荐早餐: Scallion pancake, ¥12").verdict).toBe("pass");
  });
});

describe("LLM judge", () => {
  const provider = (text: string): JudgeProvider => ({
    name: "fake",
    offline: false,
    chat: async () => ({ text, usage: { promptTokens: 100, completionTokens: 20 }, model: "m" }),
  });
  it("maps covered/not covered/null per point and counts usage", async () => {
    const r = await llmJudge(
      provider(
        '```json\n{"points":[{"index":0,"covered":true},{"index":1,"covered":false,"evidence":"no price"}],"rationale":"price missing"}\n```',
      ),
      {
        question: "q",
        points: ["a", "b"],
        answer: "x",
      },
    );
    expect(r.verdict).toBe("fail");
    expect(r.coverage.map((c) => c.status)).toEqual(["covered", "missing"]);
    expect(r.usage).toEqual({ promptTokens: 100, completionTokens: 20, calls: 1 });
    expect(
      (
        await llmJudge(provider('{"points":[{"index":0,"covered":null}]}'), {
          question: "q",
          points: ["a"],
          answer: "x",
        })
      ).verdict,
    ).toBe("unknown");
  });
  it("an unreadable reply is unknown, never pass", async () => {
    const r = await llmJudge(provider("I think it is fine"), { question: "q", points: ["a"], answer: "x" });
    expect(r.verdict).toBe("unknown");
    expect(r.error).toMatch(/unparseable/);
  });
});

describe("guardrails and the combined suggestion", () => {
  const http = (status: string, result: unknown, ok = true) => ({
    type: "http",
    status,
    output: { status: 200, ok, result, headers: {} },
  });
  it("no query performed, empty items in a live tier, fabricated items", () => {
    expect(
      computeFlags({
        tier: "pipeline",
        answer: "hi",
        payload: null,
        failed: false,
        steps: [{ type: "llm", status: "succeeded" }],
        hasHttpNodes: true,
      }).map((f) => f.flag),
    ).toEqual(["no_query"]);
    expect(
      computeFlags({
        tier: "pipeline_live",
        answer: "none",
        payload: null,
        failed: false,
        steps: [http("succeeded", { dishes: [] })],
      }).map((f) => f.flag),
    ).toEqual(["empty_items"]);
    const fab = computeFlags({
      tier: "pipeline_live",
      answer: "Try:\n1. Mapo tofu - spicy\n2. Unicorn steak - rare",
      payload: null,
      failed: false,
      steps: [http("succeeded", { dishes: [{ name: "Mapo tofu" }, { name: "Kung pao chicken" }] })],
    });
    expect(fab.map((f) => f.flag)).toEqual(["fabricated_items"]);
    expect(fab[0]!.message).toContain("Unicorn steak");
    const payloadFab = computeFlags({
      tier: "pipeline",
      answer: "ok",
      payload: { goods_list: [{ name: "豆浆" }] },
      failed: false,
      steps: [http("succeeded", { items: [], dryRun: true })],
    });
    expect(payloadFab.map((f) => f.flag)).toEqual(["fabricated_items"]);
    expect(
      computeFlags({ tier: "invoke", answer: "ok", payload: null, failed: false, steps: [], hasHttpNodes: true }),
    ).toEqual([]);
  });
  it("refusal and execution errors", () => {
    expect(isRefusal("I'm sorry, but I can't help with that.")).toBe(true);
    expect(isRefusal("抱歉，我无法回答这个问题。")).toBe(true);
    expect(isRefusal("推荐豆浆油条，价格12元。")).toBe(false);
    expect(
      computeFlags({ tier: "invoke", answer: "", payload: null, failed: true, error: "LLM_TIMEOUT: slow" }).map(
        (f) => f.flag,
      ),
    ).toEqual(["execution_error", "empty_answer"]);
  });
  it("combines: blocking flags and failed rules fail; non-blocking flags make a pass unknown", () => {
    const pass = coverageJudge(["mentions the price"], "It costs $5");
    expect(combineSuggestion(pass, [], []).verdict).toBe("pass");
    expect(combineSuggestion(pass, [], [{ flag: "no_query", message: "" }]).verdict).toBe("fail");
    expect(
      combineSuggestion(pass, [{ type: "contains", label: "x", passed: false, message: "", scope: "sample" }], [])
        .verdict,
    ).toBe("fail");
    const flagged = combineSuggestion(pass, [], [{ flag: "empty_items", message: "" }]);
    expect(flagged.verdict).toBe("unknown");
    expect(needsSpotCheck(flagged)).toBe(true);
    expect(inferAttribution({ flags: [{ flag: "no_query", message: "" }], failedRules: [] })).toBe("retrieval");
  });
});

describe("Cohen's kappa", () => {
  const P = "pass" as const;
  const F = "fail" as const;
  it("raw agreement and kappa", () => {
    const a = agreement([
      { machine: P, human: P },
      { machine: P, human: P },
      { machine: F, human: F },
      { machine: P, human: F },
    ]);
    expect(a.rawAgreement).toBe(0.75);
    // p_e = 0.75*0.5 + 0.25*0.5 = 0.5 -> kappa = (0.75-0.5)/0.5
    expect(a.kappa).toBe(0.5);
    expect(
      agreement([
        { machine: P, human: F },
        { machine: F, human: P },
      ]).kappa,
    ).toBe(-1);
  });
  it("edge cases: no pairs, no variance", () => {
    expect(agreement([])).toMatchObject({ pairs: 0, rawAgreement: null, kappa: null });
    const same = agreement([
      { machine: P, human: P },
      { machine: P, human: P },
    ]);
    expect(same).toMatchObject({ rawAgreement: 1, kappa: null });
    expect(same.note).toMatch(/no variance/);
    // one rater constant, the other not: defined (p_e < 1), kappa 0
    expect(
      agreement([
        { machine: P, human: P },
        { machine: P, human: F },
      ]).kappa,
    ).toBe(0);
  });
});

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

describe("import and export", () => {
  const docs: SampleDoc[] = [
    {
      key: "q1",
      question: "早餐推荐什么?",
      expected_points: ["推荐了早餐菜品", "给出价格"],
      classification: "breakfast",
      script: null,
      assertions: null,
      source_trace_id: null,
    },
    {
      key: "q2",
      question: 'A "quoted", multi-line\nquestion | with a pipe',
      expected_points: ["mentions the price", "a | pipe point"],
      classification: "",
      script: [
        { role: "system", content: "context", preset: true },
        { role: "user", content: "hello", preset: false },
      ],
      assertions: [{ type: "icontains", value: "price" }],
      source_trace_id: "trace_1",
    },
  ];
  it.each(["json", "jsonl", "csv"] as const)("round trip through %s", (format) => {
    const file = exportSamples(docs, format);
    const parsed = parseSampleFile(format, file.body);
    expect(parsed.errors).toEqual([]);
    const again = exportSamples(
      parsed.rows.map((r) => ({
        key: r.key!,
        question: r.question,
        expected_points: r.expectedPoints,
        classification: r.classification,
        script: r.script ?? null,
        assertions: r.assertions ?? null,
        source_trace_id: r.sourceTraceId ?? null,
      })),
      format,
    );
    expect(again.body).toBe(file.body);
  });
  it("CSV: cells a spreadsheet would run as formulas are written with a leading apostrophe and import back unchanged (OWASP)", () => {
    const risky = [
      '=HYPERLINK("http://evil")',
      "+1+1",
      "-2+3",
      "@SUM(A1)",
      "\t=1+2",
      "\r=1+2",
      "'=already quoted",
      "''+two quotes",
      "'\tquoted tab",
      "it's = fine",
      "'plain",
    ];
    const samples = risky.map((q, i) => ({
      key: `k${i}`,
      question: q,
      expected_points: [q],
      classification: i === 0 ? "=cmd|' /C calc'!A0" : "",
      script: null,
      assertions: null,
      source_trace_id: null,
    }));
    const file = exportSamples(samples, "csv");
    const cells = file.body
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[1] ?? "");
    for (const c of cells) expect(c).not.toMatch(/^"?[=+\-@\t\r]/);
    expect(cells.slice(0, 6).every((c) => c.replace(/^"/, "").startsWith("'"))).toBe(true);
    // tab and CR: the apostrophe comes first (a CR cell is quoted as well, as every cell holding one is)
    expect(cells[4]).toBe("'\t=1+2");
    expect(cells[5]).toBe('"\'\r=1+2"');
    // the CSV layer gives every cell back unchanged, tab and CR included
    const records = splitRecords("csv", file.body, SAMPLE_COLUMNS);
    expect(records.errors).toEqual([]);
    expect(records.records.map((r) => r.data.question)).toEqual(risky);
    // through the sample schema too (which trims questions and points, so a stored one never starts with tab or CR)
    const parsed = parseSampleFile("csv", file.body);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows.map((r) => r.question)).toEqual(risky.map((q) => q.trim()));
    expect(parsed.rows.map((r) => r.expectedPoints)).toEqual(risky.map((q) => [q.trim()]));
    expect(parsed.rows[0]!.classification).toBe("=cmd|' /C calc'!A0");
  });
  it("CSV: |-separated points, BOM, CRLF", () => {
    const csv = "\uFEFFkey,question,expected_points\r\nq1,Hello?,a | b |c\r\n";
    const r = parseSampleFile("csv", csv);
    expect(r.errors).toEqual([]);
    expect(r.rows[0]!.expectedPoints).toEqual(["a", "b", "c"]);
  });
  it("row errors name the row and the field; nothing is returned on error", () => {
    const csv = [
      "key,question,expected_points,script",
      'q1,ok,"[""a""]",',
      "q2,,a,",
      'q3,fine,"[1,",',
      'q1,dup,a,"[{""role"":""assistant"",""content"":""x""}]"',
    ].join("\n");
    const r = parseSampleFile("csv", csv);
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        { row: 3, field: "question", message: "question is required" },
        expect.objectContaining({ row: 4, field: "expected_points" }),
        expect.objectContaining({ row: 5, field: "script[0].role" }),
      ]),
    );
    const jsonl =
      r.errors.length &&
      parseSampleFile(
        "jsonl",
        '{"question":"a","expected_points":"x"}\n\nnot json\n{"question":"b","expected_points":[""]}',
      );
    expect(jsonl && jsonl.errors).toEqual([
      expect.objectContaining({ row: 3, field: "line" }),
      expect.objectContaining({ row: 4, field: "expected_points[0]" }),
    ]);
    expect(parseSampleFile("csv", "key,question,bogus\nq,x,y").errors).toEqual([
      expect.objectContaining({ row: 1, field: "bogus" }),
    ]);
    expect(parseSampleFile("json", "{").errors[0]).toMatchObject({ row: 0, field: "file" });
  });
  it("text PostgreSQL cannot store, decoded only by the import (a \\u0000 escape), is a row error naming the field", () => {
    // json: the escape is real JSON, so the request's own check saw only the six characters \u0000
    const json = parseSampleFile(
      "json",
      JSON.stringify([{ question: "ok", expected_points: ["a"] }]).replace(
        "]}]",
        ']},{"question":"a\\u0000b","expected_points":["a"]}]',
      ),
    );
    expect(json.rows).toEqual([]);
    expect(json.errors).toEqual([{ row: 2, field: "question", message: expect.stringContaining("NUL") }]);
    const jsonl = parseSampleFile("jsonl", '{"question":"q","expected_points":["\\ud800"]}');
    expect(jsonl.errors).toEqual([
      { row: 1, field: "expected_points[0]", message: expect.stringContaining("surrogate") },
    ]);
    // csv: a cell is plain text, but its JSON columns are decoded here
    const csv = parseSampleFile(
      "csv",
      'question,expected_points,script\nq,"[""a""]","[{""role"":""user"",""content"":""x\\u0000""}]"',
    );
    expect(csv.errors).toEqual([{ row: 2, field: "script[0].content", message: expect.stringContaining("NUL") }]);
    // keys too, and nesting deeper than the input limit
    const deep = `{"question":"q","expected_points":["a"],"assertions":${"[".repeat(120)}${"]".repeat(120)}}`;
    expect(parseSampleFile("jsonl", deep).errors).toEqual([
      expect.objectContaining({
        row: 1,
        field: expect.stringMatching(/^assertions(\[0\])+$/),
        message: expect.stringContaining("nested deeper"),
      }),
    ]);
    // pasted answers: the payload column of a CSV, a JSON file's answer
    expect(
      parseAnswerRows({ format: "csv", content: 'key,answer,payload\nq1,hi,"{""k"":""\\u0000""}"' }).errors,
    ).toEqual([{ row: 2, field: "payload.k", message: expect.stringContaining("NUL") }]);
    expect(parseAnswerRows({ format: "json", content: '[{"key":"q1","answer":"\\udc00"}]' }).errors).toEqual([
      { row: 1, field: "answer", message: expect.stringContaining("surrogate") },
    ]);
    expect(
      parseAnswerRows({ format: "jsonl", content: '{"key":"q1","answer":"x","payload":{"a\\u0000":1}}' }).errors,
    ).toEqual([{ row: 1, field: "payload.a\ufffd", message: expect.stringContaining("NUL") }]);
  });
  it("the CSV parser handles quotes and newlines inside fields", () => {
    expect(parseCsv('a,b\n"x,1","y\n""z"""\n').rows.map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["x,1", 'y\n"z"'],
    ]);
    expect(parseCsv('a\n"open').error?.message).toMatch(/not closed/);
  });
  it("pasted answers: rows by sample_id or key, JSON columns decoded", () => {
    const r = parseAnswerRows({
      format: "csv",
      content: 'key,answer,payload,latency_ms\nq1,hi,"{""goods_list"":[]}",12\n,orphan,,',
    });
    expect(r.rows[0]).toMatchObject({ key: "q1", answer: "hi", payload: { goods_list: [] }, latencyMs: 12 });
    expect(r.errors).toEqual([expect.objectContaining({ row: 3, field: "sample_id" })]);
    // latency_ms reaches a 32-bit integer column: a larger value is a row error, not a database error
    const big = parseAnswerRows({
      format: "csv",
      content: "key,answer,latency_ms\nq1,hi,10000000000\nq2,hi,2147483647",
    });
    expect(big.errors).toEqual([expect.objectContaining({ row: 2, field: "latency_ms" })]);
    expect(big.rows.map((x) => x.latencyMs)).toEqual([2147483647]);
  });
  it("sample schema: non-preset turns must be user turns", () => {
    expect(SampleInput.safeParse({ question: "q", script: [{ role: "assistant", content: "x" }] }).success).toBe(false);
    expect(
      SampleInput.safeParse({ question: "q", script: [{ role: "assistant", content: "x", preset: true }] }).success,
    ).toBe(true);
  });
});

describe("check_eval_wave_c_size rule", () => {
  const sample = (i: number, script = false) => ({
    key: `q${i}`,
    expectedPoints: ["p"],
    script: script ? [{}, {}] : null,
  });
  it("30 questions, >= 2 multi-turn, all with points, threshold 26", () => {
    const ok = checkWaveCSize({
      setName: "S",
      setKind: "golden",
      version: 1,
      status: "frozen",
      gateThreshold: 26,
      samples: Array.from({ length: 30 }, (_, i) => sample(i, i < 2)),
    });
    expect(ok.passed).toBe(true);
    const bad = checkWaveCSize({
      setName: "S",
      setKind: "golden",
      version: 1,
      status: "draft",
      gateThreshold: 24,
      samples: [
        ...Array.from({ length: 28 }, (_, i) => sample(i, i < 1)),
        { key: "x", expectedPoints: [], script: null },
      ],
    });
    expect(bad.passed).toBe(false);
    expect(bad.problems).toHaveLength(5);
  });
});

describe("the vocabulary the pages show", () => {
  it("names and explains every lead signal, lead status and comparison outcome the API uses", async () => {
    const { evalVocabulary } = await import("./vocabulary");
    const { OUTCOMES } = await import("./compare");
    const { LEAD_SIGNALS, LEAD_STATUSES } = await import("./schemas");
    const v = evalVocabulary();
    expect(v.leadSignals.map((s) => s.id)).toEqual([...LEAD_SIGNALS]);
    expect(v.leadStatuses.map((s) => s.id)).toEqual([...LEAD_STATUSES]);
    expect(v.compareOutcomes.map((s) => s.id)).toEqual([...OUTCOMES]);
    for (const w of [...v.leadSignals, ...v.leadStatuses, ...v.compareOutcomes]) {
      expect(w.label.length, w.id).toBeGreaterThan(0);
      expect(w.meaning.length, w.id).toBeGreaterThan(0);
    }
    expect(v.leadSignals.find((s) => s.id === "empty_items")?.meaning).toBe(v.guardrailFlags.empty_items);
  });
});
