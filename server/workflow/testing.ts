/**
 * Workflow generators for tests and the benchmark (scripts/bench-validate.ts). Not part of the
 * public API.
 */
import type { WorkflowInput } from "./schema";

type NodeIn = WorkflowInput["nodes"][number];
type EdgeIn = WorkflowInput["edges"][number];

const at = (i: number, row = 0) => ({ x: i * 220, y: row * 140 });

const startNode = (): NodeIn => ({
  id: "start",
  type: "start",
  config: {
    outputs: [
      { name: "query", type: "string", required: true, default: "" },
      { name: "sessionId", type: "string", required: false, default: "" },
    ],
    variables: { token: "demo-token", locale: "en" },
  },
  position: at(0),
});

/** start -> llm_1 -> ... -> llm_{n-2} -> end; each llm uses the previous node's result and the start input. */
export function linearChain(n: number): WorkflowInput {
  const nodes: NodeIn[] = [startNode()];
  const edges: EdgeIn[] = [];
  let prev = "start";
  for (let i = 1; i <= n - 2; i++) {
    const id = `llm_${i}`;
    const prompt = prev === "start" ? "{{start.query}}" : `Improve: {{${prev}.result}} (question: {{start.query}})`;
    nodes.push({ id, type: "llm", config: { userPrompt: prompt }, position: at(i) });
    edges.push({ source: prev, target: id });
    prev = id;
  }
  nodes.push({ id: "end", type: "end", config: { output: `{{${prev}.result}}` }, position: at(n - 1) });
  edges.push({ source: prev, target: "end" });
  return { nodes, edges };
}

/** start -> (n-2 parallel llm nodes) -> end. */
export function wideGraph(n: number): WorkflowInput {
  const nodes: NodeIn[] = [startNode()];
  const edges: EdgeIn[] = [];
  for (let i = 1; i <= n - 2; i++) {
    const id = `llm_${i}`;
    nodes.push({ id, type: "llm", config: { userPrompt: `Angle ${i}: {{start.query}}` }, position: at(1, i) });
    edges.push({ source: "start", target: id }, { source: id, target: "end" });
  }
  nodes.push({ id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: at(2) });
  return { nodes, edges };
}

/**
 * A realistic mix of all node types: repeated blocks of
 * memory_load -> llm -> http -> condition -(true)-> code / -(false)-> llm -> memory_save,
 * with templates into the start, the block's own nodes and the previous block; exactly `n` nodes
 * (n >= 9).
 */
export function realisticWorkflow(n: number, variant = 0): WorkflowInput {
  const nodes: NodeIn[] = [startNode()];
  const edges: EdgeIn[] = [];
  const blocks = Math.max(1, Math.floor((n - 2) / 7));
  let prev = "start";
  let prevResult = "{{start.query}}";
  for (let b = 0; b < blocks; b++) {
    const m = `mem_load_${b}`;
    const l = `llm_${b}`;
    const h = `http_${b}`;
    const c = `check_${b}`;
    const t = `code_${b}`;
    const f = `retry_${b}`;
    const s = `mem_save_${b}`;
    const x = 1 + b * 5;
    nodes.push(
      {
        id: m,
        type: "memory_load",
        config: { agent_id: "bench-agent", key: "{{start.sessionId}}", memory_type: "conversation" },
        position: at(x),
      },
      {
        id: l,
        type: "llm",
        config: {
          systemPrompt: "You are a support assistant. Locale: {{start.locale}}.",
          userPrompt: `History: {{${m}.result}}\nPrevious: ${prevResult}\nQuestion: {{ start.query }}`,
          temperature: 0.3,
          maxTokens: 800,
        },
        position: at(x + 1),
      },
      {
        id: h,
        type: "http",
        config: {
          url: "/api/orders/{{start.sessionId}}",
          method: "POST",
          headers: { Authorization: "Bearer {{start.token}}", "X-Step": String(b) },
          params: { limit: 5, q: "{{start.query}}" },
          body: { draft: `{{${l}.result}}`, meta: { step: b, tags: ["bench", "{{start.locale}}"] } },
          timeout: 8000,
        },
        position: at(x + 2),
      },
      {
        id: c,
        type: "condition",
        // `variant` changes the expression text so repeated runs cannot hit the CEL parse cache.
        config: { expression: `${h}.status == 200 && size(${l}.result) > ${variant} && start.query != ""` },
        position: at(x + 3),
      },
      {
        id: t,
        type: "code",
        config: { code: "result = {'n': len(inputs['body'])}", inputs: { body: `{{${h}.result}}` }, timeout: 2000 },
        position: at(x + 4, 0),
      },
      {
        id: f,
        type: "llm",
        config: { userPrompt: `The API failed with {{${h}.status}}. Answer anyway: {{start.query}}` },
        position: at(x + 4, 1),
      },
      {
        id: s,
        type: "memory_save",
        config: {
          agent_id: "bench-agent",
          data: { question: "{{start.query}}", answer: `{{${l}.result}}` },
          extractFrom: `${l}.result`,
        },
        position: at(x + 5),
      },
    );
    edges.push(
      { source: prev, target: m },
      { source: m, target: l },
      { source: l, target: h },
      { source: h, target: c },
      { source: c, target: t, condition: "true" },
      { source: c, target: f, condition: false },
      { source: t, target: s },
      { source: f, target: s },
    );
    prev = s;
    prevResult = `{{${l}.result}}`;
  }
  // Pad to exactly n nodes with a short llm chain before the end.
  for (let i = 0; nodes.length < n - 1; i++) {
    const id = `summary_${i}`;
    nodes.push({
      id,
      type: "llm",
      config: { userPrompt: `Summarise: ${prevResult}` },
      position: at(2 + blocks * 5 + i, 2),
    });
    edges.push({ source: prev, target: id });
    prev = id;
    prevResult = `{{${id}.result}}`;
  }
  nodes.push({ id: "end", type: "end", config: { output: prevResult }, position: at(2 + blocks * 5) });
  edges.push({ source: prev, target: "end" });
  return { nodes, edges };
}
