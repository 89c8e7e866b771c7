#!/usr/bin/env -S npx tsx
/**
 * flowbench-eval run (--set-version <SET_VERSION_ID> | --set <SET_ID> [--version N]) [--tier TIER] [--environment L]
 *                    [--agent-version N] [--concurrency N] [--repeats N] [--wait-answered [SECONDS]] [--json]
 *
 * Starts an evaluation run from CI (issue 25, "start -> wait for people -> gate"): creates an in-platform run of a
 * frozen set version (`POST /api/eval/runs`), starts it (`POST /api/eval/runs/{id}/start`) and prints its short Run
 * ID on stdout, alone, so a workflow can write `RUN=$(npx flowbench-eval run ...)` and hand it to
 * check_eval_golden_gate. `--wait-answered` then polls `GET /api/eval/runs/{id}` until every question is answered
 * (awaiting_review), printing progress on stderr. Exit 0 started (and answered, with --wait-answered); 1 the run
 * failed or was cancelled while waited for; 2 usage, connection, auth or a refusal by the server (its code and
 * message printed, e.g. 400 SET_VERSION_NOT_FROZEN); 3 still answering when --wait-answered ran out.
 * Talks REST like the other evaluation CLIs (FLOWBENCH_URL, FLOWBENCH_TOKEN: a token with eval.manage).
 */
import { ConnectError, UsageError, getJson, main, parseFlags, requestJson, serverFrom } from "./lib/cli-http";

const USAGE = `usage: flowbench-eval run (--set-version <SET_VERSION_ID> | --set <SET_ID> [--version N]) [--tier pipeline_live|pipeline|invoke]
                          [--environment LABEL] [--agent-version N] [--concurrency N] [--repeats N]
                          [--wait-answered [SECONDS]] [--interval SECONDS] [--json] [--url <FLOWBENCH_URL>] [--token <FLOWBENCH_TOKEN>]
  run               create an in-platform run of a frozen set version, start it, print its short Run ID (R-7K2F9)
  --set-version ID  the frozen set version to run
  --set ID          or the set: its latest frozen version, or --version N
  --tier            pipeline_live (real calls to the agent's services), pipeline or invoke (default pipeline)
  --environment L   a label of the answering environment, e.g. the pull request (default "ci")
  --agent-version N the agent's workflow version to run (default its latest)
  --wait-answered [S]  wait until every question is answered (awaiting_review), at most S seconds (default 3600)
  --interval S      seconds between two polls while waiting (default 5)
  --json            print the run as JSON instead of its short Run ID
  env               FLOWBENCH_URL (default http://localhost:3000), FLOWBENCH_TOKEN (an API token with eval.manage)
exit codes          0 started (and answered), 1 the run failed or was cancelled, 2 usage, connection or refused,
                    3 still answering when --wait-answered ran out`;

type Run = {
  id: string;
  shortId: string;
  status: string;
  error: string | null;
  progress: { total: number; done: number; answered: number; failed: number };
};
type SetDetail = { id: string; name: string; versions: Array<{ id: string; version: number; status: string }> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function number(v: string | boolean | undefined, name: string, opts: { min: number; integer: boolean }) {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== "string" || !Number.isFinite(n) || n < opts.min || (opts.integer && !Number.isInteger(n)))
    throw new UsageError(`--${name} must be a ${opts.integer ? "whole " : ""}number >= ${opts.min}`);
  return n;
}

const progressLine = (r: Run, elapsedS: number) =>
  `[run ${Math.round(elapsedS)}s] ${r.shortId} ${r.status}: ${r.progress.done}/${r.progress.total} done (${r.progress.answered} answered, ${r.progress.failed} failed)`;

