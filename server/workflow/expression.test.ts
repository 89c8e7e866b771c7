import { describe, expect, it } from "vitest";
import { evaluateCondition, evaluateExpression, parseExpression } from "./expression";

describe("parseExpression", () => {
  it("lists the root variables and their first selected field", () => {
    const parsed = parseExpression('start.query != "" && http_1.status == 200 && size(llm_1.result.text) > 0');
    expect(parsed.ok).toBe(true);
    expect(parsed.identifiers).toEqual(
      expect.arrayContaining([
        { root: "start", field: "query" },
        { root: "http_1", field: "status" },
        { root: "llm_1", field: "result" },
      ]),
    );
    expect(parsed.identifiers).toHaveLength(3);
  });

  it("handles index access, has(), ternaries, lists and maps", () => {
    const parsed = parseExpression(
      'has(start.tags) ? start["query"] in ["a", other] : {"k": node_9.x}.k == start[key]',
    );
    expect(parsed.identifiers).toEqual(
      expect.arrayContaining([
        { root: "start", field: "tags" },
        { root: "start", field: "query" },
        { root: "other" },
        { root: "node_9", field: "x" },
        { root: "start" },
        { root: "key" },
      ]),
    );
  });

  it("excludes macro-bound variables and CEL built-ins", () => {
    const parsed = parseExpression(
      'http_1.result.items.exists(i, i.price > start.limit) && [1, 2].map(x, x * 2).all(y, y > 0) && cel.bind(v, llm_1.result, v != "") && type(start.n) == int',
    );
    expect(parsed.identifiers.map((i) => i.root).sort()).toEqual(["http_1", "llm_1", "start", "start"].sort());
  });

  it("reports syntax errors with an offset and never throws", () => {
    for (const src of ["start.query ==", "start.", "(((", "a b", "", "   ", "1 +* 2"]) {
      const parsed = parseExpression(src);
      expect(parsed.ok).toBe(false);
      expect(parsed.error).toBeTruthy();
      expect(parsed.error).not.toContain("\n");
      expect(parsed.identifiers).toEqual([]);
    }
    expect(parseExpression("start.query ==").errorOffset).toBe(14);
  });
});

describe("evaluateExpression", () => {
  const scope = {
    start: { query: "refund please", n: 3 },
    http_1: { status: 200, ok: true, result: { items: [1, 2, 3] } },
  };

  it("evaluates against node outputs (JSON numbers compare with int literals)", () => {
    expect(evaluateExpression('start.query != "" && http_1.status == 200', scope)).toEqual({ ok: true, value: true });
    // `in` is list/map membership in CEL; substring tests use contains().
    expect(evaluateExpression('"refund" in start.query', scope)).toEqual({ ok: false, error: expect.any(String) });
    expect(evaluateExpression('start.query.contains("refund")', scope)).toEqual({ ok: true, value: true });
    expect(evaluateExpression("size(http_1.result.items)", scope)).toEqual({ ok: true, value: 3 });
    expect(evaluateExpression("http_1.result.items.filter(x, x > 1.0)", scope)).toEqual({ ok: true, value: [2, 3] });
  });

  it("returns errors instead of throwing", () => {
    expect(evaluateExpression("start.missing == 1", scope).ok).toBe(false);
    expect(evaluateExpression("nobody.x", scope).ok).toBe(false);
    expect(evaluateExpression("start.query ==", scope).ok).toBe(false);
  });

  it("evaluateCondition requires a boolean", () => {
    expect(evaluateCondition("http_1.ok", scope)).toEqual({ ok: true, value: true });
    expect(evaluateCondition("http_1.status", scope)).toEqual({ ok: false, error: expect.stringContaining("boolean") });
  });
});
