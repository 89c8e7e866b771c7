import { describe, expect, it } from "vitest";
import { SampleInput } from "./schemas";
import { SAMPLE_COLUMNS, exportSamples, parseSampleFile, type SampleDoc } from "./io";
import { parseAnswerRows } from "../runs/answer-rows";
import { parseCsv, splitRecords } from "./records";

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
