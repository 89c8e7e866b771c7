/**
 * The gate CLI's reporters for CI (check_eval_golden_gate --junit / --markdown): pure functions from what the server
 * answers over REST (`GET /api/eval/runs/{id}/gate` and the run's items, `GET /api/eval/runs/{id}/items`) to a JUnit
 * XML file and a Markdown summary. No I/O here, so both are unit-tested (gate-reports.test.ts).
 *
 * JUnit: one test case per question of the run's set, in the set's order. A fail is a <failure> with the verdict's
 * basis (message) and attribution (type); a question without a verdict is an <error> "no human verdict yet"; a
 * spot-check question whose verdict was adopted and not yet checked by a person is an <error> too (the gate waits
 * for it), and so is an audit item (an adopted pass drawn by the audit of adopted passes) no person has typed a verdict
 * on; a pass is a pass. One more test case, "release gate", carries the decision itself (a <failure> with the
 * reasons when it failed, an <error> with what is missing while pending), so a run whose questions all pass but
 * whose gate fails (a regression pool, a threshold above the set's size) is not green in CI. The file follows the
 * JUnit XML structure of Jenkins and Ant (docs/ci/junit.xsd, which the tests validate it against).
 */
import { evalHref } from "../../components/eval/url-state";
import { falsePassWords, gateCountsLine, type GateInput, type GateResult } from "../../server/eval/reports/gate";
import { intervalWords } from "../../server/eval/reports/statistics";

export type GateResponse = {
  runId: string;
  shortId: string;
  setId: string;
  setName: string;
  setVersion: number;
  input: GateInput;
  result: GateResult;
};

/** The fields of a run item (EvalRunItem) the reports read. */
export type ReportItem = {
  id: string;
  key: string;
  question: string;
  verdict: {
    verdict: "pass" | "fail";
    source: "human" | "adopted";
    basis: string | null;
    attribution: string | null;
    byLabel?: string | null;
  } | null;
  suggestion: { verdict: string; judge: string } | null;
};

/** The fields of the run (EvalRun) the reports read. */
export type ReportRun = { agentId: string; agentName: string; status: string; tier: string; environment: string };

export type GateReportData = {
  gate: GateResponse;
  run: ReportRun;
  items: ReportItem[];
  /** the server's address for people (links are absolute) */
  baseUrl: string;
  /** when the report was made (ISO) */
  at: string;
};

/** The machine judge(s) whose suggestions the run's items carry ("none" before any suggestion). Never counted by the gate. */
export function judgeOf(items: ReportItem[]): string {
  const judges = [...new Set(items.map((i) => i.suggestion?.judge).filter((j): j is string => !!j))].sort();
  return judges.length ? judges.join(", ") : "none";
}

export function reportLinks(d: Pick<GateReportData, "gate" | "run" | "baseUrl">) {
  const base = d.baseUrl.replace(/\/+$/, "");
  const common = { agent: d.run.agentId, run: d.gate.shortId };
  return {
    run: `${base}${evalHref({ tab: "runs", ...common })}`,
    queue: `${base}${evalHref({ tab: "annotation", ...common })}`,
    unjudged: `${base}${evalHref({ tab: "annotation", ...common, verdict: "none" })}`,
    spotChecks: `${base}${evalHref({ tab: "annotation", ...common, spot: "1" })}`,
    adoptedPasses: `${base}${evalHref({ tab: "annotation", ...common, verdict: "pass", source: "adopted" })}`,
    item: (itemId: string) => `${base}${evalHref({ tab: "annotation", ...common, item: itemId })}`,
  };
}

type Outcome =
  | { kind: "pass" }
  | { kind: "failure"; basis: string | null; attribution: string | null; by: string }
  | { kind: "error"; type: "unjudged" | "spot_check_left" | "audit_left"; message: string };

function outcomeOf(q: GateInput["questions"][number], item: ReportItem | undefined): Outcome {
  const typed = q.verdict !== null && q.source !== "adopted";
  if (q.verdict === null) return { kind: "error", type: "unjudged", message: "no human verdict yet" };
  if (q.audit && !typed)
    return {
      kind: "error",
      type: "audit_left",
      message: `audit item left: the adopted pass was drawn for a person to check and is not yet checked`,
    };
  if (q.spotCheck && !typed)
    return {
      kind: "error",
      type: "spot_check_left",
      message: `spot-check left: the adopted verdict (${q.verdict}) is not yet checked by a person`,
    };
  if (q.verdict === "pass") return { kind: "pass" };
  const v = item?.verdict;
  const by =
    q.source === "adopted"
      ? "adopted from the machine suggestion"
      : v?.byLabel
        ? `a person (${v.byLabel})`
        : "a person";
  return { kind: "failure", basis: v?.basis ?? null, attribution: v?.attribution ?? null, by };
}

// ---------------------------------------------------------------------------------------------------------- JUnit

/** XML 1.0 allows tab, LF, CR and characters from U+0020 on (not U+FFFE/U+FFFF, nor lone surrogates). */
function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

