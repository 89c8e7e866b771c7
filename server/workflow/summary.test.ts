import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { FINDING_CODES } from "./codes";
import {
  NODE_CONTRACTS,
  NODE_TYPES,
  TEMPLATE_FIELDS,
  configFieldMeta,
  configKeys,
  getContract,
  missingRequiredGroups,
  WIDGETS,
} from "./contract";
import { WORKFLOW_LIMITS } from "./limits";
import { RECIPES, getRecipe } from "./recipes";
import { nodeTypesSummary } from "./summary";

describe("nodeTypesSummary", () => {
  const summary = nodeTypesSummary();

  it("is cached, JSON-serialisable and lists the 8 types in order", () => {
    expect(nodeTypesSummary()).toBe(summary);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    expect(summary.nodeTypes.map((t) => t.type)).toEqual([...NODE_TYPES]);
    expect(summary.recipes).toEqual(["minimal", "http_call_thin", "judge_llm_rubric", "judge_python"]);
    expect(summary.limits).toEqual(WORKFLOW_LIMITS);
    expect(Object.keys(summary.findingCodes)).toEqual(Object.keys(FINDING_CODES));
    expect(summary.templateSyntax.examples.length).toBeGreaterThan(0);
  });

  it("gives every node type a JSON Schema that accepts its example and expresses the any-of requirement", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const t of summary.nodeTypes) {
      expect(t.jsonSchema.type).toBe("object");
      expect(Object.keys(t.jsonSchema.properties as object).sort()).toEqual(configKeys(t.type).sort());
      const validate = ajv.compile(t.jsonSchema);
      expect(validate(t.example), `${t.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (t.requiredAnyOf.length > 0) {
        expect(validate({}), `${t.type} accepts {}`).toBe(false);
        expect(validate({ [t.requiredAnyOf[0]![0]!]: "  " }), `${t.type} accepts blank`).toBe(false);
      } else {
        expect(validate({})).toBe(true);
      }
    }
  });

  it("the llm schema accepts each of the three prompt keys", () => {
    const ajv = new Ajv2020({ strict: false });
    const llm = summary.nodeTypes.find((t) => t.type === "llm")!;
    const validate = ajv.compile(llm.jsonSchema);
    for (const key of ["userPrompt", "user_prompt", "prompt_template"])
      expect(validate({ [key]: "{{start.query}}" })).toBe(true);
    expect(validate({ userPrompt: "x", temperature: 3 })).toBe(false);
  });

  it("describes optional keys with types, ranges, defaults and units", () => {
    const http = summary.nodeTypes.find((t) => t.type === "http")!;
    expect(http.requiredAnyOf).toEqual([["url"]]);
    expect(http.optional.find((o) => o.key === "timeout")).toMatchObject({
      type: "integer",
      minimum: 100,
      maximum: 60000,
      default: 10000,
      unit: "ms",
    });
    expect(http.optional.find((o) => o.key === "method")).toMatchObject({
      enum: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"],
      default: "GET",
    });
    expect(http.optional.find((o) => o.key === "headers")).toMatchObject({
      type: "object",
      widget: "kv",
      templates: true,
    });
    const llm = summary.nodeTypes.find((t) => t.type === "llm")!;
    expect(llm.optional.map((o) => o.key)).toEqual(["systemPrompt", "model", "temperature", "maxTokens"]);
    expect(llm.optional.find((o) => o.key === "temperature")).toMatchObject({ type: "number", minimum: 0, maximum: 2 });
    const code = summary.nodeTypes.find((t) => t.type === "code")!;
    expect(code.optional.find((o) => o.key === "timeout")).toMatchObject({
      minimum: 100,
      maximum: 30000,
      default: 5000,
      unit: "ms",
    });
  });

  it("lists outputs and ports", () => {
    const byType = Object.fromEntries(summary.nodeTypes.map((t) => [t.type, t]));
    expect(byType.start!.outputs).toEqual([]);
    expect(byType.start!.outputsNote).toContain("outputs");
    expect(byType.llm!.outputs).toEqual(["result", "usage", "model"]);
    expect(byType.http!.outputs).toEqual(["result", "status", "headers", "ok"]);
    expect(byType.condition!.outputs).toEqual(["result", "branch"]);
    expect(byType.condition!.ports).toEqual({ inputs: ["in"], outputs: ["true", "false"] });
    expect(byType.end!.outputs).toEqual(["output"]);
    expect(byType.start!.ports.inputs).toEqual([]);
  });
});

describe("contract", () => {
  it("example configs parse with their zod schema and satisfy the required groups", () => {
    for (const type of NODE_TYPES) {
      const contract = getContract(type);
      expect(contract.type).toBe(type);
      expect(contract.configSchema.safeParse(contract.example).success, type).toBe(true);
      expect(missingRequiredGroups(type, contract.example)).toEqual([]);
      expect(contract.description).not.toContain("\n");
    }
  });

  it("parsing fills in documented defaults", () => {
    expect(NODE_CONTRACTS.http.configSchema.parse({ url: "/x" })).toMatchObject({ method: "GET", timeout: 10_000 });
    expect(NODE_CONTRACTS.code.configSchema.parse({ code: "result = 1" })).toMatchObject({ timeout: 5000 });
    expect(NODE_CONTRACTS.memory_load.configSchema.parse({ agent_id: "a" })).toMatchObject({
      key: "{{start.sessionId}}",
      memory_type: "conversation",
    });
  });

  it("every field has a title, a description and a known widget", () => {
    for (const type of NODE_TYPES) {
      for (const key of configKeys(type)) {
        const meta = configFieldMeta(type, key);
        expect(meta?.title, `${type}.${key}`).toBeTruthy();
        expect(meta?.description, `${type}.${key}`).toBeTruthy();
        expect(WIDGETS).toContain(meta?.["x-widget"]);
      }
    }
  });

  it("derives TEMPLATE_FIELDS from the widget metadata", () => {
    expect(TEMPLATE_FIELDS.llm).toEqual(["userPrompt", "user_prompt", "prompt_template", "systemPrompt"]);
    expect(TEMPLATE_FIELDS.http).toEqual(["url", "headers", "params", "body"]);
    expect(TEMPLATE_FIELDS.start).toEqual([]);
    expect(TEMPLATE_FIELDS.end).toEqual(["output", "payload"]);
    expect(TEMPLATE_FIELDS.code).toEqual(["inputs"]);
    expect(TEMPLATE_FIELDS.condition).toEqual([]);
    expect(TEMPLATE_FIELDS.memory_save).toEqual(["key", "data"]);
  });

  it("start outputs are its declared outputs plus variables, tolerating junk", () => {
    expect(
      NODE_CONTRACTS.start.outputs({ outputs: [{ name: "query" }, { name: 3 }, null], variables: { locale: "en" } }),
    ).toEqual(["query", "locale"]);
    expect(NODE_CONTRACTS.start.outputs("junk")).toEqual([]);
  });
});

describe("recipes", () => {
  it("getRecipe returns a copy", () => {
    const r = getRecipe("minimal")!;
    r.workflow.nodes.pop();
    expect(RECIPES.minimal.workflow.nodes).toHaveLength(3);
    expect(getRecipe("nope")).toBeUndefined();
    expect(getRecipe("toString")).toBeUndefined();
  });
});
