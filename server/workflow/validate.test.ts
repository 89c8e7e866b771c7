import { describe, expect, it } from "vitest";
import { RECIPES } from "./recipes";
import { ValidateRequestSchema, WorkflowSchema } from "./schema";
import { linearChain, realisticWorkflow, wideGraph } from "./testing";
import { validateWorkflow, validateWorkflowRequest, type Finding } from "./validate";

type Json = Record<string, unknown>;
const minimal = () => structuredClone(RECIPES.minimal.workflow) as unknown as { nodes: Json[]; edges: Json[] };
const cfg = (w: { nodes: Json[] }, i: number) => w.nodes[i]!.config as Json;
const codes = (fs: Finding[]) => fs.map((f) => f.code);
const pairs = (fs: Finding[]) => fs.map((f) => `${f.code} ${f.path}`);

describe("the spec's minimal workflow", () => {
  it("is valid with no findings", () => {
    const result = validateWorkflowRequest({ workflow: minimal() });
    expect(result).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("without the llm's userPrompt is invalid at /workflow/nodes/1/config", () => {
    const w = minimal();
    delete cfg(w, 1).userPrompt;
    const result = validateWorkflowRequest({ workflow: w });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: "NODE_CONFIG_MISSING_REQUIRED",
        path: "/workflow/nodes/1/config",
        nodeId: "llm_1",
        severity: "error",
      }),
    ]);
    expect(result.errors[0]!.message).toContain("userPrompt");
  });

  it.each(["user_prompt", "prompt_template"])("accepts %s instead of userPrompt", (key) => {
    const w = minimal();
    const c = cfg(w, 1);
    c[key] = c.userPrompt;
    delete c.userPrompt;
    expect(validateWorkflowRequest({ workflow: w })).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("treats empty and whitespace-only prompts as missing", () => {
    for (const value of ["", "   ", null]) {
      const w = minimal();
      cfg(w, 1).userPrompt = value;
      const result = validateWorkflowRequest({ workflow: w });
      expect(codes(result.errors)).toContain("NODE_CONFIG_MISSING_REQUIRED");
    }
  });

  it("a missing config on an llm is a missing requirement; on start/end it is fine", () => {
    const w = minimal();
    delete w.nodes[1]!.config;
    delete w.nodes[2]!.config;
    const result = validateWorkflowRequest({ workflow: w });
    expect(pairs(result.errors)).toEqual(["NODE_CONFIG_MISSING_REQUIRED /workflow/nodes/1/config"]);
  });

  it("pathPrefix defaults to the workflow root", () => {
    const w = minimal();
    delete cfg(w, 1).userPrompt;
    expect(validateWorkflow(w).errors[0]!.path).toBe("/nodes/1/config");
    expect(validateWorkflow(w, { pathPrefix: "/workflow" }).errors[0]!.path).toBe("/workflow/nodes/1/config");
  });
});

