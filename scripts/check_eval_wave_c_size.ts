#!/usr/bin/env -S npx tsx
/**
 * check_eval_wave_c_size (--set-id <SET_ID> | --run-id <RUN_ID>) [--version N] [--questions 30] [--min-script 2]
 *                        [--threshold 26] [--json] [--url URL] [--token TOKEN]
 *
 * Part of the sample gate: checks that the sample agent's gate set is the set the gate "26 of 30" assumes (see
 * server/eval/reports/wave-c.ts): a frozen golden version of exactly 30 questions, at least 2 of them multi-turn script
 * questions, every question with expected points, a threshold of at least 26. The set comes from --set-id (its
 * latest frozen version, or --version), --run-id (the run's set version) or FLOWBENCH_GATE_SET_ID.
 * Exit 0 pass, 1 fail (problems listed), 2 usage or connection error. Talks to the server over REST.
 */
import { checkWaveCSize, WAVE_C_DEFAULTS } from "../server/eval/reports/wave-c";
import { UsageError, getJson, main, parseFlags, serverFrom } from "./lib/cli-http";

const USAGE = `usage: check_eval_wave_c_size (--set-id <SET_ID> | --run-id <RUN_ID>) [--version N] [--questions 30] [--min-script 2] [--threshold 26] [--json]
  env        FLOWBENCH_URL (default http://localhost:3000), FLOWBENCH_TOKEN, FLOWBENCH_GATE_SET_ID (default --set-id)
exit codes   0 the set has the size the gate assumes, 1 it does not, 2 usage or connection error`;

type SetDetail = {
  id: string;
  name: string;
  kind: string;
  gateThreshold: number;
  versions: Array<{ version: number; status: string }>;
};
type Samples = {
  version: { version: number; status: string };
  items: Array<{ key: string; expectedPoints: unknown; script: unknown }>;
};

const int = (v: string | boolean | undefined, name: string, dflt: number) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number`);
  return n;
};

void main(async () => {
  const flags = parseFlags(process.argv.slice(2), {
    values: ["set-id", "run-id", "version", "questions", "min-script", "threshold", "url", "token"],
    booleans: ["json", "help"],
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const server = serverFrom(flags);
  let setId = typeof flags["set-id"] === "string" ? flags["set-id"] : process.env.FLOWBENCH_GATE_SET_ID;
  let version = flags.version === undefined ? undefined : int(flags.version, "version", 1);
  if (typeof flags["run-id"] === "string") {
    const run = await getJson<{ setId: string; setVersion: number }>(
      server,
      `/api/eval/runs/${encodeURIComponent(flags["run-id"])}`,
    );
    setId = run.setId;
    version ??= run.setVersion;
  }
  if (!setId) throw new UsageError("--set-id, --run-id or FLOWBENCH_GATE_SET_ID is required");
  const set = await getJson<SetDetail>(server, `/api/eval/sets/${encodeURIComponent(setId)}`);
  version ??= set.versions.find((v) => v.status === "frozen")?.version ?? set.versions[0]?.version;
  if (!version) throw new UsageError(`set ${set.name} has no versions`);
  const samples = await getJson<Samples>(
    server,
    `/api/eval/sets/${encodeURIComponent(setId)}/versions/${version}/samples`,
  );
  const opts = {
    questions: int(flags.questions, "questions", WAVE_C_DEFAULTS.questions),
    minScript: int(flags["min-script"], "min-script", WAVE_C_DEFAULTS.minScript),
    threshold: int(flags.threshold, "threshold", WAVE_C_DEFAULTS.threshold),
  };
  const result = checkWaveCSize(
    {
      setName: set.name,
      setKind: set.kind,
      version: samples.version.version,
      status: samples.version.status,
      gateThreshold: set.gateThreshold,
      samples: samples.items,
    },
    opts,
  );
  if (flags.json)
    console.log(
      JSON.stringify({ setId: set.id, version: samples.version.version, expected: opts, ...result }, null, 2),
    );
  else console.log([result.summary, ...result.problems.map((p) => `  - ${p}`)].join("\n"));
  return result.passed ? 0 : 1;
}, USAGE);
