/**
 * The JSON Schema (draft 2020-12, input side) of one node type's config, derived from the contract's zod schema.
 * The node-type summary publishes it per type (`jsonSchema`), and the workflow's JSON Schema (schema.ts) uses it for
 * each node type's `config`, so OpenAPI, MCP and typed clients see the same keys the validator checks.
 */
import { z } from "zod";
import { getContract, type NodeType } from "./contract";

type JsonSchema = Record<string, unknown>;

/** JSON Schema of a type's config, with each required group as `anyOf` of non-empty keys. */
export function configJsonSchema(type: NodeType): JsonSchema {
  const contract = getContract(type);
  const schema = z.toJSONSchema(contract.configSchema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const groups = contract.requiredAnyOf.map((group) => ({
    anyOf: group.map((key) => ({ required: [key], properties: { [key]: { type: "string", pattern: "\\S" } } })),
  }));
  if (groups.length === 1) Object.assign(schema, groups[0]);
  else if (groups.length > 1) schema.allOf = groups;
  return schema;
}