describe("recipes", () => {
  it("minimal has no findings", () => {
    expect(validateWorkflowRequest({ workflow: RECIPES.minimal.workflow })).toEqual({
      valid: true,
      errors: [],
      warnings: [],
    });
  });

  it("http_call_thin is valid and warns HTTP_BASE_URL_UNSET only without a base URL", () => {
    const without = validateWorkflowRequest({ workflow: RECIPES.http_call_thin.workflow });
    expect(without.valid).toBe(true);
    expect(pairs(without.warnings)).toEqual(["HTTP_BASE_URL_UNSET /workflow/nodes/1/config/url"]);
    const withBase = validateWorkflowRequest(
      { workflow: RECIPES.http_call_thin.workflow },
      { webhookBaseUrl: "http://localhost:8000" },
    );
    expect(withBase).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("match the structural zod schema", () => {
    for (const recipe of Object.values(RECIPES)) {
      expect(ValidateRequestSchema.safeParse({ workflow: recipe.workflow }).success).toBe(true);
      expect(WorkflowSchema.safeParse(recipe.workflow).success).toBe(true);
    }
  });
});

describe("body shape", () => {
  it("reports every wrong type with its path, and keeps checking the rest", () => {
    const w = minimal() as unknown as { nodes: unknown[]; edges: unknown[] };
    const nodes = w.nodes as Json[];
    nodes[0]!.id = 7;
    nodes[1]!.position = { x: "left", y: Number.NaN };
    cfg(w as never, 1).temperature = "hot";
    cfg(w as never, 1).maxTokens = 0.5;
    nodes[2]!.type = ["end"];
    (w.edges as Json[])[1]!.target = null;
    w.edges.push("not an edge");
    w.nodes.push(null);
    const result = validateWorkflowRequest({ workflow: w });
    expect(pairs(result.errors)).toEqual(
      expect.arrayContaining([
        "BODY_INVALID_TYPE /workflow/nodes/0/id",
        "NODE_POSITION_INVALID /workflow/nodes/1/position/x",
        "NODE_POSITION_INVALID /workflow/nodes/1/position/y",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/temperature",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/maxTokens",
        "BODY_INVALID_TYPE /workflow/nodes/2/type",
        "BODY_INVALID_TYPE /workflow/edges/1/target",
        "BODY_INVALID_TYPE /workflow/edges/2",
        "BODY_INVALID_TYPE /workflow/nodes/3",
      ]),
    );
    const temp = result.errors.find((f) => f.path === "/workflow/nodes/1/config/temperature");
    expect(temp?.message).toBe('Node "llm_1" (llm): config "temperature" must be a number, got a string.');
  });

  it("reports missing and mistyped top-level fields", () => {
    expect(pairs(validateWorkflowRequest({}).errors)).toEqual(["BODY_REQUIRED_FIELD /workflow"]);
    expect(pairs(validateWorkflowRequest({ workflow: {} }).errors)).toEqual([
      "BODY_REQUIRED_FIELD /workflow/nodes",
      "BODY_REQUIRED_FIELD /workflow/edges",
    ]);
    expect(pairs(validateWorkflowRequest({ workflow: { nodes: {}, edges: "x" } }).errors)).toEqual([
      "BODY_INVALID_TYPE /workflow/nodes",
      "BODY_INVALID_TYPE /workflow/edges",
    ]);
    expect(pairs(validateWorkflowRequest({ workflow: { nodes: [], edges: [] } }).errors)).toEqual([
      "WORKFLOW_NO_START /workflow/nodes",
      "WORKFLOW_NO_END /workflow/nodes",
    ]);
  });

  it("checks config even when the position is broken", () => {
    const w = minimal();
    delete w.nodes[1]!.position;
    cfg(w, 1).temperature = 9;
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "NODE_POSITION_INVALID /workflow/nodes/1/position",
      "NODE_CONFIG_INVALID /workflow/nodes/1/config/temperature",
    ]);
  });

  const deep = (depth: number): unknown => {
    let v: unknown = "leaf";
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };
  const cyclic: Json = { a: 1 };
  cyclic.self = cyclic;

  it.each([
    ["null", null],
    ["a number", 42],
    ["a string", "x"],
    ["an array", []],
    ["workflow null", { workflow: null }],
    ["workflow array", { workflow: [] }],
    [
      "nodes of junk",
      {
        workflow: {
          nodes: [1, "a", null, [], { id: {}, type: 3, config: [], position: "here" }],
          edges: [[], 0, { source: {}, target: [] }],
        },
      },
    ],
    [
      "deeply nested config",
      {
        workflow: {
          nodes: [{ id: "h", type: "http", config: { url: "/x", body: deep(50_000) }, position: { x: 0, y: 0 } }],
          edges: [],
        },
      },
    ],
    ["deep junk as workflow", { workflow: deep(50_000) }],
    [
      "cyclic JS object",
      { workflow: { nodes: [{ id: "s", type: "start", config: cyclic, position: { x: 0, y: 0 } }], edges: [] } },
    ],
    [
      "prototype keys",
      JSON.parse(
        '{"workflow":{"nodes":[{"id":"__proto__","type":"constructor","config":{"__proto__":{"x":1},"toString":1},"position":{"x":0,"y":0}}],"edges":[{"source":"__proto__","target":"toString"}]}}',
      ),
    ],
  ])("never throws on %s", (_name, body) => {
    const result = validateWorkflowRequest(body);
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(() => JSON.stringify(result)).not.toThrow();
    for (const f of [...result.errors, ...result.warnings]) expect(f.path === "" || f.path.startsWith("/")).toBe(true);
  });

  it("escapes JSON pointer segments", () => {
    const w = minimal();
    cfg(w, 1)["a/b~c"] = 1;
    expect(pairs(validateWorkflowRequest({ workflow: w }).warnings)).toEqual([
      "NODE_CONFIG_UNKNOWN_KEY /workflow/nodes/1/config/a~1b~0c",
    ]);
  });

  it("returns at most maxFindings findings plus one FINDINGS_TRUNCATED", () => {
    const w = minimal();
    for (let i = 0; i < 3000; i++) w.nodes.push({ id: `x${i}`, type: "nope", position: { x: 0, y: 0 } });
    const result = validateWorkflowRequest({ workflow: w });
    expect(result.errors.length + result.warnings.length).toBe(1001);
    expect(result.warnings.at(-1)?.code).toBe("FINDINGS_TRUNCATED");
    expect(result.errors.length).toBe(1000);
  });
});

