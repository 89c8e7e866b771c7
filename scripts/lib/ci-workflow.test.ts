import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/ci/github-actions.yml stays true to the CLIs: every `npx flowbench-eval` and `npx check_eval_golden_gate`
 * command in it is parsed by the CLI it names (run against an address where nothing listens, the CLI gets past its
 * options and fails to connect: exit 2, "cannot reach", not "unknown option"). What the commands do against a server
 * is tests/integration/eval-ci.test.ts.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const workflow = fs.readFileSync(path.join(ROOT, "docs/ci/github-actions.yml"), "utf8");

/** The workflow's CLI commands, continuation lines joined, expressions and shell variables made plain words. */
function commands(): Array<{ bin: string; args: string[] }> {
  const joined = workflow.replace(/\\\n\s*/g, " ");
  return [...joined.matchAll(/npx (flowbench-eval|check_eval_golden_gate) ([^\n)]*)/g)].map((m) => ({
    bin: m[1]!,
    args: m[2]!
      .replace(/"[^"]*"/g, "VALUE")
      .trim()
      .split(/\s+/),
  }));
}

function run(bin: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [path.join(ROOT, "bin", `${bin}.mjs`), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, FLOWBENCH_URL: "http://127.0.0.1:9", FLOWBENCH_TOKEN: "fb_x" },
        timeout: 60_000,
      },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}

describe("docs/ci/github-actions.yml", () => {
  const found = commands();

  it("starts a run, comments with the gate's summary, waits for the gate with JUnit and Markdown", () => {
    expect(found.map((c) => `${c.bin} ${c.args.filter((a) => a.startsWith("--")).join(" ")}`)).toEqual([
      "flowbench-eval --set --tier --environment --wait-answered",
      "check_eval_golden_gate --run-id --wait --markdown",
      "check_eval_golden_gate --run-id --wait --interval --junit --markdown",
    ]);
    expect(workflow).toContain("pull_request:");
    expect(workflow).toContain("gh pr comment");
  });

  it("every command's options are ones its CLI takes", async () => {
    for (const c of found) {
      const r = await run(c.bin, c.args);
      expect(r.stderr, `${c.bin} ${c.args.join(" ")}`).toContain("cannot reach http://127.0.0.1:9");
      expect(r.code).toBe(2);
    }
  });
});