export function junitReport(d: GateReportData): string {
  const { gate, items } = d;
  const r = gate.result;
  const byKey = new Map(items.map((i) => [i.key, i]));
  const links = reportLinks(d);
  const suite = `flowbench gate ${gate.shortId}`;
  const classname = `flowbench.eval.${gate.setName} v${gate.setVersion}`;
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  for (const q of gate.input.questions) {
    const item = byKey.get(q.key);
    const name = item ? `${q.key}: ${cut(oneLine(item.question), 160)}` : q.key;
    const o = outcomeOf(q, item);
    const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="0"`;
    const link = item ? `\n      <system-out>${xmlText(links.item(item.id))}</system-out>` : "";
    if (o.kind === "pass") {
      cases.push(`${open}>${link ? `${link}\n    ` : ""}</testcase>`);
    } else if (o.kind === "failure") {
      failures++;
      const body = [
        `basis: ${o.basis ?? "(none given)"}`,
        `attribution: ${o.attribution ?? "(none)"}`,
        `verdict by: ${o.by}`,
        ...(item ? [`question: ${item.question}`] : []),
      ].join("\n");
      cases.push(
        `${open}>\n      <failure message="${xmlAttr(cut(oneLine(o.basis ?? "fail"), 500))}" type="${xmlAttr(o.attribution ?? "unattributed")}">${xmlText(body)}</failure>${link}\n    </testcase>`,
      );
    } else {
      errors++;
      cases.push(
        `${open}>\n      <error message="${xmlAttr(o.message)}" type="${o.type}">${xmlText(o.message)}</error>${link}\n    </testcase>`,
      );
    }
  }
  // the decision itself
  const decision = `    <testcase name="release gate: ${xmlAttr(r.status.toUpperCase())}" classname="flowbench.gate" time="0"`;
  const reasons = r.reasons.map((x) => `${x.code}: ${x.message}`).join("\n");
  if (r.status === "fail") {
    failures++;
    cases.push(
      `${decision}>\n      <failure message="${xmlAttr(cut(r.summary, 1000))}" type="gate_fail">${xmlText(reasons)}</failure>\n    </testcase>`,
    );
  } else if (r.status === "pending") {
    errors++;
    cases.push(
      `${decision}>\n      <error message="${xmlAttr(`pending: waiting for ${r.missing.join(", ")}`)}" type="gate_pending">${xmlText(reasons)}</error>\n    </testcase>`,
    );
  } else cases.push(`${decision}/>`);

  const props: Array<[string, string | number]> = [
    ["run.id", gate.runId],
    ["run.shortId", gate.shortId],
    ["run.status", gate.input.runStatus],
    ["run.tier", d.run.tier],
    ["run.url", links.run],
    ["set.id", gate.setId],
    ["set.name", gate.setName],
    ["set.version", gate.setVersion],
    ["set.kind", gate.input.setKind],
    ["judge", judgeOf(items)],
    ["threshold", gate.input.threshold],
    ["gate.status", r.status],
    ["gate.passes", r.counts.pass],
    ["audit", r.audit ? r.audit.line : "none drawn"],
    ["queue.url", links.queue],
  ];
  const tests = cases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="flowbench release gate" tests="${tests}" failures="${failures}" errors="${errors}" time="0">`,
    `  <testsuite name="${xmlAttr(suite)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="0" time="0" timestamp="${xmlAttr(d.at.replace(/\.\d+Z$/, "").replace(/Z$/, ""))}">`,
    "    <properties>",
    ...props.map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(String(v))}"/>`),
    "    </properties>",
    ...cases,
    `    <system-out>${xmlText(r.summary)}</system-out>`,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

// ------------------------------------------------------------------------------------------------------- Markdown

/** GitHub's limit on a comment is 65,536 characters; the summary stays under it with room to spare. */
export const MARKDOWN_MAX_CHARS = 65_000;

/** Text from people (questions, bases) inside Markdown: no markup, no HTML, no table breaks, no @-mentions. */
export function mdText(s: string): string {
  return oneLine(s)
    .replace(/[\u0000-\u001F\u007F]/g, "")
    .replace(/[\\`*_{}[\]()<>#+|!~]/g, (c) => `\\${c}`)
    .replace(/@/g, "@\u200b");
}

const ICON = { pass: "✅", fail: "❌", pending: "⏳" } as const;

export function markdownReport(d: GateReportData, max = MARKDOWN_MAX_CHARS): string {
  const { gate, items, run } = d;
  const r = gate.result;
  const c = r.counts;
  const links = reportLinks(d);
  const byKey = new Map(items.map((i) => [i.key, i]));
  const lines: string[] = [];
  lines.push(`### ${ICON[r.status]} Release gate ${r.status.toUpperCase()}: run ${gate.shortId}`);
  lines.push("");
  lines.push(
    `Set **${mdText(gate.setName)}** v${gate.setVersion} (${gate.input.setKind}), agent ${mdText(run.agentName)}, tier \`${run.tier}\`, run ${gate.input.runStatus}; machine judge: ${mdText(judgeOf(items))} (its suggestions never count).`,
  );
  lines.push("");
  lines.push(`[Open the run](${links.run}) · [Open the annotation queue](${links.queue})`);
  lines.push("");
  lines.push("| | |");
  lines.push("| --- | --- |");
  lines.push(
    `| human-confirmed passes | **${c.pass}** of ${c.questions}${c.interval ? ` (${intervalWords(c.interval)}, over ${c.judged} judged)` : ""} |`,
  );
  lines.push(`| threshold | ${c.threshold}${c.missingPasses ? ` (${c.missingPasses} more needed)` : ""} |`);
  lines.push(`| failed | ${c.fail} |`);
  lines.push(`| without a verdict | ${c.unjudged} |`);
  lines.push(`| spot-checks left | ${c.spotChecksLeft} |`);
  lines.push(`| typed by people / adopted | ${c.typed} / ${c.adopted} |`);
  if (r.audit) {
    const estimate = falsePassWords(r.audit);
    // the server's own words and numbers (no text from people): nothing to escape
    lines.push(
      `| audit of adopted passes | ${r.audit.line.replace(/^audit of adopted passes: /, "")}${estimate ? `; ${estimate}` : ""} |`,
    );
  }
  lines.push("");
  lines.push(`\`${gateCountsLine(c)}\``);
  lines.push("");
  if (r.status === "pending") {
    lines.push("#### Still missing");
    for (const m of r.missing) lines.push(`- ${mdText(m)}`);
    if (c.unjudged) lines.push(`- [the questions without a verdict](${links.unjudged})`);
    if (c.spotChecksLeft) lines.push(`- [the spot-checks left](${links.spotChecks})`);
    if (r.auditLeft.length) lines.push(`- [the audit items left](${links.spotChecks})`);
    lines.push("");
  }
  if (r.reasons.some((x) => x.code === "GATE_AUDIT_OVERTURNED") && r.audit)
    lines.push(
      `The audit overturned adopted passes: [review the rest of the adopted passes (${r.audit.adoptedPassesLeft})](${links.adoptedPasses}).`,
      "",
    );
  if (r.reasons.length) {
    lines.push(r.status === "fail" ? "#### Why it failed" : "#### Reasons");
    for (const x of r.reasons) lines.push(`- \`${x.code}\`: ${mdText(x.message)}`);
    lines.push("");
  }
  const failing = gate.input.questions.filter((q) => q.verdict === "fail");
  if (failing.length) {
    lines.push(`#### Failing questions (${failing.length})`);
    lines.push("");
    lines.push("| question | basis | attribution | by |");
    lines.push("| --- | --- | --- | --- |");
    for (const q of failing) {
      const item = byKey.get(q.key);
      const v = item?.verdict;
      const label = item
        ? `[${mdText(q.key)}](${links.item(item.id)}): ${mdText(cut(item.question, 120))}`
        : mdText(q.key);
      const by = q.source === "adopted" ? "adopted" : v?.byLabel ? mdText(v.byLabel) : "a person";
      lines.push(
        `| ${label} | ${mdText(cut(v?.basis ?? "", 300)) || "-"} | ${mdText(v?.attribution ?? "-")} | ${by} |`,
      );
    }
    lines.push("");
  }
  const keyList = (keys: string[]) =>
    keys.map((k) => {
      const item = byKey.get(k);
      return item ? `[${mdText(k)}](${links.item(item.id)})` : mdText(k);
    });
  if (r.unjudged.length) {
    lines.push(`#### Without a verdict (${r.unjudged.length})`);
    lines.push("");
    lines.push(keyList(r.unjudged).join(", "));
    lines.push("");
  }
  const spotLeft = r.spotChecksLeft.filter((k) => !r.unjudged.includes(k));
  if (spotLeft.length) {
    lines.push(`#### Spot-checks left with an adopted verdict (${spotLeft.length})`);
    lines.push("");
    lines.push(keyList(spotLeft).join(", "));
    lines.push("");
  }
  lines.push(`<sub>check_eval_golden_gate at ${d.at}; run id ${gate.runId}</sub>`);
  return capMarkdown(`${lines.join("\n")}\n`, max, links.run);
}

/**
 * At most `max` characters (UTF-16 code units, never fewer than the characters GitHub counts): cut at a line end and
 * followed by a note saying so and where the rest is.
 */
export function capMarkdown(text: string, max: number, runUrl: string): string {
  if (text.length <= max) return text;
  const note = `\n\n_… truncated: this summary is longer than ${max.toLocaleString("en-US")} characters; the full list is on [the run's page](${runUrl}) and in the JUnit report._\n`;
  let head = text.slice(0, Math.max(0, max - note.length));
  const nl = head.lastIndexOf("\n");
  if (nl > 0) head = head.slice(0, nl);
  // a lone high surrogate at the cut would be half a character
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}${note}`;
}
