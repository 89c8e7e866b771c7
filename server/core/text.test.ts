import { describe, expect, it } from "vitest";
import { MAX_INPUT_DEPTH, STORABLE_TEXT_PATTERN, findUnstorable, toStorable, toStorableText } from "./text";

const nest = (levels: number, leaf: unknown = "x"): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe("findUnstorable (the one input check)", () => {
  it("names the first NUL or unpaired surrogate in a string or key", () => {
    expect(findUnstorable({ a: ["ok", "x\u0000"] })).toEqual({
      path: "/a/1",
      message: expect.stringContaining("NUL"),
      code: "unstorable_text",
    });
    expect(findUnstorable({ "k\ud800": 1 })?.path).toBe("/k\ud800");
    expect(findUnstorable("\udfff")?.path).toBe("/");
    expect(findUnstorable({ ok: "😀 paired surrogates are fine" })).toBeNull();
  });

  it("refuses nesting deeper than MAX_INPUT_DEPTH instead of letting it through unchecked", () => {
    expect(findUnstorable(nest(MAX_INPUT_DEPTH))).toBeNull();
    // one level more: the value that is too deep is named, whatever it holds
    const deep = findUnstorable(nest(MAX_INPUT_DEPTH + 1));
    expect(deep?.code).toBe("too_deep");
    expect(deep?.path.split("/").length).toBe(MAX_INPUT_DEPTH + 1);
    // a NUL hidden below the limit was the gap: it is refused (as too deep) rather than reaching the database
    expect(findUnstorable(nest(150, "a\u0000b"))?.code).toBe("too_deep");
  });
});

describe("toStorable (text the runtime produces)", () => {
  it("replaces NUL and unpaired surrogates with U+FFFD, in strings and keys, at any depth", () => {
    expect(toStorableText("a\u0000b\ud800c\udc00d😀")).toBe("a\ufffdb\ufffdc\ufffdd😀");
    const out = toStorable({ steps: [{ output: { result: "a\u0000b", "k\u0000": 1 } }], n: 1, b: true, z: null });
    expect(out).toEqual({ steps: [{ output: { result: "a\ufffdb", "k\ufffd": 1 } }], n: 1, b: true, z: null });
    expect(findUnstorable(out)).toBeNull();
  });

  it("returns the very same value when nothing needs replacing (no copy on the common path)", () => {
    const v = { a: [1, "x", { b: "y" }] };
    expect(toStorable(v)).toBe(v);
    const input = { a: "x\u0000" };
    toStorable(input);
    expect(input.a).toBe("x\u0000");
  });
});

describe("STORABLE_TEXT_PATTERN (the rule as JSON Schema says it)", () => {
  it("agrees with findUnstorable, with and without the u flag (ajv compiles patterns with it)", () => {
    const samples = [
      "",
      "plain",
      "😀 paired",
      "\u0000",
      "a\u0000b",
      "\ud800",
      "x\udfff",
      "\udfff\ud800",
      "\ud83d\ude00\ud800",
      "é\uffff",
    ];
    for (const flags of ["", "u"]) {
      const re = new RegExp(STORABLE_TEXT_PATTERN, flags);
      for (const s of samples) expect(re.test(s), `${JSON.stringify(s)} /${flags}`).toBe(findUnstorable(s) === null);
    }
  });
});
