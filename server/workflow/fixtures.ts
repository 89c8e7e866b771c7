/**
 * One fixture per finding code: a request body that triggers the code and a near-identical body that
 * does not. The test in codes.test.ts fails when a code in FINDING_CODES has no fixture, so every rule
 * ships with a positive and a negative test.
 */
import type { FindingCode } from "./codes";
import { WORKFLOW_LIMITS } from "./limits";
import { RECIPES } from "./recipes";
import { linearChain } from "./testing";
import type { ValidateOptions } from "./validate";

type Json = Record<string, unknown>;
interface Body {
  workflow: { nodes: Json[]; edges: Json[] };
}

export interface FindingFixture {
  /** A request body that produces the code. */
  trigger: unknown;
  /** A near-identical request body that does not. */
  clean: unknown;
  /** Expected JSON pointer of the finding, where meaningful. */
  path?: string;
  /** Expected nodeId of the finding, where meaningful. */
  nodeId?: string;
  /** Options for both bodies. */
  opts?: Omit<ValidateOptions, "pathPrefix">;
  /**
   * Set for codes only the async validator reports (server/runtime/validate-code.ts compiles code nodes in the
   * sandbox): the pure validator never produces them, and server/runtime/validate-code.test.ts asserts the
   * trigger and clean bodies with the sandbox available or unavailable.
   */
  sandbox?: "available" | "unavailable";
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The spec's minimal workflow: start -> llm_1 -> end (nodes 0, 1, 2; edges 0, 1). */
function minimal(edit?: (b: Body) => void): Body {
  const body = { workflow: clone(RECIPES.minimal.workflow) } as unknown as Body;
  edit?.(body);
  return body;
}

/** A judge recipe's workflow with `kind: "judge"` (judge_python: nodes 0 start, 1 score (code), 2 end). */
function judge(name: "judge_python" | "judge_llm_rubric", edit?: (b: Body) => void): Body & { kind: "judge" } {
  const body = { workflow: clone(RECIPES[name].workflow), kind: "judge" as const } as unknown as Body & {
    kind: "judge";
  };
  edit?.(body);
  return body;
}

/** The start node's (node 0) declared outputs. */
function startOutputs(b: Body): Json[] {
  return (b.workflow.nodes[0]!.config as { outputs: Json[] }).outputs;
}

/** start -> http_1 (GET /health) -> llm_1 -> end. */
function httpThin(edit?: (b: Body) => void): Body {
  const body = { workflow: clone(RECIPES.http_call_thin.workflow) } as unknown as Body;
  edit?.(body);
  return body;
}

/**
 * A valid branching workflow: start -> check (condition) -(true)-> llm_1 -> end, check -(false)-> end.
 * Nodes: 0 start, 1 check, 2 llm_1, 3 end. Edges: 0 start->check, 1 check->llm_1 (true),
 * 2 check->end (false), 3 llm_1->end.
 */
function branching(edit?: (b: Body) => void): Body {
  const body: Body = {
    workflow: {
      nodes: [
        {
          id: "start",
          type: "start",
          config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
          position: { x: 0, y: 0 },
        },
        { id: "check", type: "condition", config: { expression: 'start.query != ""' }, position: { x: 200, y: 0 } },
        { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}}" }, position: { x: 400, y: 0 } },
        { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 600, y: 0 } },
      ],
      edges: [
        { source: "start", target: "check" },
        { source: "check", target: "llm_1", condition: "true" },
        { source: "check", target: "end", condition: false },
        { source: "llm_1", target: "end" },
      ],
    },
  };
  edit?.(body);
  return body;
}

/** start -> code_1 -> end (nodes 0, 1, 2), the code node running `code`. */
function withCode(code: string): Body {
  return {
    workflow: {
      nodes: [
        {
          id: "start",
          type: "start",
          config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
          position: { x: 0, y: 0 },
        },
        {
          id: "code_1",
          type: "code",
          config: { code, inputs: { text: "{{start.query}}" } },
          position: { x: 200, y: 0 },
        },
        { id: "end", type: "end", config: { output: "{{code_1.result}}" }, position: { x: 400, y: 0 } },
      ],
      edges: [
        { source: "start", target: "code_1" },
        { source: "code_1", target: "end" },
      ],
    },
  };
}

