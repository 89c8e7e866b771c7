#!/usr/bin/env -S npx tsx
/**
 * check_eval_golden_gate --run-id <RUN_ID> [--json] [--wait [SECONDS]] [--junit FILE] [--markdown FILE]
 *                        [--url URL] [--token TOKEN]
 *
 * The release gate (spec 4.3): passes (exit 0) only when every question of the run's set has a verdict, every
 * spot-check question has one a person typed, and the human-confirmed passes reach the set's threshold; a
 * regression-pool run never passes; machine suggestions never count. Exit 1 on FAIL (decided) and on PENDING (still
 * answering, questions without a verdict, spot-checks left, audit items left; printed with what is missing; the
 * audit of adopted passes is a line of its own, "no audit" at rate 0); exit 2 on usage,
 * connection, auth or unknown run. `--json` carries `status` ("pass" | "fail" | "pending").
 * For CI (issue 25): `--wait` polls until the gate is no longer pending or the time is up (progress on stderr; exit 3
 * when still pending then), `--junit` and `--markdown` write reports of the final state (scripts/lib/gate-reports.ts).
 * Talks to the server over REST (FLOWBENCH_URL, default http://localhost:3000; FLOWBENCH_TOKEN), so it works
 * against the embedded database and a deployment alike. It re-evaluates the gate with the same pure rule the
 * server uses (server/eval/reports/gate.ts) from the inputs the server returns; the reports read the run's items
 * (`GET /api/eval/runs/{id}/items`) for each question's text, basis and attribution.
 */
import fs from "node:fs";
import path from "node:path";
import { evaluateGate, falsePassWords, gateCountsLine, type GateResult } from "../server/eval/reports/gate";
import { ConnectError, UsageError, getJson, main, parseFlags, serverFrom, type Server } from "./lib/cli-http";
import {
  junitReport,
  markdownReport,
  type GateReportData,
  type GateResponse,
  type ReportItem,
  type ReportRun,
} from "./lib/gate-reports";

const USAGE = `usage: check_eval_golden_gate --run-id <RUN_ID> [--json] [--wait [SECONDS]] [--interval SECONDS]
                              [--junit FILE] [--markdown FILE] [--public-url URL] [--url <FLOWBENCH_URL>] [--token <FLOWBENCH_TOKEN>]
  RUN_ID        the short Run ID (R-7K2F9) or the run's id
  --json        print the result as JSON (for machines)
  --wait [S]    poll until the gate is no longer pending, at most S seconds (default 3600; 0: look once); progress on stderr
  --interval S  seconds between two polls while waiting (default 15)
  --junit F     write a JUnit XML report: one test case per question (fail: failure with basis and attribution;
                no verdict: error "no human verdict yet"), and one for the decision
  --markdown F  write a Markdown summary for a pull-request comment or a job summary (at most 65,000 characters)
  --public-url  the server's address for the links in the reports (default FLOWBENCH_PUBLIC_URL, else FLOWBENCH_URL)
  env           FLOWBENCH_URL (default http://localhost:3000), FLOWBENCH_TOKEN (an API token with eval.read)
exit codes      0 PASS, 1 FAIL, or PENDING without --wait (what is missing is printed), 2 usage or connection error,
                3 still PENDING when --wait ran out`;

const DEFAULT_WAIT_S = 3600;
const DEFAULT_INTERVAL_S = 15;
/** while waiting, a server that cannot be reached (or answers 502-504) is retried this many polls in a row */
const TRANSIENT_RETRIES = 5;

function human(r: GateResponse, result: GateResult): string {
  const lines = [
    `${result.status.toUpperCase()} ${r.shortId} (set "${r.setName}" v${r.setVersion}, ${r.input.setKind}, run ${r.input.runStatus})`,
  ];
  const c = result.counts;
  if (result.status === "pending") lines.push(`  waiting for: ${result.missing.join("; ")}`);
  lines.push(`  ${gateCountsLine(c)}; failed ${c.fail}; spot-checks left ${c.spotChecksLeft}`);
  if (result.audit) {
    const estimate = falsePassWords(result.audit);
    lines.push(`  ${result.audit.line}${estimate ? `; ${estimate}` : ""}`);
  }
  for (const reason of result.reasons) lines.push(`  - ${reason.code}: ${reason.message}`);
  if (result.unjudged.length) lines.push(`  missing verdicts: ${result.unjudged.join(", ")}`);
  if (result.spotChecksLeft.length) lines.push(`  spot-checks left: ${result.spotChecksLeft.join(", ")}`);
  if (result.auditLeft.length) lines.push(`  audit items left: ${result.auditLeft.join(", ")}`);
  if (result.failing.length) lines.push(`  failing: ${result.failing.join(", ")}`);
  lines.push("  (machine suggestions never count)");
  return lines.join("\n");
}

