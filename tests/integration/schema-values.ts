import fc from "fast-check";
import { STORABLE_TEXT_PATTERN } from "@/server/core/text";

/**
 * Valid values from a JSON Schema (the subset OpenAPI 3.1 documents here: $ref into components, const, enum,
 * anyOf/oneOf/allOf, string with length/pattern/format, integer and number with bounds, boolean, null, arrays and
 * objects with required and optional properties and additionalProperties), as fast-check arbitraries. Strings are
 * short and made of letters and digits (so a trimmed, non-empty rule holds); integers and numbers stay small within
 * their bounds. Used by the fuzz test to build a request its operation documents as valid before mutating it.
 */
export type JsonSchema = Record<string, unknown>;
type Components = Record<string, JsonSchema>;

const isObject = (v: unknown): v is JsonSchema => !!v && typeof v === "object" && !Array.isArray(v);
const WORD = fc.stringOf(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"), { minLength: 1, maxLength: 10 });

export function resolve(schema: unknown, components: Components): JsonSchema {
  let s = isObject(schema) ? schema : {};
  for (let i = 0; i < 20 && typeof s.$ref === "string"; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref as string)?.[1];
    const target = name ? components[name] : undefined;
    if (!target) throw new Error(`cannot resolve ${String(s.$ref)}`);
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s;
}

/** Merges `allOf` parts and requirement-only `anyOf` branches (`{ required: [...] }`, the first one) into the schema. */
function flatten(schema: JsonSchema, components: Components): JsonSchema {
  let s = schema;
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    s = rest;
    for (const part of allOf as unknown[]) s = merge(s, flatten(resolve(part, components), components));
  }
  if (
    Array.isArray(s.anyOf) &&
    (s.anyOf as unknown[]).every((b) => isObject(b) && b.type === undefined && Array.isArray(b.required))
  ) {
    const { anyOf, ...rest } = s;
    s = merge(rest, (anyOf as JsonSchema[])[0]!);
  }
  return s;
}

function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties = { ...(a.properties as JsonSchema), ...(b.properties as JsonSchema) };
  for (const [k, v] of Object.entries((b.properties as JsonSchema) ?? {}))
    if (isObject(a.properties) && isObject(a.properties[k]))
      properties[k] = { ...(a.properties[k] as JsonSchema), ...(v as JsonSchema) };
  // the storable-text pattern every input string carries (letters and digits satisfy it) never hides a field's own
  const pattern = b.pattern === STORABLE_TEXT_PATTERN && a.pattern !== undefined ? a.pattern : (b.pattern ?? a.pattern);
  return {
    ...a,
    ...b,
    ...(pattern === undefined ? {} : { pattern }),
    properties,
    required: [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])],
  };
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const min = typeof s.minLength === "number" ? s.minLength : 1;
  const max = typeof s.maxLength === "number" ? s.maxLength : 40;
  if (s.format === "date") return fc.constant(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  if (s.format === "date-time") return fc.constant(new Date().toISOString());
  if (typeof s.pattern === "string" && s.pattern !== STORABLE_TEXT_PATTERN) {
    const source = s.pattern as string;
    if (source === "\\S") return WORD;
    const re = new RegExp(source);
    try {
      return fc.stringMatching(re).filter((v) => v.length >= Math.max(min, 1) && v.length <= max && v.trim() === v);
    } catch {
      // a pattern fast-check cannot generate from (lookahead, backreference: regex flags that do not repeat)
      const fits = ["i", "im", "x1", ""].find((c) => re.test(c) && c.length >= min && c.length <= max);
      if (fits !== undefined) return fc.constant(fits);
      throw new Error(`no value for the pattern ${source}`);
    }
  }
  if (min > 10) return fc.constant("x".repeat(min));
  return WORD.map((w) => w.slice(0, Math.max(1, Math.min(max, w.length))));
}

export function arbitraryFor(schema: unknown, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = flatten(resolve(schema, components), components);
  if (depth > 8) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const usable = branches.filter((b) => resolve(b, components).type !== "null");
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    return fc.oneof(
      ...(usable.length ? usable : branches).map((b) =>
        arbitraryFor({ ...rest, ...resolve(b, components) }, components, depth + 1),
      ),
    );
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  switch (type) {
    case "string":
      return stringArbitrary(s);
    case "integer": {
      const min = typeof s.minimum === "number" ? s.minimum : 0;
      const max = typeof s.maximum === "number" ? s.maximum : min + 100;
      return fc.integer({ min, max: Math.min(max, min + 100) });
    }
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : 0;
      const max = typeof s.maximum === "number" ? s.maximum : min + 100;
      return fc.double({ min, max: Math.min(max, min + 100), noNaN: true, noDefaultInfinity: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = typeof s.minItems === "number" ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === "number" ? s.maxItems : 2, 2));
      return fc.array(arbitraryFor(s.items ?? {}, components, depth + 1), { minLength, maxLength });
    }
    case "object":
    case undefined: {
      const properties = isObject(s.properties) ? s.properties : {};
      const required = new Set((s.required as string[]) ?? []);
      const keys = Object.keys(properties);
      if (type === undefined && !keys.length) return fc.oneof(WORD, fc.integer({ min: 0, max: 100 }), fc.boolean());
      const record = fc.record(
        Object.fromEntries(keys.map((k) => [k, arbitraryFor(properties[k], components, depth + 1)])),
        { requiredKeys: keys.filter((k) => required.has(k)) },
      );
      if (!keys.length && isObject(s.additionalProperties)) {
        const names = isObject(s.propertyNames)
          ? stringArbitrary({ ...(s.propertyNames as JsonSchema), type: "string" })
          : WORD;
        return fc.dictionary(names, arbitraryFor(s.additionalProperties, components, depth + 1), { maxKeys: 2 });
      }
      return record;
    }
    default:
      return fc.constant(null);
  }
}

/** One value of `schema`, the same for the same seed. */
export function sampleOf(schema: unknown, components: Components, seed: number): unknown {
  return fc.sample(arbitraryFor(schema, components), { seed, numRuns: 1 })[0];
}
