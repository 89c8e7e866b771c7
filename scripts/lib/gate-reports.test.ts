import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateGate, type GateInput } from "../../server/eval/reports/gate";
import {
  MARKDOWN_MAX_CHARS,
  capMarkdown,
  judgeOf,
  junitReport,
  markdownReport,
  mdText,
  type GateReportData,
  type ReportItem,
} from "./gate-reports";

/**
 * The gate CLI's CI reports (issue 25): the JUnit file is validated against docs/ci/junit.xsd with xmllint (Debian's
 * libxml2-utils, which .ci/run installs), the Markdown summary's content and its 65,000-character cap.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const XSD = path.join(ROOT, "docs/ci/junit.xsd");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-reports-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function xmllint(xml: string, name: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, xml);
  const r = spawnSync("xmllint", ["--noout", "--schema", XSD, file], { encoding: "utf8" });
  if (r.error) throw new Error(`xmllint is needed (apt-get install libxml2-utils): ${r.error.message}`);
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function data(input: GateInput, items: ReportItem[]): GateReportData {
  return {
    gate: {
      runId: "cmrun0000000000000000001",
      shortId: input.shortId,
      setId: "cmset0000000000000000001",
      setName: 'Golden "meals" & <co>',
      setVersion: 3,
      input,
      result: evaluateGate(input),
    },
    run: {
      agentId: "agent_1",
      agentName: "Meal agent",
      status: input.runStatus,
      tier: "pipeline_live",
      environment: "ci",
    },
    items,
    baseUrl: "https://flowbench.example.com/",
    at: "2026-11-27T22:00:00.123Z",
  };
}

const item = (
  key: string,
  question: string,
  verdict: ReportItem["verdict"],
  judge = "builtin-coverage",
): ReportItem => ({
  id: `item_${key}`,
  key,
  question,
  verdict,
  suggestion: { verdict: verdict?.verdict ?? "unknown", judge },
});

// five questions, one of each kind: a typed pass, a typed fail, no verdict, an adopted pass still to spot-check, an
// adopted fail that is not on the spot-check list (it counts as a fail as it is)
const input: GateInput = {
  runId: "cmrun0000000000000000001",
  shortId: "R-7K2F9",
  runStatus: "awaiting_review",
  setKind: "golden",
  threshold: 3,
  questions: [
    { key: "q01", verdict: "pass", source: "human" },
    { key: "q02", verdict: "fail", source: "human", spotCheck: true },
    { key: "q03", verdict: null, source: null },
    { key: "q04", verdict: "pass", source: "adopted", spotCheck: true },
    { key: "q05", verdict: "fail", source: "adopted" },
  ],
};
const items = [
  item("q01", "Recommend a breakfast dish", { verdict: "pass", source: "human", basis: null, attribution: null }),
  item("q02", 'Price of the "pancake" <set> & tea?\u0001 🍳', {
    verdict: "fail",
    source: "human",
    basis: 'the price is wrong: 12 < 15 & it says "cheap"\nsecond line | pipe @team',
    attribution: "data",
    byLabel: "ann@example.com",
  }),
  item("q03", "Something vegetarian?", null),
  item("q04", "Lunch menu", { verdict: "pass", source: "adopted", basis: null, attribution: null }),
  item("q05", "Dinner", { verdict: "fail", source: "adopted", basis: null, attribution: "generation" }, "llm:openai"),
];

describe("JUnit report", () => {
  const d = data(input, items);
  const xml = junitReport(d);

  it("is valid against the JUnit schema CI systems read (docs/ci/junit.xsd, xmllint)", () => {
    const r = xmllint(xml, "mixed.xml");
    expect(r.out).toContain("validates");
    expect(r.code, r.out).toBe(0);
  });

  it("the schema is not a rubber stamp: a suite without its counts, children out of order, an unknown element are refused", () => {
    const noCounts = xml.replace(/<testsuite name="([^"]*)" tests="\d+"/, '<testsuite name="$1"');
    expect(xmllint(noCounts, "no-counts.xml").code).not.toBe(0);
    const badOrder = xml.replace("    <properties>", '    <testcase name="x"/>\n    <properties>');
    expect(xmllint(badOrder, "bad-order.xml").code).not.toBe(0);
    const badChild = xml.replace("</testsuites>", "<verdict/></testsuites>");
    expect(xmllint(badChild, "bad-child.xml").code).not.toBe(0);
  });

  it("one test case per question in the set's order, plus the decision", () => {
    const names = [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual([
      "q01: Recommend a breakfast dish",
      // the control character is not XML 1.0: replaced; quotes, <, & escaped
      "q02: Price of the &quot;pancake&quot; &lt;set&gt; &amp; tea?\uFFFD 🍳",
      "q03: Something vegetarian?",
      "q04: Lunch menu",
      "q05: Dinner",
      "release gate: PENDING",
    ]);
    // 2 failures (q02, q05), 3 errors (q03 unjudged, q04 spot-check left, the pending decision)
    expect(xml).toMatch(/<testsuite name="flowbench gate R-7K2F9" tests="6" failures="2" errors="3" skipped="0"/);
    expect(xml).toContain('<testsuites name="flowbench release gate" tests="6" failures="2" errors="3"');
  });

  it("a human fail is a failure with its basis (message) and attribution (type); a pass has neither", () => {
    const q02 = xml.slice(xml.indexOf('<testcase name="q02'), xml.indexOf('<testcase name="q03'));
    expect(q02).toContain(
      '<failure message="the price is wrong: 12 &lt; 15 &amp; it says &quot;cheap&quot; second line | pipe @team" type="data">',
    );
    expect(q02).toContain('basis: the price is wrong: 12 &lt; 15 &amp; it says "cheap"\nsecond line | pipe @team');
    expect(q02).toContain("verdict by: a person (ann@example.com)");
    expect(q02).toContain(
      "<system-out>https://flowbench.example.com/eval?tab=annotation&amp;agent=agent_1&amp;run=R-7K2F9&amp;item=item_q02</system-out>",
    );
    const q05 = xml.slice(xml.indexOf('<testcase name="q05'), xml.indexOf('<testcase name="release'));
    expect(q05).toContain('<failure message="fail" type="generation">');
    expect(q05).toContain("verdict by: adopted from the machine suggestion");
    const q01 = xml.slice(xml.indexOf('<testcase name="q01'), xml.indexOf('<testcase name="q02'));
    expect(q01).not.toMatch(/<failure|<error/);
  });

  it("no verdict is an error 'no human verdict yet'; an adopted verdict left to spot-check is an error too", () => {
    const q03 = xml.slice(xml.indexOf('<testcase name="q03'), xml.indexOf('<testcase name="q04'));
    expect(q03).toContain('<error message="no human verdict yet" type="unjudged">');
    const q04 = xml.slice(xml.indexOf('<testcase name="q04'), xml.indexOf('<testcase name="q05'));
    expect(q04).toContain('type="spot_check_left"');
    const decision = xml.slice(xml.indexOf('<testcase name="release'));
    expect(decision).toContain(
      '<error message="pending: waiting for 1 question without a verdict, 1 spot-check left, 1 more pass" type="gate_pending">',
    );
  });

  it("properties: the run's id and short id, set version, judge and threshold", () => {
    const props = Object.fromEntries(
      [...xml.matchAll(/<property name="([^"]*)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
    );
    expect(props).toMatchObject({
      "run.id": "cmrun0000000000000000001",
      "run.shortId": "R-7K2F9",
      "set.name": "Golden &quot;meals&quot; &amp; &lt;co&gt;",
      "set.version": "3",
      judge: "builtin-coverage, llm:openai",
      threshold: "3",
      "gate.status": "pending",
      "run.url": "https://flowbench.example.com/eval?tab=runs&amp;agent=agent_1&amp;run=R-7K2F9",
    });
    expect(xml).toContain('timestamp="2026-11-27T22:00:00"');
  });

  it("a passed gate: every question a pass, the decision a pass, valid; a failed gate: the decision a failure", () => {
    const all: GateInput = {
      ...input,
      questions: input.questions.map((q) => ({ key: q.key, verdict: "pass" as const, source: "human" as const })),
    };
    const passXml = junitReport(
      data(
        all,
        items.map((i) => ({ ...i, verdict: null })),
      ),
    );
    expect(passXml).toMatch(/tests="6" failures="0" errors="0"/);
    expect(passXml).toContain('<testcase name="release gate: PASS" classname="flowbench.gate" time="0"/>');
    expect(xmllint(passXml, "pass.xml").code).toBe(0);
    const pool = junitReport(data({ ...all, setKind: "regression_pool" }, items));
    expect(pool).toMatch(/<failure message="FAIL R-7K2F9: [^"]*" type="gate_fail">GATE_TRACK_B: /);
    expect(xmllint(pool, "pool.xml").code).toBe(0);
    // a run with no questions and no items is still a valid file
    const empty = junitReport(data({ ...all, questions: [] }, []));
    expect(xmllint(empty, "empty.xml").code).toBe(0);
  });

  it("judgeOf: the judges of the suggestions, or none", () => {
    expect(judgeOf([])).toBe("none");
    expect(judgeOf(items.slice(0, 2))).toBe("builtin-coverage");
  });
});

describe("Markdown summary", () => {
  it("decision, counts with the interval, what is missing, absolute links, failing questions with basis", () => {
    const md = markdownReport(data(input, items));
    expect(md.startsWith("### ⏳ Release gate PENDING: run R-7K2F9\n")).toBe(true);
    // the interval of 2 passes of 4 judged: Wilson score interval (0.15004, 0.84996), computed with python3 from
    // the Wilson formula at z = 1.959964 (scipy.stats.norm.ppf(0.975)); printed as whole percents
    expect(md).toContain("| human-confirmed passes | **2** of 5 (95 % interval 15-85 %, over 4 judged) |");
    expect(md).toContain("| threshold | 3 (1 more needed) |");
    expect(md).toContain("| without a verdict | 1 |");
    expect(md).toContain("| spot-checks left | 1 |");
    expect(md).toContain("#### Still missing\n- 1 question without a verdict\n- 1 spot-check left\n- 1 more pass\n");
    expect(md).toContain(
      "- [the questions without a verdict](https://flowbench.example.com/eval?tab=annotation&agent=agent_1&run=R-7K2F9&verdict=none)",
    );
    expect(md).toContain(
      "[Open the run](https://flowbench.example.com/eval?tab=runs&agent=agent_1&run=R-7K2F9) · [Open the annotation queue](https://flowbench.example.com/eval?tab=annotation&agent=agent_1&run=R-7K2F9)",
    );
    expect(md).toContain("machine judge: builtin-coverage, llm:openai (its suggestions never count)");
    // people's text cannot break the table, open HTML, or mention anyone
    expect(md).toContain(
      '| [q02](https://flowbench.example.com/eval?tab=annotation&agent=agent_1&run=R-7K2F9&item=item_q02): Price of the "pancake" \\<set\\> & tea? 🍳 | the price is wrong: 12 \\< 15 & it says "cheap" second line \\| pipe @\u200bteam | data | ann@\u200bexample.com |',
    );
    expect(md).toContain(
      "| [q05](https://flowbench.example.com/eval?tab=annotation&agent=agent_1&run=R-7K2F9&item=item_q05): Dinner | - | generation | adopted |",
    );
    expect(md).toContain("#### Without a verdict (1)\n\n[q03](");
    expect(md).toContain("#### Spot-checks left with an adopted verdict (1)\n\n[q04](");
  });

  it("no interval when nothing is judged; a pass says so and lists nothing missing", () => {
    const none = markdownReport(
      data({ ...input, questions: input.questions.map((q) => ({ key: q.key, verdict: null })) }, items),
    );
    expect(none).toContain("| human-confirmed passes | **0** of 5 |");
    const all: GateInput = {
      ...input,
      questions: input.questions.map((q) => ({ key: q.key, verdict: "pass" as const, source: "human" as const })),
    };
    const pass = markdownReport(data(all, items));
    expect(pass.startsWith("### ✅ Release gate PASS: run R-7K2F9")).toBe(true);
    // Wilson (5, 5) = (0.5655, 1.0)
    expect(pass).toContain("| human-confirmed passes | **5** of 5 (95 % interval 57-100 %, over 5 judged) |");
    expect(pass).not.toContain("Still missing");
    expect(pass).not.toContain("Failing questions");
  });

  it("at most 65,000 characters: a long list is cut at a line end with a note saying where the rest is", () => {
    const n = 2_000;
    const many: GateInput = {
      ...input,
      threshold: n,
      questions: Array.from({ length: n }, (_, i) => ({
        key: `q${i}`,
        verdict: "fail" as const,
        source: "human" as const,
      })),
    };
    const manyItems = many.questions.map((q) =>
      item(q.key, `A long question ${"x".repeat(200)}`, {
        verdict: "fail",
        source: "human",
        basis: `basis ${"y".repeat(400)}`,
        attribution: "generation",
      }),
    );
    const md = markdownReport(data(many, manyItems));
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
    expect(md.length).toBeGreaterThan(MARKDOWN_MAX_CHARS - 1_000);
    expect(
      md.endsWith(
        "| generation | a person |\n\n_… truncated: this summary is longer than 65,000 characters; the full list is on [the run's page](https://flowbench.example.com/eval?tab=runs&agent=agent_1&run=R-7K2F9) and in the JUnit report._\n",
      ),
    ).toBe(true);
    expect(md.startsWith("### ❌ Release gate FAIL")).toBe(true);
    // a short summary is left whole
    const short = markdownReport(data(input, items));
    expect(short).not.toContain("truncated");
    expect(short.length).toBeLessThan(5_000);
  });

  it("capMarkdown: exactly at the limit is kept; one over is cut; never half a surrogate pair", () => {
    expect(capMarkdown("a".repeat(100), 100, "u")).toBe("a".repeat(100));
    const cut = capMarkdown(`${"a\n".repeat(100)}b`, 201 - 1, "https://x/run");
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toContain("_… truncated");
    const emoji = capMarkdown("🍳".repeat(200), 300, "u");
    expect(emoji.length).toBeLessThanOrEqual(300);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("mdText escapes markup and breaks mentions", () => {
    expect(mdText("a|b *c* [d](e) <img> @x `y`\nz")).toBe("a\\|b \\*c\\* \\[d\\]\\(e\\) \\<img\\> @\u200bx \\`y\\` z");
  });
});

describe("the audit of adopted passes in the reports", () => {
  const audited: GateInput = {
    runId: "cmrun0000000000000000002",
    shortId: "R-AUD17",
    runStatus: "completed",
    setKind: "golden",
    threshold: 3,
    questions: [
      { key: "a1", verdict: "fail", source: "human", audit: true },
      { key: "a2", verdict: "pass", source: "human", audit: true },
      { key: "a3", verdict: "pass", source: "adopted", audit: true },
      { key: "a4", verdict: "pass", source: "adopted" },
      { key: "a5", verdict: "pass", source: "adopted" },
    ],
    audit: { rate: 0.1, maxOverturn: 0, draws: 1 },
  };
  const verdict = (q: GateInput["questions"][number]): ReportItem["verdict"] =>
    q.verdict
      ? {
          verdict: q.verdict,
          source: q.source ?? "human",
          basis: q.verdict === "fail" ? "invents the price" : null,
          attribution: q.verdict === "fail" ? "generation" : null,
        }
      : null;
  const items = audited.questions.map((q) => item(q.key, `Question ${q.key}`, verdict(q)));

  it("Markdown: the audit line with the estimate, and the rest of the adopted passes after an overturn", () => {
    const md = markdownReport(data(audited, items));
    expect(md).toContain("| audit of adopted passes | 2 of 3 checked, 1 overturned; estimated false-pass rate");
    expect(md).toContain("`GATE_AUDIT_OVERTURNED`");
    expect(md).toMatch(/\[review the rest of the adopted passes \(3\)\]\([^)]*verdict=pass&source=adopted\)/);
    // no overturn: pending on the audit item left, with a link to the list
    const confirmed = { ...audited.questions[0]!, verdict: "pass" as const };
    const pending = markdownReport(data({ ...audited, questions: [confirmed, ...audited.questions.slice(1)] }, items));
    expect(pending).toContain("- 1 audit item to check");
    expect(pending).toContain("- [the audit items left](https://flowbench.example.com/eval?tab=annotation");
    // rate 0: "no audit"
    const unmarked = audited.questions.map(({ audit: _, ...q }) => q);
    const none = markdownReport(
      data({ ...audited, questions: unmarked, audit: { rate: 0, maxOverturn: 0, draws: 1 } }, items),
    );
    expect(none).toContain("| audit of adopted passes | no audit (rate 0) |");
  });

  it("JUnit: an audit item left is an error, the audit's line a property; still valid against the schema", () => {
    const xml = junitReport(data(audited, items));
    expect(xml).toContain('<error message="audit item left');
    expect(xml).toContain('type="audit_left"');
    expect(xml).toContain('<property name="audit" value="audit of adopted passes: 2 of 3 checked, 1 overturned"/>');
    expect(xmllint(xml, "audit.xml").code).toBe(0);
  });
});
