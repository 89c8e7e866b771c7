#!/usr/bin/env -S npx tsx
/**
 * check_eval_golden_gate --run-id <RUN_ID> [--json] [--url URL] [--token TOKEN]
 *
 * The release gate (spec 4.3): passes (exit 0) only when every question of the run's set has a verdict, every
 * spot-check question has one a person typed, and the human-confirmed passes reach the set's threshold; a
 * regression-pool run never passes; machine suggestions never count. Exit 1 on FAIL (decided) and on PENDING (still
 * answering, questions without a verdict, spot-checks left; printed with what is missing); exit 2 on usage,
 * connection, auth or unknown run. `--json` carries `status` ("pass" | "fail" | "pending").
 * Talks to the server over REST (FLOWBENCH_URL, default http://localhost:3000; FLOWBENCH_TOKEN), so it works
 * against the embedded database and a deployment alike. It re-evaluates the gate with the same pure rule the
 * server uses (server/eval/reports/gate.ts) from the inputs the server returns.
 */
import { evaluateGate, gateCountsLine, type GateInput, type GateResult } from "../server/eval/reports/gate";
import { ConnectError, UsageError, getJson, main, parseFlags, serverFrom } from "./lib/cli-http";

const USAGE = `usage: check_eval_golden_gate --run-id <RUN_ID> [--json] [--url <FLOWBENCH_URL>] [--token <FLOWBENCH_TOKEN>]
  RUN_ID     the short Run ID (R-7K2F9) or the run's id
  --json     print the result as JSON (for machines)
  env        FLOWBENCH_URL (default http://localhost:3000), FLOWBENCH_TOKEN (an API token with eval.read)
exit codes   0 PASS, 1 FAIL or PENDING (not decided yet: what is missing is printed), 2 usage or connection error`;

type GateResponse = {
  runId: string;
  shortId: string;
  setId: string;
  setName: string;
  setVersion: number;
  input: GateInput;
  result: GateResult;
};

function human(r: GateResponse, result: GateResult): string {
  const lines = [
    `${result.status.toUpperCase()} ${r.shortId} (set "${r.setName}" v${r.setVersion}, ${r.input.setKind}, run ${r.input.runStatus})`,
  ];
  const c = result.counts;
  if (result.status === "pending") lines.push(`  waiting for: ${result.missing.join("; ")}`);
  lines.push(`  ${gateCountsLine(c)}; failed ${c.fail}; spot-checks left ${c.spotChecksLeft}`);
  for (const reason of result.reasons) lines.push(`  - ${reason.code}: ${reason.message}`);
  if (result.unjudged.length) lines.push(`  missing verdicts: ${result.unjudged.join(", ")}`);
  if (result.spotChecksLeft.length) lines.push(`  spot-checks left: ${result.spotChecksLeft.join(", ")}`);
  if (result.failing.length) lines.push(`  failing: ${result.failing.join(", ")}`);
  lines.push("  (machine suggestions never count)");
  return lines.join("\n");
}

void main(async () => {
  const flags = parseFlags(process.argv.slice(2), { values: ["run-id", "url", "token"], booleans: ["json", "help"] });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const runId = flags["run-id"];
  if (typeof runId !== "string" || !runId.trim()) throw new UsageError("--run-id is required");
  const server = serverFrom(flags);
  const r = await getJson<GateResponse>(server, `/api/eval/runs/${encodeURIComponent(runId.trim())}/gate`);
  if (!r?.input || !Array.isArray(r.input.questions))
    throw new ConnectError("the server's answer has no gate input (is it a Flowbench server?)");
  const result = evaluateGate(r.input);
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
  return result.passed ? 0 : 1;
}, USAGE);