void main(async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "--help" || command === "help" || command === undefined) {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "run") throw new UsageError(`unknown command "${command}" (the one command is "run")`);
  const flags = parseFlags(rest, {
    values: [
      "set-version",
      "set",
      "version",
      "tier",
      "environment",
      "agent-version",
      "concurrency",
      "repeats",
      "interval",
      "url",
      "token",
    ],
    booleans: ["json", "help"],
    optional: ["wait-answered"],
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const setVersionFlag = flags["set-version"];
  const setFlag = flags.set;
  if ((setVersionFlag === undefined) === (setFlag === undefined))
    throw new UsageError("give one of --set-version or --set");
  if (setVersionFlag !== undefined && flags.version !== undefined)
    throw new UsageError("--version goes with --set (a set version id names its version already)");
  const version = number(flags.version, "version", { min: 1, integer: true });
  const waiting = flags["wait-answered"] !== undefined;
  const waitS =
    flags["wait-answered"] === true
      ? 3600
      : (number(flags["wait-answered"], "wait-answered", { min: 0, integer: false }) ?? 0);
  const intervalS = number(flags.interval, "interval", { min: 0.1, integer: false }) ?? 5;
  const body = {
    mode: "in_platform",
    tier: typeof flags.tier === "string" ? flags.tier : "pipeline",
    environment: typeof flags.environment === "string" ? flags.environment : "ci",
    ...(flags["agent-version"] !== undefined
      ? { agentVersion: number(flags["agent-version"], "agent-version", { min: 1, integer: true }) }
      : {}),
    ...(flags.concurrency !== undefined
      ? { concurrency: number(flags.concurrency, "concurrency", { min: 1, integer: true }) }
      : {}),
    ...(flags.repeats !== undefined ? { repeats: number(flags.repeats, "repeats", { min: 1, integer: true }) } : {}),
  };
  const server = serverFrom(flags);

  let setVersionId = typeof setVersionFlag === "string" ? setVersionFlag.trim() : "";
  if (typeof setFlag === "string") {
    const set = await getJson<SetDetail>(server, `/api/eval/sets/${encodeURIComponent(setFlag.trim())}`);
    const frozen = set.versions
      .filter((v) => v.status === "frozen" && (version === undefined || v.version === version))
      .sort((a, b) => b.version - a.version)[0];
    if (!frozen)
      throw new ConnectError(
        `the set "${set.name}" has no frozen version${version === undefined ? "" : ` ${version}`} to run (freeze one first)`,
      );
    setVersionId = frozen.id;
  }
  if (!setVersionId) throw new UsageError("--set-version needs an id");

  const created = await requestJson<Run>(server, "POST", "/api/eval/runs", { setVersionId, ...body });
  let run = await requestJson<Run>(server, "POST", `/api/eval/runs/${created.id}/start`);
  const started = Date.now();
  console.error(progressLine(run, 0));
  if (waiting) {
    const deadline = started + waitS * 1000;
    let last = "";
    let failures = 0;
    while ((run.status === "created" || run.status === "answering") && Date.now() < deadline) {
      await sleep(Math.min(intervalS * 1000, Math.max(0, deadline - Date.now())));
      try {
        run = await getJson<Run>(server, `/api/eval/runs/${run.id}`);
        failures = 0;
      } catch (e) {
        if (!(e instanceof ConnectError && e.transient) || ++failures > 5) throw e;
        console.error(`[run] ${e.message} (retrying, ${failures} of 5)`);
        continue;
      }
      const line = progressLine(run, (Date.now() - started) / 1000);
      if (line.replace(/^\[run \d+s\] /, "") !== last) console.error(line);
      last = line.replace(/^\[run \d+s\] /, "");
    }
  }
  console.log(flags.json ? JSON.stringify(run, null, 2) : run.shortId);
  if (!waiting) return 0;
  if (run.status === "awaiting_review" || run.status === "completed") return 0;
  if (run.status === "created" || run.status === "answering") {
    console.error(`[run] ${run.shortId} still ${run.status} after ${waitS} s (exit 3)`);
    return 3;
  }
  console.error(`[run] ${run.shortId} ${run.status}${run.error ? `: ${run.error}` : ""}`);
  return 1;
}, USAGE);
