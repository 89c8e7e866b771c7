import { describe, expect, it } from "vitest";
import { NODE_CONTRACTS, NODE_TYPES, WIDGETS, configFieldMeta, configKeys } from "@/server/workflow/contract";
import { configJsonSchema } from "@/server/workflow/summary";
import { buildFormModel, groupLabel, unknownKeys } from "./form-model";

describe("buildFormModel (the generic, contract-driven form generator)", () => {
  it.each(NODE_TYPES)("renders a field for every config key of %s, in schema order", (type) => {
    const model = buildFormModel(type);
    expect(model.fields.map((f) => f.key)).toEqual(configKeys(type));
    expect(model.title).toBe(NODE_CONTRACTS[type].title);
    expect(model.description).toBe(NODE_CONTRACTS[type].description);
  });

  it.each(NODE_TYPES)("takes widget, title and description of %s from the contract's .meta()", (type) => {
    for (const field of buildFormModel(type).fields) {
      const meta = configFieldMeta(type, field.key);
      expect(meta, `${type}.${field.key} has metadata`).toBeDefined();
      expect(field.widget).toBe(meta?.["x-widget"]);
      expect(field.title).toBe(meta?.title);
      expect(field.description).toBe(meta?.description);
      expect(WIDGETS).toContain(field.widget);
    }
  });

  it("maps widgets to the right descriptors", () => {
    const byKey = (type: (typeof NODE_TYPES)[number]) =>
      Object.fromEntries(buildFormModel(type).fields.map((f) => [f.key, f]));
    const llm = byKey("llm");
    expect(llm.userPrompt).toMatchObject({
      widget: "textarea-template",
      templates: true,
      multiline: true,
      required: true,
      alternative: false,
    });
    expect(llm.user_prompt).toMatchObject({
      required: true,
      alternative: true,
      requiredGroup: ["userPrompt", "user_prompt", "prompt_template"],
    });
    expect(llm.temperature).toMatchObject({
      widget: "number",
      jsonType: "number",
      minimum: 0,
      maximum: 2,
      default: 0.7,
      step: 0.1,
      required: false,
    });
    expect(llm.maxTokens).toMatchObject({
      widget: "number",
      jsonType: "integer",
      minimum: 1,
      maximum: 32768,
      step: 1,
      unit: "tokens",
    });
    expect(llm.model).toMatchObject({ widget: "text", templates: false });

    const http = byKey("http");
    expect(http.url).toMatchObject({
      widget: "template",
      templates: true,
      multiline: false,
      required: true,
      alternative: false,
    });
    expect(http.url?.requiredGroup).toBeUndefined();
    expect(http.method?.widget).toBe("select");
    expect(http.method?.options?.map((o) => o.value)).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
    expect(http.method?.default).toBe("GET");
    expect(http.headers).toMatchObject({ widget: "kv", templates: true, kvScalarValues: false });
    expect(http.headers?.keyPattern).toBeTypeOf("string");
    expect(http.params).toMatchObject({ widget: "kv", kvScalarValues: true });
    expect(http.body).toMatchObject({ widget: "json", templates: true, multiline: true });
    expect(http.timeout).toMatchObject({ widget: "number", minimum: 100, maximum: 60000, unit: "ms", default: 10000 });

    expect(byKey("code").code).toMatchObject({ widget: "python", required: true, multiline: true });
    expect(byKey("condition").expression).toMatchObject({ widget: "cel", required: true });
    expect(byKey("condition").trueTarget?.widget).toBe("node-ref");
    expect(byKey("start").outputs).toMatchObject({
      widget: "start-outputs",
      itemTypes: ["string", "number", "integer", "boolean", "object", "array"],
    });
    expect(byKey("start").variables?.widget).toBe("json");
    expect(byKey("end").output).toMatchObject({ widget: "textarea-template", templates: true });
    expect(byKey("memory_load").memory_type?.options?.map((o) => o.value)).toEqual(["conversation", "user", "kv"]);
    expect(byKey("memory_save").agent_id?.required).toBe(true);
  });

  it("agrees with the JSON Schema on every range and enum", () => {
    for (const type of NODE_TYPES) {
      const props = configJsonSchema(type).properties as Record<string, Record<string, unknown>>;
      for (const field of buildFormModel(type).fields) {
        expect(field.minimum).toBe(props[field.key]?.minimum);
        expect(field.maximum).toBe(props[field.key]?.maximum);
        expect(field.options?.map((o) => o.value)).toEqual(
          (props[field.key]?.enum as unknown[] | undefined)?.map(String),
        );
      }
    }
  });

  it("marks exactly the keys of requiredAnyOf as required", () => {
    for (const type of NODE_TYPES) {
      const required = new Set(NODE_CONTRACTS[type].requiredAnyOf.flat());
      for (const f of buildFormModel(type).fields) expect(f.required, `${type}.${f.key}`).toBe(required.has(f.key));
    }
  });

  it("labels any-of groups and finds keys the contract does not know", () => {
    const llm = buildFormModel("llm");
    expect(groupLabel(llm, ["userPrompt", "user_prompt", "prompt_template"])).toBe(
      "User prompt, User prompt (alias) or Prompt template (alias)",
    );
    expect(unknownKeys("llm", { userPrompt: "x", prompt: "y" })).toEqual(["prompt"]);
  });
});
