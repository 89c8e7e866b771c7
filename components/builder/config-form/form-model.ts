/**
 * The one generic form generator: turns a node type's zod config schema (NODE_CONTRACTS[type].configSchema) and
 * its `.meta()` hints into field descriptors. The side panel renders whatever this returns; there is no
 * per-type form code, so a key added to the contract shows up in the form without touching the UI.
 *
 * - keys and order: `schema.shape`
 * - title, description, widget, unit, template-ness: the field's `.meta()` (`z.globalRegistry`), via FieldMeta
 * - JSON type, minimum/maximum, enum, default, key patterns: the field's JSON Schema (`configJsonSchema(type)`)
 * - required: `requiredAnyOf`; in a group of several keys the first is primary and the rest are alternatives
 */
import { z } from "zod";
import {
  NODE_CONTRACTS,
  fieldHasTemplates,
  type FieldMeta,
  type NodeType,
  type Widget,
} from "@/server/workflow/contract";
import { configJsonSchema } from "@/server/workflow/summary";

export interface SelectOption {
  value: string;
  label: string;
}

export interface FieldDescriptor {
  key: string;
  title: string;
  description: string;
  widget: Widget;
  /** Strings in the value may contain {{node.field}} templates: offer completion. */
  templates: boolean;
  /** Multi-line editor (textarea-template, python, json). */
  multiline: boolean;
  /** Part of a required any-of group. */
  required: boolean;
  /** The whole any-of group this key belongs to, when it has more than one key. */
  requiredGroup?: string[];
  /** An alternative key of an any-of group (not its first key): shown folded unless it has a value. */
  alternative: boolean;
  /** JSON type(s) from the JSON Schema: "string", "integer", "number", "object", "array", "string | object", "any". */
  jsonType: string;
  minimum?: number;
  maximum?: number;
  /** Input step for numbers: 1 for integers, else a tenth of a small range. */
  step?: number;
  unit?: string;
  default?: unknown;
  /** For `select`: the enum values. */
  options?: SelectOption[];
  /** For `kv`: key pattern and whether values may be numbers/booleans as well as strings. */
  keyPattern?: string;
  kvScalarValues?: boolean;
  /** For `start-outputs`: the allowed item types. */
  itemTypes?: string[];
}

export interface FormModel {
  type: NodeType;
  title: string;
  description: string;
  requiredAnyOf: string[][];
  fields: FieldDescriptor[];
}

type JsonSchema = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a field's metadata: the outer schema's `.meta()`, else the inner one's (through optional/default). */
export function fieldMeta(schema: z.ZodType): FieldMeta | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 5; i++) {
    const meta = z.globalRegistry.get(s) ?? s.meta();
    if (meta && typeof (meta as Record<string, unknown>)["x-widget"] === "string") return meta as FieldMeta;
    const def: { type?: string; innerType?: z.ZodType } | undefined = (
      s as unknown as { def?: { type?: string; innerType?: z.ZodType } }
    ).def;
    s =
      def && (def.type === "optional" || def.type === "default" || def.type === "nullable") ? def.innerType : undefined;
  }
  return undefined;
}

function jsonTypeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (typeof schema.type === "string") return schema.type;
  const alts = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alts)) return [...new Set(alts.map(jsonTypeOf))].join(" | ");
  return "any";
}

function stepFor(type: string, min?: number, max?: number): number | undefined {
  if (type === "integer") return 1;
  if (type !== "number") return undefined;
  if (min !== undefined && max !== undefined && max - min <= 10) return 0.1;
  return undefined;
}

/** Field descriptors for a node type, in the order of its config schema. */
export function buildFormModel(type: NodeType): FormModel {
  const contract = NODE_CONTRACTS[type];
  const shape = contract.configSchema.shape as Record<string, z.ZodType>;
  const properties = (configJsonSchema(type).properties ?? {}) as Record<string, JsonSchema>;
  const groups = contract.requiredAnyOf as readonly (readonly string[])[];

  const fields = Object.entries(shape).map(([key, schema]): FieldDescriptor => {
    const meta = fieldMeta(schema);
    const js = properties[key];
    const widget: Widget = meta?.["x-widget"] ?? "json";
    const group = groups.find((g) => g.includes(key));
    const jsonType = jsonTypeOf(js);
    const minimum = typeof js?.minimum === "number" ? js.minimum : undefined;
    const maximum = typeof js?.maximum === "number" ? js.maximum : undefined;
    const field: FieldDescriptor = {
      key,
      title: meta?.title ?? key,
      description: meta?.description ?? "",
      widget,
      templates: fieldHasTemplates(meta),
      multiline: widget === "textarea-template" || widget === "python" || widget === "json",
      required: group !== undefined,
      alternative: group !== undefined && group[0] !== key,
      jsonType,
    };
    if (group && group.length > 1) field.requiredGroup = [...group];
    if (minimum !== undefined) field.minimum = minimum;
    if (maximum !== undefined) field.maximum = maximum;
    const step = stepFor(jsonType, minimum, maximum);
    if (step !== undefined) field.step = step;
    if (typeof meta?.["x-unit"] === "string") field.unit = meta["x-unit"];
    if (js && "default" in js) field.default = js.default;
    if (Array.isArray(js?.enum))
      field.options = (js.enum as unknown[]).map((v) => ({ value: String(v), label: String(v) }));
    if (widget === "kv") {
      const names = isRecord(js?.propertyNames) ? js.propertyNames : undefined;
      if (typeof names?.pattern === "string") field.keyPattern = names.pattern;
      const values = isRecord(js?.additionalProperties) ? js.additionalProperties : undefined;
      field.kvScalarValues = jsonTypeOf(values) !== "string";
    }
    if (widget === "start-outputs") {
      const items = isRecord(js?.items) ? js.items : undefined;
      const props = isRecord(items?.properties) ? (items.properties as Record<string, JsonSchema>) : undefined;
      const typeEnum = props?.type?.enum;
      if (Array.isArray(typeEnum)) field.itemTypes = typeEnum.map(String);
    }
    return field;
  });

  return {
    type,
    title: contract.title,
    description: contract.description,
    requiredAnyOf: groups.map((g) => [...g]),
    fields,
  };
}

const cache = new Map<NodeType, FormModel>();
/** buildFormModel, computed once per type. */
export function formModel(type: NodeType): FormModel {
  let model = cache.get(type);
  if (!model) {
    model = buildFormModel(type);
    cache.set(type, model);
  }
  return model;
}

/** Text shown for an any-of group: "User prompt, User prompt (alias) or Prompt template (alias)". */
export function groupLabel(model: FormModel, group: readonly string[]): string {
  const titles = group.map((k) => model.fields.find((f) => f.key === k)?.title ?? k);
  return titles.length <= 1 ? (titles[0] ?? "") : `${titles.slice(0, -1).join(", ")} or ${titles.at(-1)}`;
}

/** Config keys present in a config that the contract does not know (the server warns about them). */
export function unknownKeys(type: NodeType, config: Record<string, unknown>): string[] {
  const shape = NODE_CONTRACTS[type].configSchema.shape as Record<string, unknown>;
  return Object.keys(config).filter((k) => !Object.hasOwn(shape, k));
}
