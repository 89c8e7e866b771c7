#!/usr/bin/env -S npx tsx
/**
 * check_eval_golden_gate --run-id <RUN_ID> [--json] [--url URL] [--token TOKEN]
 *
 * The release gate (spec 4.3): passes (exit 0) only when every question of the run's set has a verdict and the
 * human-confirmed passes reach the set's threshold; a regression-pool run never passes; machine suggestions never
 * count. Exit 1 with a summary of what is missing or failing; exit 2 on usage, connection, auth or unknown run.
 * Talks to the server over REST (FLOWBENCH_URL, default http://localhost:3000; FLOWBENCH_TOKEN), so it works
 * against the embedded database and a deployment alike. It re-evaluates the gate with the same pure rule the
 * server uses (server/eval/reports/gate.ts) from the inputs the server returns.
 */
import { evaluateGate, type GateInput, type GateResult } from "../server/eval/reports/gate";
import { ConnectError, UsageError, getJson, main, parseFlags, serverFrom } from "./lib/cli-http";

const USAGE = `usage: check_eval_golden_gate --run-id <RUN_ID> [--json] [--url <FLOWBENCH_URL>] [--token <FLOWBENCH_TOKEN>]
  RUN_ID     the short Run ID (R-7K2F9) or the run's id
  --json     print the result as JSON (for machines)
  env        FLOWBENCH_URL (default http://localhost:3000), FLOWBENCH_TOKEN (an API token with eval.read)
exit codes   0 gate passed, 1 gate failed, 2 usage or connection error`;

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
    `${result.passed ? "PASS" : "FAIL"} ${r.shortId} (set "${r.setName}" v${r.setVersion}, ${r.input.setKind}, run ${r.input.runStatus})`,
  ];
  const c = result.counts;
  lines.push(
    `  human-confirmed passes: ${c.pass}/${c.questions} (threshold ${c.threshold}); failed ${c.fail}; without verdict ${c.unjudged}`,
  );
  for (const reason of result.reasons) lines.push(`  - ${reason.code}: ${reason.message}`);
  if (result.unjudged.length) lines.push(`  missing verdicts: ${result.unjudged.join(", ")}`);
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
