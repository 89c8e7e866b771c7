import { z, type ZodType } from "zod";

/**
 * A zod schema's JSON Schema (draft 2020-12, input side) inlined, for documenting a value that a face parses
 * loosely on purpose (e.g. rows of an upload, which become row errors instead of one REQUEST_INVALID): spread it
 * into `z.unknown().meta(...)` and OpenAPI publishes the real shape. Schemas with an id (`.meta({ id })`) that zod
 * would put under `$defs` are inlined; a schema that needs `$defs` elsewhere (recursion) is refused, because a
 * local `#/$defs/...` reference does not resolve once embedded in another document.
 */
export function inlineJsonSchema(schema: ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _draft, $defs, $ref, ...rest } = out;
  const defs = ($defs ?? {}) as Record<string, Record<string, unknown>>;
  let root: Record<string, unknown> = rest;
  if (typeof $ref === "string") {
    const name = /^#\/\$defs\/(.+)$/.exec($ref)?.[1];
    if (!name || !defs[name]) throw new Error(`inlineJsonSchema: cannot resolve ${$ref}`);
    const { [name]: own, ...others } = defs;
    root = { ...own, ...rest };
    if (Object.keys(others).length)
      throw new Error(
        `inlineJsonSchema: nested schemas with ids (${Object.keys(others).join(", ")}) are not supported`,
      );
  } else if (Object.keys(defs).length)
    throw new Error(`inlineJsonSchema: the schema needs $defs (${Object.keys(defs).join(", ")})`);
  if (JSON.stringify(root).includes('"#/$defs/')) throw new Error("inlineJsonSchema: the schema is recursive");
  return root;
}
