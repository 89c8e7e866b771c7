import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { NODE_TYPES, getContract } from "./contract";
import { FINDING_FIXTURES } from "./fixtures";
import { RECIPES } from "./recipes";
import { WORKFLOW_JSON_SCHEMA, workflowField } from "./schema";
import { realisticWorkflow } from "./testing";
import { validateWorkflowRequest } from "./validate";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const check = ajv.compile(WORKFLOW_JSON_SCHEMA);

/** The spec's minimal workflow (start -> llm -> end, a required string input with an empty default): the recipe. */
const specMinimal = structuredClone(RECIPES.minimal.workflow) as {
  nodes: Array<{ config: Record<string, unknown> }>;
  edges: unknown[];
};

describe("the published workflow JSON Schema", () => {
  it("accepts the spec's minimal workflow, every recipe and generated realistic workflows", () => {
    expect(check(specMinimal), ajv.errorsText(check.errors)).toBe(true);
    for (const recipe of Object.values(RECIPES))
      expect(check(recipe.workflow), `${recipe.name}: ${ajv.errorsText(check.errors)}`).toBe(true);
    for (let v = 0; v < 4; v++) expect(check(realisticWorkflow(60, v)), ajv.errorsText(check.errors)).toBe(true);
  });

  it("is oneOf by node type, each variant naming that type's config keys (the contract's)", () => {
    const nodes = (
      WORKFLOW_JSON_SCHEMA.properties as {
        nodes: {
          items: {
            oneOf: Array<{ properties: { type: { const: string }; config: { properties: Record<string, unknown> } } }>;
          };
        };
      }
    ).nodes;
    const variants = nodes.items.oneOf;
    expect(variants.map((v) => v.properties.type.const)).toEqual([...NODE_TYPES]);
    for (const v of variants) {
      const keys = Object.keys(getContract(v.properties.type.const as (typeof NODE_TYPES)[number]).configSchema.shape);
      expect(Object.keys(v.properties.config.properties).sort()).toEqual(keys.sort());
    }
    const llm = variants.find((v) => v.properties.type.const === "llm")!;
    expect(llm.properties.config.properties.temperature).toMatchObject({ type: "number", minimum: 0, maximum: 2 });
  });

  it("agrees with the validator: a body the validator finds valid passes the schema; a bad config is refused by the schema but still reported by the validator as findings", () => {
    let valid = 0;
    for (const [code, fixture] of Object.entries(FINDING_FIXTURES)) {
      if (fixture.sandbox) continue;
      const body = fixture.clean as { workflow?: unknown };
      const result = validateWorkflowRequest(body, fixture.opts);
      if (!result.valid) continue;
      valid++;
      expect(check(body.workflow), `${code} clean: ${ajv.errorsText(check.errors)}`).toBe(true);
    }
    expect(valid).toBeGreaterThan(20);
    const bad = structuredClone(specMinimal);
    bad.nodes[1]!.config.temperature = 5;
    expect(check(bad)).toBe(false);
    const result = validateWorkflowRequest({ workflow: bad });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.code)).toContain("NODE_CONFIG_INVALID");
    // the request schema of every face still parses it (the JSON Schema documents; the validator answers)
    expect(workflowField("w").safeParse(bad).success).toBe(true);
    // a node of one type with another type's config does not match any variant
    const swapped = structuredClone(specMinimal);
    swapped.nodes[1]!.config = { url: "/x" };
    expect(check(swapped)).toBe(false);
  });
});