/** Same graph as `branching`, with the branches named by trueTarget/falseTarget instead of edge labels. */
function targets(edit?: (b: Body) => void): Body {
  return branching((b) => {
    b.workflow.nodes[1] = {
      ...b.workflow.nodes[1],
      config: { expression: 'start.query != ""', trueTarget: "llm_1", falseTarget: "end" },
    };
    for (const e of b.workflow.edges) delete e.condition;
    edit?.(b);
  });
}

function node(b: Body, index: number): Json {
  const n = b.workflow.nodes[index];
  if (!n) throw new Error(`fixture has no node ${index}`);
  return n;
}

function config(b: Body, index: number): Json {
  return node(b, index).config as Json;
}

function llm(id: string, prompt = "{{start.query}}", x = 400): Json {
  return { id, type: "llm", config: { userPrompt: prompt }, position: { x, y: 200 } };
}

const manyKeys = (count: number): Json =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra_${i}`, i]));

export const FINDING_FIXTURES: Record<FindingCode, FindingFixture> = {
  BODY_INVALID_TYPE: {
    trigger: minimal((b) => (b.workflow.edges[0]!.source = 42)),
    clean: minimal(),
    path: "/workflow/edges/0/source",
  },
  BODY_REQUIRED_FIELD: {
    trigger: minimal((b) => delete b.workflow.edges[1]!.target),
    clean: minimal(),
    path: "/workflow/edges/1/target",
  },
  WORKFLOW_NO_START: {
    trigger: minimal((b) => {
      b.workflow.nodes.shift();
      b.workflow.edges.shift();
      config(b, 0).userPrompt = "Hello";
    }),
    clean: minimal(),
    path: "/workflow/nodes",
  },
  WORKFLOW_NO_END: {
    trigger: minimal((b) => {
      b.workflow.nodes.pop();
      b.workflow.edges.pop();
    }),
    clean: minimal(),
    path: "/workflow/nodes",
  },
  NODE_ID_DUPLICATE: {
    trigger: minimal((b) => b.workflow.nodes.push(llm("llm_1"))),
    clean: minimal((b) => b.workflow.nodes.push(llm("llm_2"))),
    path: "/workflow/nodes/3/id",
    nodeId: "llm_1",
  },
  NODE_ID_INVALID: {
    trigger: minimal((b) => {
      node(b, 2).id = "e".repeat(WORKFLOW_LIMITS.maxIdLength + 1);
      b.workflow.edges[1]!.target = "e".repeat(WORKFLOW_LIMITS.maxIdLength + 1);
    }),
    clean: minimal((b) => {
      node(b, 2).id = "e".repeat(WORKFLOW_LIMITS.maxIdLength);
      b.workflow.edges[1]!.target = "e".repeat(WORKFLOW_LIMITS.maxIdLength);
    }),
    path: "/workflow/nodes/2/id",
  },
  NODE_ID_NOT_REFERENCEABLE: {
    trigger: minimal((b) => {
      node(b, 2).id = "the end";
      b.workflow.edges[1]!.target = "the end";
    }),
    clean: minimal((b) => {
      node(b, 2).id = "the_end";
      b.workflow.edges[1]!.target = "the_end";
    }),
    path: "/workflow/nodes/2/id",
    nodeId: "the end",
  },
  NODE_TYPE_UNKNOWN: {
    trigger: minimal((b) => (node(b, 1).type = "gpt")),
    clean: minimal(),
    path: "/workflow/nodes/1/type",
    nodeId: "llm_1",
  },
  NODE_CONFIG_MISSING_REQUIRED: {
    trigger: minimal((b) => delete config(b, 1).userPrompt),
    clean: minimal(),
    path: "/workflow/nodes/1/config",
    nodeId: "llm_1",
  },
  NODE_CONFIG_INVALID: {
    trigger: minimal((b) => (config(b, 1).temperature = 3)),
    clean: minimal((b) => (config(b, 1).temperature = 2)),
    path: "/workflow/nodes/1/config/temperature",
    nodeId: "llm_1",
  },
  NODE_CONFIG_UNKNOWN_KEY: {
    trigger: minimal((b) => (config(b, 1).topP = 0.9)),
    clean: minimal(),
    path: "/workflow/nodes/1/config/topP",
    nodeId: "llm_1",
  },
  NODE_POSITION_INVALID: {
    trigger: minimal((b) => (node(b, 1).position = { x: "10", y: 0 })),
    clean: minimal((b) => (node(b, 1).position = { x: 10, y: 0 })),
    path: "/workflow/nodes/1/position/x",
    nodeId: "llm_1",
  },
  EDGE_SOURCE_UNKNOWN: {
    trigger: minimal((b) => (b.workflow.edges[1]!.source = "llm_9")),
    clean: minimal(),
    path: "/workflow/edges/1/source",
  },
  EDGE_TARGET_UNKNOWN: {
    trigger: minimal((b) => (b.workflow.edges[1]!.target = "finish")),
    clean: minimal(),
    path: "/workflow/edges/1/target",
  },
  EDGE_SELF_LOOP: {
    trigger: minimal((b) => b.workflow.edges.push({ source: "llm_1", target: "llm_1" })),
    clean: minimal(),
    path: "/workflow/edges/2",
  },
  EDGE_DUPLICATE: {
    trigger: minimal((b) => b.workflow.edges.push({ source: "start", target: "llm_1" })),
    clean: minimal(),
    path: "/workflow/edges/2",
  },
  EDGE_CONDITION_INVALID: {
    trigger: branching((b) => (b.workflow.edges[1]!.condition = "yes")),
    clean: branching(),
    path: "/workflow/edges/1/condition",
  },
  EDGE_CONDITION_MISSING: {
    trigger: branching((b) => delete b.workflow.edges[1]!.condition),
    clean: branching(),
    path: "/workflow/edges/1",
    nodeId: "check",
  },
  START_OUTPUT_INVALID: {
    trigger: minimal((b) => ((config(b, 0).outputs as Json[])[0]!.type = "text")),
    clean: minimal(),
    path: "/workflow/nodes/0/config/outputs/0/type",
    nodeId: "start",
  },
  START_OUTPUT_DUPLICATE: {
    trigger: minimal((b) => (config(b, 0).outputs as Json[]).push({ name: "query", type: "string" })),
    clean: minimal((b) => (config(b, 0).outputs as Json[]).push({ name: "query2", type: "string" })),
    path: "/workflow/nodes/0/config/outputs/1/name",
    nodeId: "start",
  },
  START_OUTPUT_DEFAULT_TYPE: {
    trigger: minimal((b) => ((config(b, 0).outputs as Json[])[0]!.default = 0)),
    clean: minimal(),
    path: "/workflow/nodes/0/config/outputs/0/default",
    nodeId: "start",
  },
  START_HAS_INCOMING: {
    trigger: minimal((b) => {
      b.workflow.nodes.push(llm("pre", "Hi"));
      b.workflow.edges.push({ source: "pre", target: "start" });
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push(llm("pre", "Hi"));
      b.workflow.edges.push({ source: "start", target: "pre" }, { source: "pre", target: "end" });
    }),
    path: "/workflow/edges/2",
    nodeId: "start",
  },
  TEMPLATE_MALFORMED: {
    trigger: minimal((b) => (config(b, 1).userPrompt = "Answer: {{start.query")),
    clean: minimal((b) => (config(b, 1).userPrompt = "Answer: {{start.query}}")),
    path: "/workflow/nodes/1/config/userPrompt",
    nodeId: "llm_1",
  },
  TEMPLATE_UNKNOWN_NODE: {
    trigger: minimal((b) => (config(b, 1).userPrompt = "{{strat.query}}")),
    clean: minimal(),
    path: "/workflow/nodes/1/config/userPrompt",
    nodeId: "llm_1",
  },
  TEMPLATE_NOT_UPSTREAM: {
    trigger: minimal((b) => (config(b, 1).systemPrompt = "Previous answer: {{end.output}}")),
    clean: minimal(),
    path: "/workflow/nodes/1/config/systemPrompt",
    nodeId: "llm_1",
  },
  TEMPLATE_UNKNOWN_FIELD: {
    trigger: minimal((b) => (config(b, 1).userPrompt = "{{start.question}}")),
    clean: minimal(),
    path: "/workflow/nodes/1/config/userPrompt",
    nodeId: "llm_1",
  },
  CONDITION_EXPRESSION_INVALID: {
    trigger: branching((b) => (config(b, 1).expression = "start.query !=")),
    clean: branching(),
    path: "/workflow/nodes/1/config/expression",
    nodeId: "check",
  },
  CONDITION_UNKNOWN_VARIABLE: {
    trigger: branching((b) => (config(b, 1).expression = 'query != ""')),
    clean: branching(),
    path: "/workflow/nodes/1/config/expression",
    nodeId: "check",
  },
  CONDITION_NOT_UPSTREAM: {
    trigger: branching((b) => (config(b, 1).expression = 'llm_1.result != ""')),
    clean: branching(),
    path: "/workflow/nodes/1/config/expression",
    nodeId: "check",
  },
  CONDITION_UNKNOWN_FIELD: {
    trigger: branching((b) => (config(b, 1).expression = 'start.question != ""')),
    clean: branching(),
    path: "/workflow/nodes/1/config/expression",
    nodeId: "check",
  },
  CONDITION_TARGET_INVALID: {
    trigger: targets((b) => (config(b, 1).trueTarget = "start")),
    clean: targets(),
    path: "/workflow/nodes/1/config/trueTarget",
    nodeId: "check",
  },
  CONDITION_BRANCH_MISSING: {
    trigger: branching((b) => b.workflow.edges.splice(2, 1)),
    clean: branching(),
    path: "/workflow/nodes/1/config",
    nodeId: "check",
  },
  GRAPH_CYCLE: {
    trigger: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "{{llm_1.result}}"));
      b.workflow.edges.push({ source: "llm_1", target: "llm_2" }, { source: "llm_2", target: "llm_1" });
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "{{llm_1.result}}"));
      b.workflow.edges.push({ source: "llm_1", target: "llm_2" }, { source: "llm_2", target: "end" });
    }),
  },
  NODE_UNREACHABLE: {
    trigger: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "Hello"));
      b.workflow.edges.push({ source: "llm_2", target: "end" });
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "Hello"));
      b.workflow.edges.push({ source: "start", target: "llm_2" }, { source: "llm_2", target: "end" });
    }),
    path: "/workflow/nodes/3",
    nodeId: "llm_2",
  },
  END_UNREACHABLE: {
    trigger: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "Hello"));
      b.workflow.edges[1]!.source = "llm_2";
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "Hello"));
      b.workflow.edges.push({ source: "llm_2", target: "end" }, { source: "start", target: "llm_2" });
    }),
    path: "/workflow/nodes/0",
    nodeId: "start",
  },
  NODE_DEAD_END: {
    trigger: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "{{llm_1.result}}"));
      b.workflow.edges.push({ source: "llm_1", target: "llm_2" });
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push(llm("llm_2", "{{llm_1.result}}"));
      b.workflow.edges.push({ source: "llm_1", target: "llm_2" }, { source: "llm_2", target: "end" });
    }),
    path: "/workflow/nodes/3",
    nodeId: "llm_2",
  },
  END_HAS_OUTGOING: {
    trigger: minimal((b) => {
      b.workflow.nodes.push({ id: "end_2", type: "end", config: {}, position: { x: 800, y: 0 } });
      b.workflow.edges.push({ source: "end", target: "end_2" });
    }),
    clean: minimal((b) => {
      b.workflow.nodes.push({ id: "end_2", type: "end", config: {}, position: { x: 800, y: 0 } });
      b.workflow.edges.push({ source: "llm_1", target: "end_2" });
    }),
    path: "/workflow/edges/2",
    nodeId: "end",
  },
  HTTP_URL_INVALID: {
    trigger: httpThin((b) => (config(b, 1).url = "health")),
    clean: httpThin(),
    path: "/workflow/nodes/1/config/url",
    nodeId: "http_1",
    opts: { webhookBaseUrl: "http://localhost:8000" },
  },
  HTTP_BASE_URL_UNSET: {
    trigger: httpThin(),
    clean: httpThin((b) => (config(b, 1).url = "https://api.example.com/health")),
    path: "/workflow/nodes/1/config/url",
    nodeId: "http_1",
  },
  LIMIT_NODES: {
    trigger: { workflow: linearChain(WORKFLOW_LIMITS.maxNodes + 1) },
    clean: { workflow: linearChain(WORKFLOW_LIMITS.maxNodes) },
    path: "/workflow/nodes",
  },
  LIMIT_EDGES: {
    trigger: minimal((b) => {
      while (b.workflow.edges.length <= WORKFLOW_LIMITS.maxEdges)
        b.workflow.edges.push({ source: "start", target: "llm_1" });
    }),
    clean: minimal((b) => {
      while (b.workflow.edges.length < WORKFLOW_LIMITS.maxEdges)
        b.workflow.edges.push({ source: "start", target: "llm_1" });
    }),
    path: "/workflow/edges",
  },
  LIMIT_STRING_LENGTH: {
    trigger: minimal((b) => (config(b, 1).systemPrompt = "x".repeat(WORKFLOW_LIMITS.maxStringLength + 1))),
    clean: minimal((b) => (config(b, 1).systemPrompt = "x".repeat(WORKFLOW_LIMITS.maxStringLength))),
    path: "/workflow/nodes/1/config/systemPrompt",
    nodeId: "llm_1",
  },
  FINDINGS_TRUNCATED: {
    trigger: minimal((b) => Object.assign(config(b, 1), manyKeys(WORKFLOW_LIMITS.maxFindings + 50))),
    clean: minimal((b) => Object.assign(config(b, 1), manyKeys(WORKFLOW_LIMITS.maxFindings - 50))),
    path: "/workflow",
  },
  CODE_SYNTAX_ERROR: {
    trigger: withCode("result = inputs['text'].upper(\n"),
    clean: withCode("result = inputs['text'].upper()\n"),
    path: "/workflow/nodes/1/config/code",
    nodeId: "code_1",
    sandbox: "available",
  },
  CODE_SYNTAX_UNCHECKED: {
    trigger: withCode("result = 1\n"),
    clean: minimal(),
    path: "/workflow/nodes/1/config/code",
    nodeId: "code_1",
    sandbox: "unavailable",
  },
  AGENT_KIND_UNKNOWN: {
    trigger: { ...minimal(), kind: "grader" },
    clean: { ...minimal(), kind: "agent" },
    path: "/kind",
  },
  JUDGE_INPUT_MISSING: {
    trigger: judge("judge_python", (b) => {
      startOutputs(b).splice(2, 1); // no "answer"
    }),
    clean: judge("judge_python"),
    path: "/workflow/nodes/0/config/outputs",
    nodeId: "start",
  },
  JUDGE_INPUT_TYPE: {
    trigger: judge("judge_python", (b) => {
      startOutputs(b)[1]!.type = "string";
      startOutputs(b)[1]!.default = "";
    }),
    clean: judge("judge_python"),
    path: "/workflow/nodes/0/config/outputs/1/type",
    nodeId: "start",
  },
  JUDGE_INPUT_UNEXPECTED: {
    trigger: judge("judge_python", (b) => {
      startOutputs(b).push({ name: "rubric", type: "string", required: true });
    }),
    clean: judge("judge_python", (b) => {
      startOutputs(b).push({ name: "rubric", type: "string", required: true, default: "be strict" });
    }),
    path: "/workflow/nodes/0/config/outputs/3",
    nodeId: "start",
  },
  JUDGE_OUTPUT_MISSING: {
    trigger: judge("judge_python", (b) => {
      config(b, 2).output = "";
    }),
    clean: judge("judge_python"),
    path: "/workflow/nodes/2/config/output",
    nodeId: "end",
  },
  JUDGE_OUTPUT_INVALID: {
    trigger: judge("judge_python", (b) => {
      config(b, 2).output = "looks fine to me";
    }),
    clean: judge("judge_python", (b) => {
      config(b, 2).output = '{"verdict":"unknown","rationale":"not judged yet"}';
    }),
    path: "/workflow/nodes/2/config/output",
    nodeId: "end",
  },
  JUDGE_OUTPUT_NOT_SINGLE_VALUE: {
    trigger: judge("judge_python", (b) => {
      config(b, 2).output = "Verdict: {{score.result}}";
    }),
    clean: judge("judge_python"),
    path: "/workflow/nodes/2/config/output",
    nodeId: "end",
  },
  VALIDATOR_INTERNAL_ERROR: {
    trigger: {
      workflow: {
        get nodes(): never {
          throw new Error("getter failed");
        },
        edges: [],
      },
    },
    clean: minimal(),
    path: "/workflow",
  },
};
