import { describe, expect, it } from "vitest";
import { evaluateAssertions } from "./rules";
import { AssertionSchema } from "./schemas";

describe("rule assertions", () => {
  const t = {
    answer: 'Try the Scallion Pancake: 12 yuan. {"x":1}',
    payload: { goods_list: [{ name: "Scallion pancake" }], meta: { count: 1, empty: [] } },
  };
  const run = (a: unknown) => evaluateAssertions(null, [AssertionSchema.parse(a)], t)[0]!;
  it("covers the documented vocabulary", () => {
    expect(run({ type: "contains", value: "Scallion" }).passed).toBe(true);
    expect(run({ type: "contains", value: "scallion" }).passed).toBe(false);
    expect(run({ type: "icontains", value: "SCALLION" }).passed).toBe(true);
    expect(run({ type: "not-contains", value: "tofu" }).passed).toBe(true);
    expect(run({ type: "not-icontains", value: "PANCAKE" }).passed).toBe(false);
    expect(run({ type: "regex", value: "\\d+\\s*yuan" }).passed).toBe(true);
    expect(run({ type: "is-json" }).passed).toBe(false);
    expect(
      evaluateAssertions(null, [AssertionSchema.parse({ type: "is-json" })], { answer: '{"a":1}', payload: null })[0]!
        .passed,
    ).toBe(true);
    expect(run({ type: "json-path-equals", path: "$.meta.count", value: 1 }).passed).toBe(true);
    expect(run({ type: "json-path-equals", path: "goods_list.0.name", value: "Scallion pancake" }).passed).toBe(true);
    expect(run({ type: "json-path-nonempty", path: "$.meta.empty" }).passed).toBe(false);
    expect(run({ type: "json-path-nonempty", path: "$.missing" }).message).toMatch(/not found/);
    expect(run({ type: "max-length", value: 10 }).passed).toBe(false);
    expect(run({ type: "min-length", value: 10 }).passed).toBe(true);
    expect(run({ type: "payload-items-nonempty" }).passed).toBe(true);
    expect(
      evaluateAssertions(null, [AssertionSchema.parse({ type: "payload-items-nonempty" })], {
        answer: "x",
        payload: { goods_list: [] },
      })[0]!.passed,
    ).toBe(false);
  });
  it("set-level rules apply before sample rules and say their scope", () => {
    const r = evaluateAssertions(
      [AssertionSchema.parse({ type: "max-length", value: 1000 })],
      [AssertionSchema.parse({ type: "contains", value: "nope", name: "mentions nope" })],
      t,
    );
    expect(r.map((x) => [x.scope, x.passed, x.label])).toEqual([
      ["set", true, "max-length 1000"],
      ["sample", false, "mentions nope"],
    ]);
  });
  it("refuses an invalid regex at input time", () => {
    expect(AssertionSchema.safeParse({ type: "regex", value: "([" }).success).toBe(false);
    expect(AssertionSchema.safeParse({ type: "unknown-rule" }).success).toBe(false);
  });
});
