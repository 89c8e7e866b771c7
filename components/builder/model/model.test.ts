import { describe, expect, it } from "vitest";
import { getRecipe } from "@/server/workflow/recipes";
import { validateWorkflow, validateWorkflowRequest } from "@/server/workflow/validate";
import { History } from "./history";
import { REQUIRED_GROUP_KEY, fieldKey, indexFindings, parsePointer, statusText } from "./findings";
import {
  copySelection,
  freshNodeId,
  normalizeWorkflow,
  parseWorkflowJson,
  pasteClipboard,
  renameNode,
  renameRefsInConfig,
  toFlow,
  toWorkflow,
  type SpecWorkflow,
} from "./workflow";

const recipe = (name: string) => getRecipe(name)?.workflow as SpecWorkflow;

function conditionWorkflow(): SpecWorkflow {
  const p = (x: number) => ({ x, y: 0 });
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "q", type: "string", required: true, default: "" }] },
        position: p(0),
      },
      { id: "c", type: "condition", config: { expression: 'start.q != ""', falseTarget: "b" }, position: p(1) },
      { id: "a", type: "end", config: { output: "{{start.q}}" }, position: p(2) },
      { id: "b", type: "end", config: {}, position: p(3) },
    ],
    edges: [
      { source: "start", target: "c" },
      { source: "c", target: "a", condition: "true" },
      { source: "c", target: "b" },
    ],
  };
}

describe("canvas <-> spec workflow mapping", () => {
  it("round-trips the recipes exactly (spec shape, no canvas data)", () => {
    for (const name of ["minimal", "http_call_thin"]) {
      const wf = recipe(name);
      const flow = toFlow(wf);
      expect(flow.nodes.every((n) => n.type === "wf")).toBe(true);
      expect(toWorkflow(flow.nodes, flow.edges)).toEqual(wf);
    }
  });

  it("maps condition branches to handles and back without inventing labels", () => {
    const wf = conditionWorkflow();
    const flow = toFlow(wf);
    expect(flow.edges.map((e) => e.sourceHandle)).toEqual(["out", "true", "false"]);
    expect(toWorkflow(flow.nodes, flow.edges)).toEqual(wf);
    expect(validateWorkflow(toWorkflow(flow.nodes, flow.edges)).valid).toBe(true);
  });

  it("keeps selection and other React Flow state out of the saved JSON", () => {
    const flow = toFlow(recipe("minimal"));
    const nodes = flow.nodes.map((n) => ({
      ...n,
      selected: true,
      dragging: false,
      measured: { width: 200, height: 80 },
    }));
    const edges = flow.edges.map((e) => ({ ...e, selected: true, animated: true }));
    const out = toWorkflow(nodes, edges);
    expect(Object.keys(out.nodes[0]!).sort()).toEqual(["config", "id", "position", "type"]);
    expect(Object.keys(out.edges[0]!).sort()).toEqual(["source", "target"]);
  });

  it("imports {nodes, edges} or {workflow}, and refuses what is not a workflow", () => {
    const wf = recipe("minimal");
    expect(parseWorkflowJson(JSON.stringify(wf))).toEqual({ ok: true, workflow: wf, notes: [] });
    expect(parseWorkflowJson(JSON.stringify({ workflow: wf }))).toMatchObject({ ok: true, workflow: wf });
    expect(parseWorkflowJson("{not json")).toMatchObject({
      ok: false,
      error: expect.stringContaining("not valid JSON"),
    });
    expect(parseWorkflowJson("[1,2]")).toMatchObject({ ok: false, error: expect.stringContaining("not a workflow") });
    const fixed = normalizeWorkflow({ nodes: [{ type: "start" }, { id: "x", type: "end", position: { x: 1, y: 2 } }] });
    expect(fixed.ok && fixed.workflow.nodes.map((n) => n.id)).toEqual(["start", "x"]);
    expect(fixed.ok && fixed.notes.length).toBe(2);
  });

  it("gives fresh ids per type", () => {
    expect(freshNodeId("start", new Set())).toBe("start");
    expect(freshNodeId("start", new Set(["start"]))).toBe("start_1");
    expect(freshNodeId("llm", new Set(["llm_1", "llm_3"]))).toBe("llm_2");
  });

  it("pastes with fresh ids, offset positions and references following the copies", () => {
    const flow = toFlow(recipe("http_call_thin"));
    const clip = copySelection(flow.nodes, flow.edges, new Set(["http_1", "llm_1"]));
    expect(clip.edges).toEqual([{ source: "http_1", target: "llm_1" }]);
    const taken = new Set(flow.nodes.map((n) => n.id));
    const pasted = pasteClipboard(clip, taken, { x: 40, y: 40 });
    expect(pasted.nodes.map((n) => n.id)).toEqual(["http_2", "llm_2"]);
    expect(pasted.edges).toEqual([{ source: "http_2", target: "llm_2" }]);
    expect(pasted.nodes[1]?.config.userPrompt).toBe("Question: {{start.query}}\n\nAPI response:\n{{http_2.result}}");
    expect(pasted.nodes[0]?.position).toEqual({ x: 320, y: 40 });
  });

  it("renames a node everywhere it is referenced", () => {
    const flow = toFlow(conditionWorkflow());
    const renamed = renameNode(flow.nodes, flow.edges, "start", "entry");
    const wf = toWorkflow(renamed.nodes, renamed.edges);
    expect(wf.nodes[0]?.id).toBe("entry");
    expect(wf.nodes[1]?.config.expression).toBe('entry.q != ""');
    expect(wf.nodes[2]?.config.output).toBe("{{entry.q}}");
    expect(wf.edges[0]).toEqual({ source: "entry", target: "c" });
    expect(validateWorkflow(wf).valid).toBe(true);
    expect(
      renameRefsInConfig("condition", { expression: '"start.q" == start.q' }, new Map([["start", "s"]])).expression,
    ).toBe('"start.q" == s.q');
  });
});

