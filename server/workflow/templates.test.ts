import { describe, expect, it } from "vitest";
import {
  TEMPLATE_PATTERN_SOURCE,
  extractTemplateRefs,
  renderTemplate,
  renderTemplateValue,
  renderTemplatesDeep,
} from "./templates";

describe("extractTemplateRefs", () => {
  it("finds references with fields, deeper paths and offsets", () => {
    const text = "Q: {{start.query}} and {{ http_1.result.items.0.name }}!";
    const { refs, errors } = extractTemplateRefs(text);
    expect(errors).toEqual([]);
    expect(refs).toEqual([
      { raw: "{{start.query}}", nodeId: "start", field: "query", path: [], start: 3, end: 18 },
      {
        raw: "{{ http_1.result.items.0.name }}",
        nodeId: "http_1",
        field: "result",
        path: ["items", "0", "name"],
        start: 23,
        end: 55,
      },
    ]);
    expect(text.slice(refs[1]!.start, refs[1]!.end)).toBe(refs[1]!.raw);
  });

  it("allows ids with dashes and digits", () => {
    expect(extractTemplateRefs("{{node-2.result}}").refs[0]).toMatchObject({ nodeId: "node-2", field: "result" });
  });

  it.each([
    ["{{start.query", "unclosed", 0],
    ["ok {{}}", "empty", 3],
    ["{{   }}", "empty", 0],
    ["{{start}}", "no_field", 0],
    ["x{{start query}}", "bad_characters", 1],
    ["{{start.que ry}}", "bad_characters", 0],
    ["{{start.$x}}", "bad_characters", 0],
    ["{{start..query}}", "empty_segment", 0],
    ["{{.query}}", "empty_segment", 0],
    ["{{start.}}", "empty_segment", 0],
  ])("reports %s as %s at %i", (text, kind, start) => {
    const { refs, errors } = extractTemplateRefs(text);
    expect(refs).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind, start });
    expect(errors[0]!.message).toContain(`character ${start}`);
  });

  it("reports an unclosed template and keeps going at the next one", () => {
    const { refs, errors } = extractTemplateRefs("{{a.b {{c.d}}");
    expect(errors.map((e) => [e.kind, e.start])).toEqual([["unclosed", 0]]);
    expect(refs.map((r) => r.nodeId)).toEqual(["c"]);
  });

  it("treats single braces, JSON and escaped braces as text", () => {
    expect(extractTemplateRefs('{"a": {"b": 1}} and {x} and }} and \\{{not.a.ref}}')).toEqual({ refs: [], errors: [] });
  });

  it("is linear on pathological input", () => {
    // 400,000 unclosed openers: a linear scan takes milliseconds, a quadratic one (8e10 steps) minutes, so the bound
    // tells them apart with room for a busy CI machine; the real figures are in `npm run bench -- validate`
    const text = "{{".repeat(400_000);
    const t = performance.now();
    const scan = extractTemplateRefs(text);
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(scan.errors.length).toBeGreaterThan(0);
    const many = "{{a.b}} ".repeat(20_000);
    expect(extractTemplateRefs(many).refs).toHaveLength(20_000);
  });

  it("agrees with the documented pattern on well-formed templates", () => {
    const re = new RegExp(TEMPLATE_PATTERN_SOURCE, "g");
    const text = "{{start.query}} {{ llm_1.result }} {{http_1.result.items.0}}";
    expect([...text.matchAll(re)].map((m) => m[0])).toEqual(extractTemplateRefs(text).refs.map((r) => r.raw));
  });
});

describe("renderTemplate", () => {
  const scope = {
    start: { query: "hello", n: 3, flag: false, empty: null },
    http_1: { result: { items: [{ name: "first" }, { name: "second" }] }, status: 200 },
    llm_1: { result: "answer" },
  };

  it("renders strings, numbers, booleans, objects and deep paths", () => {
    expect(renderTemplate("{{start.query}}/{{ start.n }}/{{start.flag}}", scope)).toBe("hello/3/false");
    expect(renderTemplate("{{http_1.result.items.1.name}}", scope)).toBe("second");
    expect(renderTemplate("{{http_1.result}}", scope)).toBe('{"items":[{"name":"first"},{"name":"second"}]}');
  });

  it("renders missing values and null as empty strings", () => {
    expect(
      renderTemplate("[{{start.missing}}][{{nope.x}}][{{start.empty}}][{{http_1.result.items.9.name}}]", scope),
    ).toBe("[][][][]");
  });

  it("does not walk the prototype", () => {
    expect(renderTemplate("{{start.constructor}}|{{start.__proto__}}|{{start.query.length}}", scope)).toBe("||");
  });

  it("keeps malformed templates and unescapes \\{{", () => {
    expect(renderTemplate("{{start}} {{start.query", scope)).toBe("{{start}} {{start.query");
    expect(renderTemplate("\\{{start.query}} is {{start.query}}", scope)).toBe("{{start.query}} is hello");
  });

  it("leaves text without templates untouched", () => {
    expect(renderTemplate('{"a":{"b":1}}', scope)).toBe('{"a":{"b":1}}');
  });

  it("renderTemplateValue keeps the type of a single template", () => {
    expect(renderTemplateValue("{{http_1.result.items}}", scope)).toEqual([{ name: "first" }, { name: "second" }]);
    expect(renderTemplateValue(" {{http_1.status}} ", scope)).toBe(200);
    expect(renderTemplateValue("status {{http_1.status}}", scope)).toBe("status 200");
    expect(renderTemplateValue("{{start.missing}}", scope)).toBe("");
  });

  it("renderTemplatesDeep renders inside objects and arrays", () => {
    expect(
      renderTemplatesDeep(
        { q: "{{start.query}}", list: ["{{start.n}}", 1, true], nested: { s: "x {{llm_1.result}}" } },
        scope,
      ),
    ).toEqual({
      q: "hello",
      list: [3, 1, true],
      nested: { s: "x answer" },
    });
    const proto = renderTemplatesDeep(JSON.parse('{"__proto__": {"polluted": "{{start.query}}"}}'), scope) as Record<
      string,
      unknown
    >;
    expect(Object.hasOwn(proto, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