describe("nodes and config", () => {
  it("reports duplicate ids and still validates the duplicate's config", () => {
    const w = minimal();
    w.nodes.push({ id: "llm_1", type: "llm", config: { temperature: 5 }, position: { x: 0, y: 0 } });
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "NODE_ID_DUPLICATE /workflow/nodes/3/id",
      "NODE_CONFIG_MISSING_REQUIRED /workflow/nodes/3/config",
      "NODE_CONFIG_INVALID /workflow/nodes/3/config/temperature",
    ]);
  });

  it("checks http options: method, headers, params, timeout", () => {
    const w = structuredClone(RECIPES.http_call_thin.workflow) as unknown as { nodes: Json[] };
    Object.assign(cfg(w, 1), {
      method: "FETCH",
      headers: { "Bad Header": "x", Ok: 1 },
      params: { q: { a: 1 } },
      timeout: 50,
    });
    const result = validateWorkflowRequest({ workflow: w }, { webhookBaseUrl: "http://x" });
    expect(pairs(result.errors)).toEqual(
      expect.arrayContaining([
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/method",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/headers/Bad Header",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/headers/Ok",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/params/q",
        "NODE_CONFIG_INVALID /workflow/nodes/1/config/timeout",
      ]),
    );
    expect(result.errors.find((f) => f.path.endsWith("/timeout"))?.message).toContain("at least 100");
  });

  it.each([
    ["https://api.example.com/v1/{{start.query}}", []],
    ["http://localhost:8000/health", []],
    ["{{start.query}}", []],
    ["/orders/{{start.query}}", []],
    ["ftp://example.com/file", ["HTTP_URL_INVALID"]],
    ["https:///nohost", ["HTTP_URL_INVALID"]],
    ["//example.com/x", ["HTTP_URL_INVALID"]],
    ["health", ["HTTP_URL_INVALID"]],
  ])("http url %s", (url, expected) => {
    const w = structuredClone(RECIPES.http_call_thin.workflow) as unknown as { nodes: Json[] };
    cfg(w, 1).url = url;
    const result = validateWorkflowRequest({ workflow: w }, { webhookBaseUrl: "http://x" });
    expect(codes(result.errors)).toEqual(expected);
  });

  it("checks templates inside kv and json values with exact paths", () => {
    const w = structuredClone(RECIPES.http_call_thin.workflow) as unknown as { nodes: Json[] };
    Object.assign(cfg(w, 1), {
      method: "POST",
      headers: { Authorization: "Bearer {{start.token}}" },
      body: { items: [{ q: "{{start.query}}" }, { q: "{{llm_1.result}}" }] },
    });
    const result = validateWorkflowRequest({ workflow: w }, { webhookBaseUrl: "http://x" });
    expect(pairs(result.errors)).toEqual([
      "TEMPLATE_UNKNOWN_FIELD /workflow/nodes/1/config/headers/Authorization",
      "TEMPLATE_NOT_UPSTREAM /workflow/nodes/1/config/body/items/1/q",
    ]);
  });

  it("does not check templates in non-template fields (start variables, code)", () => {
    const w = minimal();
    cfg(w, 0).variables = { example: "{{not.checked}}" };
    expect(validateWorkflowRequest({ workflow: w }).valid).toBe(true);
  });

  it("start variables are outputs; deeper template paths are allowed", () => {
    const w = minimal();
    cfg(w, 0).variables = { profile: { name: "Ada" } };
    cfg(w, 1).userPrompt = "{{start.query}} for {{ start.profile.name }}";
    expect(validateWorkflowRequest({ workflow: w })).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("a template may name a node declared later in the array", () => {
    const w = minimal();
    w.nodes.reverse();
    expect(validateWorkflowRequest({ workflow: w }).valid).toBe(true);
  });

  it("checks start output defaults against every type", () => {
    const w = minimal();
    cfg(w, 0).outputs = [
      { name: "a", type: "integer", default: 1.5 },
      { name: "b", type: "number", default: 1.5 },
      { name: "c", type: "boolean", default: "yes" },
      { name: "d", type: "object", default: [] },
      { name: "e", type: "array", default: [] },
      { name: "query", type: "string", required: true },
      { name: "1bad", type: "string" },
    ];
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "START_OUTPUT_INVALID /workflow/nodes/0/config/outputs/6/name",
      "START_OUTPUT_DEFAULT_TYPE /workflow/nodes/0/config/outputs/0/default",
      "START_OUTPUT_DEFAULT_TYPE /workflow/nodes/0/config/outputs/2/default",
      "START_OUTPUT_DEFAULT_TYPE /workflow/nodes/0/config/outputs/3/default",
    ]);
  });

  it("memory_save extractFrom is checked as a reference", () => {
    const w = minimal();
    w.nodes.push({
      id: "save",
      type: "memory_save",
      config: { agent_id: "a", extractFrom: "llm_1.reply" },
      position: { x: 0, y: 0 },
    });
    w.edges.push({ source: "llm_1", target: "save" }, { source: "save", target: "end" });
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "TEMPLATE_UNKNOWN_FIELD /workflow/nodes/3/config/extractFrom",
    ]);
    cfg(w, 3).extractFrom = "llm_1.result.text";
    expect(validateWorkflowRequest({ workflow: w }).valid).toBe(true);
    cfg(w, 3).extractFrom = "{{llm_1.result}}";
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "NODE_CONFIG_INVALID /workflow/nodes/3/config/extractFrom",
    ]);
  });
});