function seconds(v: string | boolean | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined || v === true) return dflt;
  const n = Number(v);
  if (v === false || !Number.isFinite(n) || n < min)
    throw new UsageError(`--${name} must be a number of seconds >= ${min}`);
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function progress(r: GateResponse, result: GateResult, elapsedS: number): string {
  const c = result.counts;
  const head = `[gate ${Math.round(elapsedS)}s] ${result.status.toUpperCase()} ${r.shortId}: ${c.pass}/${c.questions} passes, threshold ${c.threshold}, ${c.unjudged} unjudged, ${c.spotChecksLeft} spot-checks left`;
  return result.status === "pending" ? `${head}; waiting for: ${result.missing.join(", ")}` : head;
}

async function fetchGate(server: Server, runId: string): Promise<GateResponse> {
  const r = await getJson<GateResponse>(server, `/api/eval/runs/${encodeURIComponent(runId)}/gate`);
  if (!r?.input || !Array.isArray(r.input.questions))
    throw new ConnectError("the server's answer has no gate input (is it a Flowbench server?)");
  return { ...r, result: evaluateGate(r.input) };
}

/** Every item of the run (pages of 500) and the run itself, for the reports. */
async function fetchItems(server: Server, runId: string): Promise<{ run: ReportRun; items: ReportItem[] }> {
  const items: ReportItem[] = [];
  let run: ReportRun | undefined;
  let cursor: string | null = null;
  do {
    const page: { run: ReportRun; items: ReportItem[]; nextCursor: string | null } = await getJson(
      server,
      `/api/eval/runs/${encodeURIComponent(runId)}/items?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    run ??= page.run;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  if (!run) throw new ConnectError("the server's item list has no run");
  return { run, items };
}

function writeFile(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text);
}

void main(async () => {
  const flags = parseFlags(process.argv.slice(2), {
    values: ["run-id", "url", "token", "junit", "markdown", "interval", "public-url"],
    booleans: ["json", "help"],
    optional: ["wait"],
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const runIdFlag = flags["run-id"];
  if (typeof runIdFlag !== "string" || !runIdFlag.trim()) throw new UsageError("--run-id is required");
  const runId = runIdFlag.trim();
  const waiting = flags.wait !== undefined;
  const waitS = seconds(flags.wait, "wait", DEFAULT_WAIT_S, 0);
  const intervalS = seconds(flags.interval, "interval", DEFAULT_INTERVAL_S, 0.1);
  for (const name of ["junit", "markdown"] as const) {
    const file = flags[name];
    if (file !== undefined && (typeof file !== "string" || !file.trim()))
      throw new UsageError(`--${name} needs a file`);
  }
  const server = serverFrom(flags);
  const publicUrl = String(flags["public-url"] ?? (process.env.FLOWBENCH_PUBLIC_URL || server.url));
  if (!/^https?:\/\//.test(publicUrl)) throw new UsageError(`--public-url must be an http(s) URL, got "${publicUrl}"`);

  const started = Date.now();
  let r = await fetchGate(server, runId);
  if (waiting) {
    const deadline = started + waitS * 1000;
    let last = progress(r, r.result, 0);
    let lastPrinted = Date.now();
    console.error(last);
    let failures = 0;
    while (r.result.status === "pending" && Date.now() < deadline) {
      await sleep(Math.min(intervalS * 1000, Math.max(0, deadline - Date.now())));
      try {
        r = await fetchGate(server, runId);
        failures = 0;
      } catch (e) {
        if (!(e instanceof ConnectError && e.transient) || ++failures > TRANSIENT_RETRIES) throw e;
        console.error(`[gate] ${e.message} (retrying, ${failures} of ${TRANSIENT_RETRIES})`);
        continue;
      }
      const line = progress(r, r.result, (Date.now() - started) / 1000);
      // a line when something changed, and a sign of life every minute
      if (
        line.replace(/^\[gate \d+s\] /, "") !== last.replace(/^\[gate \d+s\] /, "") ||
        Date.now() - lastPrinted >= 60_000
      ) {
        console.error(line);
        last = line;
        lastPrinted = Date.now();
      }
    }
    if (r.result.status === "pending")
      console.error(`[gate] still PENDING after ${waitS} s: waiting for ${r.result.missing.join(", ")} (exit 3)`);
  }
  const result = r.result;

  if (flags.junit || flags.markdown) {
    const { run, items } = await fetchItems(server, r.runId);
    const data: GateReportData = { gate: r, run, items, baseUrl: publicUrl, at: new Date().toISOString() };
    if (typeof flags.junit === "string") writeFile(flags.junit, junitReport(data));
    if (typeof flags.markdown === "string") writeFile(flags.markdown, markdownReport(data));
  }

  if (flags.json)
    console.log(
      JSON.stringify(
        {
          passed: result.passed,
          status: result.status,
          runId: r.runId,
          shortId: r.shortId,
          set: { id: r.setId, name: r.setName, version: r.setVersion },
          result,
        },
        null,
        2,
      ),
    );
  else console.log(human(r, result));
  return result.passed ? 0 : result.status === "pending" && waiting ? 3 : 1;
}, USAGE);