describe("findings placement", () => {
  it("puts each finding on its node, field, edge or the workflow", () => {
    const flow = toFlow(recipe("minimal"));
    const wf = toWorkflow(flow.nodes, flow.edges);
    wf.nodes[1]!.config = { temperature: 9 };
    wf.edges.push({ source: "end", target: "ghost" });
    const result = validateWorkflowRequest({ workflow: wf });
    const edgeIds = [...flow.edges.map((e) => e.id), "extra"];
    const idx = indexFindings(
      result,
      wf.nodes.map((n) => n.id),
      edgeIds,
    );
    expect(idx.valid).toBe(false);
    expect(idx.byField.get(fieldKey("llm_1", REQUIRED_GROUP_KEY))?.[0]?.code).toBe("NODE_CONFIG_MISSING_REQUIRED");
    expect(idx.byField.get(fieldKey("llm_1", "temperature"))?.[0]?.code).toBe("NODE_CONFIG_INVALID");
    expect(idx.byNode.get("llm_1")?.errors).toBeGreaterThanOrEqual(2);
    expect(idx.byEdge.get("extra")).toBe("error");
    expect(idx.all.find((f) => f.code === "EDGE_TARGET_UNKNOWN")?.edge).toBe("extra");
    expect(statusText(idx.errors, idx.warnings)).toMatch(/errors?/);
  });

  it("parses JSON pointers with escapes", () => {
    expect(parsePointer("/workflow/nodes/2/config/headers/a~1b~0c")).toEqual([
      "nodes",
      "2",
      "config",
      "headers",
      "a/b~c",
    ]);
  });

  it("says Valid or counts", () => {
    expect(statusText(0, 0)).toBe("Valid");
    expect(statusText(2, 1)).toBe("2 errors, 1 warning");
  });
});

describe("undo/redo history", () => {
  it("undoes and redoes, and a new change clears redo", () => {
    const h = new History<number>(100);
    h.record(1);
    h.record(2);
    expect(h.undo(3)).toBe(2);
    expect(h.undo(2)).toBe(1);
    expect(h.undo(1)).toBeUndefined();
    expect(h.redo(1)).toBe(2);
    h.record(2);
    expect(h.canRedo).toBe(false);
  });

  it("coalesces typing in one field and stays bounded", () => {
    const h = new History<number>(3, 1000);
    h.record(0, "llm_1/userPrompt", 0);
    h.record(1, "llm_1/userPrompt", 500);
    h.record(2, "llm_1/userPrompt", 900);
    expect(h.size).toBe(1);
    h.record(3, "llm_1/userPrompt", 5000);
    expect(h.size).toBe(2);
    for (let i = 0; i < 10; i++) h.record(i);
    expect(h.size).toBe(3);
  });
});