describe("condition nodes", () => {
  const branching = (config: Json, labels: Array<unknown>) => ({
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string" }] },
        position: { x: 0, y: 0 },
      },
      { id: "check", type: "condition", config, position: { x: 1, y: 0 } },
      { id: "yes", type: "llm", config: { userPrompt: "{{start.query}}" }, position: { x: 2, y: 0 } },
      { id: "end", type: "end", config: {}, position: { x: 3, y: 0 } },
    ],
    edges: [
      { source: "start", target: "check" },
      { source: "check", target: "yes", condition: labels[0] },
      { source: "check", target: "end", condition: labels[1] },
      { source: "yes", target: "end" },
    ],
  });

  it.each([
    ["labels as strings", { expression: 'start.query == "x"' }, ["true", "false"]],
    ["labels as booleans", { expression: 'start.query == "x"' }, [true, false]],
    [
      "trueTarget/falseTarget",
      { expression: 'start.query == "x"', trueTarget: "yes", falseTarget: "end" },
      [undefined, undefined],
    ],
    ["mixed", { expression: 'start.query == "x"', trueTarget: "yes" }, [undefined, "false"]],
    [
      "macros with bound variables",
      { expression: '[1, 2].exists(x, x > 1) && cel.bind(q, start.query, q != "")' },
      [true, false],
    ],
  ])("accepts %s", (_name, config, labels) => {
    expect(validateWorkflowRequest({ workflow: branching(config, labels) })).toEqual({
      valid: true,
      errors: [],
      warnings: [],
    });
  });

  it("reports a label that contradicts trueTarget/falseTarget", () => {
    const w = branching({ expression: "true", trueTarget: "yes", falseTarget: "end" }, ["false", undefined]);
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "EDGE_CONDITION_INVALID /workflow/edges/1/condition",
    ]);
  });

  it("reports a condition label on an edge from a non-condition node", () => {
    const w = branching({ expression: "true" }, ["true", "false"]);
    (w.edges[3] as Json).condition = "true";
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "EDGE_CONDITION_INVALID /workflow/edges/3/condition",
    ]);
  });
});

