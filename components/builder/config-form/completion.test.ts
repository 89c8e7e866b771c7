import { describe, expect, it } from "vitest";
import { NODE_CONTRACTS } from "@/server/workflow/contract";
import { getRecipe } from "@/server/workflow/recipes";
import { extractTemplateRefs } from "@/server/workflow/templates";
import { validateWorkflow } from "@/server/workflow/validate";
import type { SpecWorkflow } from "../model/workflow";
import { completeExpression, completeTemplate, templateContext, templateOptions, upstreamNodeIds } from "./completion";

const recipe = (name: string) => getRecipe(name)?.workflow as SpecWorkflow;

/** start -> http_1 -> cond -(true)-> llm_a -> end ; cond -(false)-> llm_b -> end ; code_x is disconnected. */
function branching(): SpecWorkflow {
  const p = { x: 0, y: 0 };
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string", required: true }], variables: { locale: "en" } },
        position: p,
      },
      { id: "http_1", type: "http", config: { url: "/x" }, position: p },
      { id: "cond", type: "condition", config: { expression: "http_1.status == 200" }, position: p },
      { id: "llm_a", type: "llm", config: { userPrompt: "a" }, position: p },
      { id: "llm_b", type: "llm", config: { userPrompt: "b" }, position: p },
      { id: "code_x", type: "code", config: { code: "result = 1" }, position: p },
      { id: "end", type: "end", config: {}, position: p },
    ],
    edges: [
      { source: "start", target: "http_1" },
      { source: "http_1", target: "cond" },
      { source: "cond", target: "llm_a", condition: "true" },
      { source: "cond", target: "llm_b", condition: "false" },
      { source: "llm_a", target: "end" },
      { source: "llm_b", target: "end" },
    ],
  };
}

describe("template autocompletion", () => {
  it("offers exactly the upstream nodes' output fields from the contract", () => {
    const wf = branching();
    const labels = templateOptions(wf, "llm_a").map((o) => o.label);
    const expected = ["cond", "http_1", "start"].flatMap((id) => {
      const node = wf.nodes.find((n) => n.id === id)!;
      return NODE_CONTRACTS[node.type as "start"].outputs(node.config).map((f) => `${id}.${f}`);
    });
    expect(labels).toEqual(expected);
    expect(labels).toEqual([
      "cond.result",
      "cond.branch",
      "http_1.result",
      "http_1.status",
      "http_1.headers",
      "http_1.ok",
      "start.query",
      "start.locale",
    ]);
    // Not itself, not a sibling branch, not downstream, not disconnected.
    expect(labels.some((l) => /^(llm_a|llm_b|end|code_x)\./.test(l))).toBe(false);
  });

  it("orders upstream nodes nearest first and handles joins", () => {
    const wf = branching();
    expect(upstreamNodeIds(wf, "end")).toEqual(["llm_a", "llm_b", "cond", "http_1", "start"]);
    expect(upstreamNodeIds(wf, "start")).toEqual([]);
    expect(templateOptions(wf, "code_x")).toEqual([]);
  });

  it("uses the start node's declared outputs and variables", () => {
    const wf = recipe("minimal");
    expect(templateOptions(wf, "llm_1").map((o) => o.label)).toEqual(["start.query"]);
    expect(templateOptions(wf, "end").map((o) => o.label)).toEqual([
      "llm_1.result",
      "llm_1.usage",
      "llm_1.model",
      "start.query",
    ]);
  });

  it("every offered option, inserted as a template, passes the server validator", () => {
    const wf = recipe("http_call_thin");
    for (const option of templateOptions(wf, "llm_1")) {
      const copy = structuredClone(wf);
      const llm = copy.nodes.find((n) => n.id === "llm_1")!;
      llm.config = { ...llm.config, userPrompt: `{{${option.label}}}` };
      const result = validateWorkflow(copy);
      expect(
        result.errors.filter((e) => e.code.startsWith("TEMPLATE_")),
        option.label,
      ).toEqual([]);
      expect(extractTemplateRefs(llm.config.userPrompt as string).refs[0]).toMatchObject({
        nodeId: option.nodeId,
        field: option.field,
      });
    }
  });

  it("opens only inside an unfinished {{", () => {
    expect(templateContext("Hi {{", 5)).toEqual({ from: 5, to: 5, query: "", closed: false });
    expect(templateContext("Hi {{ sta", 9)).toEqual({ from: 6, to: 9, query: "sta", closed: false });
    expect(templateContext("Hi {{sta}} ", 8)).toMatchObject({ query: "sta", closed: true });
    expect(templateContext("Hi {{start.query}} and", 22)).toBeNull();
    expect(templateContext("Hi \\{{", 6)).toBeNull();
    expect(templateContext("Hi {{a b", 8)).toBeNull();
    expect(templateContext("{", 1)).toBeNull();
  });

  it("completes with the closing braces unless they are already there", () => {
    const options = templateOptions(recipe("minimal"), "end");
    const open = completeTemplate("Answer: {{ll", 12, options)!;
    expect(open.from).toBe(10);
    expect(open.items.map((i) => i.label)).toEqual(["llm_1.result", "llm_1.usage", "llm_1.model"]);
    expect(open.items[0]?.apply).toBe("llm_1.result}}");
    const closed = completeTemplate("{{st}}", 4, options)!;
    expect(closed.items.map((i) => i.apply)).toEqual(["start.query"]);
    expect(closed.to).toBe(4);
    expect(completeTemplate("no template", 5, options)).toBeNull();
  });

  it("completes CEL identifiers outside string literals", () => {
    const options = templateOptions(branching(), "cond");
    expect(completeExpression("http_1.st", 9, options)?.items.map((i) => i.label)).toEqual(["http_1.status"]);
    expect(completeExpression('start.query == "ht', 18, options)).toBeNull();
  });
});
