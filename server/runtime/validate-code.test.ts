/** The code node and the Python syntax check against the real sandbox (server/runtime/sandbox). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { Db } from "../db/client";
import { createOfflineProvider } from "../llm";
import { FINDING_CODES, type FindingCode, type Workflow } from "../workflow";
import { FINDING_FIXTURES } from "../workflow/fixtures";
import { runWorkflow } from "./executor";
import { HTTP_LIMITS, defaultResolver } from "./http/client";
import type { RuntimeDeps } from "./nodes/context";
import { createSandbox, type HostSandbox } from "./sandbox";
import { validateWorkflowWithCode, type SyntaxChecker } from "./validate-code";

let sandbox: HostSandbox;
let db: Db;
let close: () => Promise<void>;
let check: SyntaxChecker;
const unavailable: SyntaxChecker = async () => Promise.reject(new Error("sandbox host could not start"));

beforeAll(async () => {
  sandbox = createSandbox();
  ({ db, close } = await createTestDb());
  await sandbox.warmUp();
  check = (code) => sandbox.checkSyntax(code);
}, 180_000);
afterAll(async () => {
  await sandbox.close();
  await close();
});

describe("validateWorkflowWithCode", () => {
  const sandboxCodes = (Object.keys(FINDING_FIXTURES) as FindingCode[]).filter(
    (c) => FINDING_FIXTURES[c].sandbox !== undefined,
  );

  it("covers the sandbox finding codes", () => {
    expect(sandboxCodes.sort()).toEqual(["CODE_SYNTAX_ERROR", "CODE_SYNTAX_UNCHECKED"]);
  });

  it.each(sandboxCodes.map((c) => [c] as [FindingCode]))(
    "%s: produced by its trigger body, not by its clean body",
    async (code) => {
      const fixture = FINDING_FIXTURES[code];
      const checker = fixture.sandbox === "available" ? check : unavailable;
      const result = await validateWorkflowWithCode(fixture.trigger, { ...fixture.opts, checkSyntax: checker });
      const severity = FINDING_CODES[code].severity;
      const hits = (severity === "error" ? result.errors : result.warnings).filter((f) => f.code === code);
      expect(hits.length, JSON.stringify(result)).toBeGreaterThan(0);
      if (severity === "error") expect(result.valid).toBe(false);
      else expect(result.valid).toBe(true);
      for (const hit of hits) {
        expect(hit.severity).toBe(severity);
        expect(hit.message).toMatch(/\.$/);
      }
      expect(hits.map((h) => h.path)).toContain(fixture.path);
      expect(hits.map((h) => h.nodeId)).toContain(fixture.nodeId);
      const clean = await validateWorkflowWithCode(fixture.clean, { ...fixture.opts, checkSyntax: checker });
      expect([...clean.errors, ...clean.warnings].filter((f) => f.code === code)).toEqual([]);
    },
  );

  it("names the line and column; keeps the pure validator's findings; skips the sandbox when there is no code node", async () => {
    const result = await validateWorkflowWithCode(FINDING_FIXTURES.CODE_SYNTAX_ERROR.trigger, { checkSyntax: check });
    expect(result.errors[0]?.message).toMatch(/line 1, column \d+: SyntaxError/);
    let called = 0;
    const counting: SyntaxChecker = async (c) => {
      called++;
      return check(c);
    };
    const minimal = FINDING_FIXTURES.CODE_SYNTAX_UNCHECKED.clean;
    expect(await validateWorkflowWithCode(minimal, { checkSyntax: counting })).toMatchObject({
      valid: true,
      errors: [],
    });
    expect(called).toBe(0);
    const broken = await validateWorkflowWithCode({ workflow: { nodes: "x", edges: [] } }, { checkSyntax: counting });
    expect(broken.errors[0]?.code).toBe("BODY_INVALID_TYPE");
  });

  it("checks each distinct source text once per request", async () => {
    let calls = 0;
    const counting: SyntaxChecker = async (c) => {
      calls++;
      return check(c);
    };
    const body = structuredClone(FINDING_FIXTURES.CODE_SYNTAX_ERROR.trigger) as {
      workflow: { nodes: Array<Record<string, unknown>>; edges: unknown[] };
    };
    const copy = { ...structuredClone(body.workflow.nodes[1]), id: "code_2", position: { x: 200, y: 200 } };
    body.workflow.nodes.push(copy);
    body.workflow.edges.push({ source: "start", target: "code_2" }, { source: "code_2", target: "end" });
    const result = await validateWorkflowWithCode(body, { checkSyntax: counting });
    expect(calls).toBe(1);
    expect(result.errors.filter((f) => f.code === "CODE_SYNTAX_ERROR").map((f) => f.nodeId)).toEqual([
      "code_1",
      "code_2",
    ]);
  });

  it("a slow sandbox gives the warning instead of hanging", async () => {
    const slow: SyntaxChecker = () => new Promise(() => undefined);
    const result = await validateWorkflowWithCode(FINDING_FIXTURES.CODE_SYNTAX_UNCHECKED.trigger, {
      checkSyntax: slow,
      checkTimeoutMs: 100,
    });
    expect(result.valid).toBe(true);
    expect(result.warnings.map((w) => w.code)).toContain("CODE_SYNTAX_UNCHECKED");
  });
});

describe("code node in the real sandbox", () => {
  const deps = (): RuntimeDeps => ({
    llm: createOfflineProvider(),
    http: { policy: { rules: [], resolver: defaultResolver, ...HTTP_LIMITS } },
    sandbox: async () => sandbox,
  });
  const workflow = (code: string, inputs?: Record<string, string>, timeout?: number): Workflow =>
    ({
      nodes: [
        {
          id: "start",
          type: "start",
          config: { outputs: [{ name: "query", type: "string", required: true }], variables: { limit: 2 } },
          position: { x: 0, y: 0 },
        },
        {
          id: "code_1",
          type: "code",
          config: { code, ...(inputs ? { inputs } : {}), ...(timeout ? { timeout } : {}) },
          position: { x: 1, y: 0 },
        },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{code_1.result.text}}",
            payload: { result: "{{code_1.result}}", stdout: "{{code_1.stdout}}" },
          },
          position: { x: 2, y: 0 },
        },
      ],
      edges: [
        { source: "start", target: "code_1" },
        { source: "code_1", target: "end" },
      ],
    }) as Workflow;
  const run = (w: Workflow, signal?: AbortSignal) =>
    runWorkflow(
      db,
      { workflow: w, input: { query: "Mapo Tofu" }, mode: "pipeline", source: "test_run", signal },
      deps(),
    );

  it("runs Python with rendered inputs (structured values kept) and exposes result and stdout", async () => {
    const res = await run(
      workflow("print('len', len(inputs['q']))\nresult = {'text': inputs['q'].upper(), 'limit': inputs['n'] * 2}", {
        q: "{{start.query}}",
        n: "{{start.limit}}",
      }),
    );
    expect(res.status).toBe("succeeded");
    expect(res.answer).toBe("MAPO TOFU");
    expect(res.payload).toEqual({ result: { text: "MAPO TOFU", limit: 4 }, stdout: "len 9\n" });
  });

  it("without an inputs config the script gets every upstream output by node id", async () => {
    const res = await run(workflow("result = {'text': inputs['start']['query'] + '!'}"));
    expect(res.answer).toBe("Mapo Tofu!");
  });

  it("sandbox errors fail the node with the sandbox's code", async () => {
    expect((await run(workflow("raise ValueError('no dish')"))).error).toMatchObject({
      code: "PYTHON_ERROR",
      nodeId: "code_1",
    });
    expect((await run(workflow("x = 1"))).error).toMatchObject({ code: "RESULT_MISSING", nodeId: "code_1" });
    expect((await run(workflow("while True:\n    pass", undefined, 300))).error).toMatchObject({
      code: "TIMEOUT",
      nodeId: "code_1",
    });
  });

  it("cancellation reaches the sandbox", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const t = Date.now();
    const res = await run(workflow("while True:\n    pass", undefined, 20_000), controller.signal);
    expect(res).toMatchObject({ status: "cancelled", error: { code: "CANCELLED", nodeId: "code_1" } });
    expect(Date.now() - t).toBeLessThan(3000);
    // the sandbox is usable afterwards
    expect((await run(workflow("result = {'text': 'ok'}"))).answer).toBe("ok");
  });
});