describe("graph", () => {
  it("reports each cycle once and still checks references", () => {
    const w = minimal();
    w.nodes.push({ id: "a", type: "llm", config: { userPrompt: "{{b.result}}" }, position: { x: 0, y: 0 } });
    w.nodes.push({ id: "b", type: "llm", config: { userPrompt: "{{a.result}}" }, position: { x: 0, y: 0 } });
    w.edges.push(
      { source: "llm_1", target: "a" },
      { source: "a", target: "b" },
      { source: "b", target: "a" },
      { source: "b", target: "end" },
    );
    const result = validateWorkflowRequest({ workflow: w });
    expect(pairs(result.errors)).toEqual(["GRAPH_CYCLE /workflow/edges/3"]);
    expect(result.errors[0]!.message).toContain('"a", "b"');
  });

  it("validates a 10,000-node chain without stack overflow", () => {
    const w = linearChain(10_000);
    const result = validateWorkflowRequest({ workflow: w });
    expect(result).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("finds a template that skips the chain order in a 10,000-node chain", () => {
    const w = linearChain(10_000) as unknown as { nodes: Json[] };
    cfg(w, 10).userPrompt = "{{llm_500.result}}";
    expect(pairs(validateWorkflowRequest({ workflow: w }).errors)).toEqual([
      "TEMPLATE_NOT_UPSTREAM /workflow/nodes/10/config/userPrompt",
    ]);
  });

  it("validates a 10,000-node cycle without stack overflow", () => {
    const w = linearChain(10_000) as unknown as { nodes: Json[]; edges: Json[] };
    w.edges.push({ source: "llm_9998", target: "llm_1" });
    expect(codes(validateWorkflowRequest({ workflow: w }).errors)).toEqual(["GRAPH_CYCLE"]);
  });

  it("validates a 5,000-node wide graph", () => {
    expect(validateWorkflowRequest({ workflow: wideGraph(5000) })).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("validates the realistic generated workflows with no errors", () => {
    for (const n of [50, 500, 5000]) {
      const w = realisticWorkflow(n);
      expect(w.nodes).toHaveLength(n);
      expect(validateWorkflowRequest({ workflow: w }, { webhookBaseUrl: "http://localhost:8000" })).toEqual({
        valid: true,
        errors: [],
        warnings: [],
      });
    }
  });

  it("validates a 5,000-node realistic workflow quickly", () => {
    const w = realisticWorkflow(5000);
    for (let i = 0; i < 3; i++) validateWorkflow(w);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      validateWorkflow(w, { webhookBaseUrl: "http://x" });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    // Only a guard against a blow-up (the median is ~50 ms idle, README): unit files run in parallel with the sandbox's
    // Pyodide workers, so a tight bound measured the machine, not the code. `npm run bench -- validate` has the numbers.
    expect(times[3]).toBeLessThan(3_000);
  });
});
