import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateGate, type GateInput } from "../server/eval/reports/gate";

/**
 * check_eval_golden_gate --wait when the server is briefly away: what a real server cannot be made to do on cue in
 * tests/integration/eval-ci.test.ts (which proves the waiting, the verdicts and the exit codes against the started
 * app). A local HTTP server answers the gate endpoint from a script of answers: 503s and refused connections are
 * retried (five polls in a row at most), a 401 ends the wait at once with exit 2.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

const input = (verdict: "pass" | null): GateInput => ({
  runId: "run_1",
  shortId: "R-AAAAA",
  runStatus: "awaiting_review",
  setKind: "golden",
  threshold: 1,
  questions: [{ key: "q1", verdict, source: verdict ? "human" : null }],
});
const gate = (verdict: "pass" | null) => {
  const i = input(verdict);
  return {
    runId: "run_1",
    shortId: "R-AAAAA",
    setId: "s",
    setName: "S",
    setVersion: 1,
    input: i,
    result: evaluateGate(i),
  };
};

let script: Array<number | "pending" | "pass"> = [];
let calls = 0;
let server: http.Server;
let url = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    calls++;
    const step = script.length > 1 ? script.shift()! : script[0]!;
    if (typeof step === "number") {
      res.writeHead(step, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: step === 401 ? "UNAUTHENTICATED" : "UNAVAILABLE", message: "no" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(gate(step === "pass" ? "pass" : null)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function gateCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [path.join(ROOT, "bin", "check_eval_golden_gate.mjs"), "--run-id", "R-AAAAA", ...args],
      { cwd: ROOT, env: { ...process.env, FLOWBENCH_URL: url, FLOWBENCH_TOKEN: "fb_t" }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe("check_eval_golden_gate --wait against a server that goes away", () => {
  it("503s while waiting are retried; the gate then passes: exit 0", async () => {
    script = ["pending", 503, 503, "pending", "pass"];
    calls = 0;
    const r = await gateCli(["--wait", "30", "--interval", "0.1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("answered 503 UNAVAILABLE: no (retrying, 1 of 5)");
    expect(r.stderr).toContain("(retrying, 2 of 5)");
    expect(r.stderr).toMatch(/PASS R-AAAAA: 1\/1 passes/);
    expect(r.stdout).toMatch(/^PASS R-AAAAA/);
    expect(calls).toBe(5);
  });

  it("six failed polls in a row end the wait: exit 2", async () => {
    script = ["pending", 503];
    const r = await gateCli(["--wait", "30", "--interval", "0.1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("(retrying, 5 of 5)");
    expect(r.stderr).toMatch(/error: .* answered 503/);
  });

  it("a 401 while waiting is not retried: exit 2 at once; the first call failing is exit 2 too", async () => {
    script = ["pending", 401];
    const r = await gateCli(["--wait", "30", "--interval", "0.1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("retrying");
    expect(r.stderr).toContain("answered 401 UNAUTHENTICATED");
    script = [503];
    expect((await gateCli(["--wait", "30", "--interval", "0.1"])).code).toBe(2);
  });

  it("still pending when the time is up: exit 3 (--wait 0: one look); without --wait it is exit 1, eval.test.ts", async () => {
    script = ["pending"];
    const waited = await gateCli(["--wait", "0.5", "--interval", "0.1"]);
    expect(waited.code).toBe(3);
    expect(waited.stderr).toContain("still PENDING after 0.5 s: waiting for 1 question without a verdict");
    expect((await gateCli(["--wait", "0"])).code).toBe(3);
  });
});
