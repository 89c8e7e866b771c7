/**
 * The workflow validator: one pure function used by the REST endpoint, tRPC, MCP, provisioning and the
 * canvas. It never throws and never stops at the first problem: every finding carries a stable code
 * and a JSON pointer into the request body.
 *
 * Passes: (1) body shape and per-node checks (id, type, position, config via the contract's zod
 * schema, start outputs, http url, template syntax); (2) edges; (3) graph: cycles, reachability;
 * (4) references from templates, condition expressions and extractFrom, checked against the graph's
 * ancestor relation. Everything is linear in the input except the ancestor bitsets, which are
 * O(edges x referenced nodes / 32).
 */
import type { z } from "zod";
import { FINDING_CODES, type FindingCode } from "./codes";
import {
  IDENTIFIER_PATTERN,
  NODE_TYPES,
  TEMPLATE_FIELDS,
  configKeys,
  getContract,
  isNodeType,
  missingRequiredGroups,
  valueMatchesType,
  type NodeType,
  type StartOutputType,
  START_OUTPUT_TYPES,
} from "./contract";
import { parseExpression } from "./expression";
import { ancestorQueries, buildDigraph, outDegree, reachable, stronglyConnectedComponents } from "./graph";
import { WORKFLOW_LIMITS } from "./limits";
import type { Finding, ValidationResult } from "./schema";
import { judgeContractFindings } from "./judge";
import { extractTemplateRefs, isTemplateNodeId } from "./templates";

export type { Finding, ValidationResult } from "./schema";

export interface ValidateOptions {
  /** Value of WEBHOOK_BASE_URL; relative http urls warn when it is unset or empty. */
  webhookBaseUrl?: string;
  /** JSON pointer of the workflow inside the request body, e.g. "/workflow". Default "". */
  pathPrefix?: string;
}

// ---------------------------------------------------------------------------------------------
// Helpers

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own property only, so keys such as "constructor" never read the prototype. */
function own(obj: Json, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** One JSON pointer segment (RFC 6901). */
function seg(key: string | number): string {
  if (typeof key === "number") return `/${key}`;
  // Fast path: almost no key needs escaping.
  if (key.indexOf("~") < 0 && key.indexOf("/") < 0) return `/${key}`;
  return `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function ptr(base: string, ...keys: Array<string | number>): string {
  let out = base;
  for (const k of keys) out += seg(k);
  return out;
}

/** Quotes a user-supplied string for a message, shortened so messages stay readable. */
function q(value: string, max = 60): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}...` : value);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return Number.isFinite(value) ? "a number" : `the non-finite number ${String(value)}`;
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

const A_TYPE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  record: "an object",
  array: "an array",
  null: "null",
};

const KNOWN_KEYS: Record<NodeType, ReadonlySet<string>> = Object.fromEntries(
  NODE_TYPES.map((t) => [t, new Set(configKeys(t))]),
) as unknown as Record<NodeType, ReadonlySet<string>>;

const TEMPLATE_KEYS: Record<NodeType, ReadonlySet<string>> = Object.fromEntries(
  NODE_TYPES.map((t) => [t, new Set(TEMPLATE_FIELDS[t])]),
) as unknown as Record<NodeType, ReadonlySet<string>>;

const MAX_STR = WORKFLOW_LIMITS.maxStringLength;
const EDGE_TEXT_KEYS = ["id", "label"] as const;

// ---------------------------------------------------------------------------------------------
// Findings collector

class Findings {
  readonly errors: Finding[] = [];
  readonly warnings: Finding[] = [];
  private omittedErrors = 0;
  private omittedWarnings = 0;

  add(code: FindingCode, path: string, message: string, where: { nodeId?: string; edgeIndex?: number } = {}): void {
    const severity = FINDING_CODES[code].severity;
    const list = severity === "error" ? this.errors : this.warnings;
    // Keep at most maxFindings of each; the final cut below decides what is returned.
    if (list.length >= WORKFLOW_LIMITS.maxFindings) {
      if (severity === "error") this.omittedErrors++;
      else this.omittedWarnings++;
      return;
    }
    const finding: Finding = { code, severity, message, path };
    if (where.nodeId !== undefined) finding.nodeId = where.nodeId;
    if (where.edgeIndex !== undefined) finding.edgeIndex = where.edgeIndex;
    list.push(finding);
  }

  result(rootPath: string): ValidationResult {
    const max = WORKFLOW_LIMITS.maxFindings;
    // Errors first: they decide validity and are what a caller must fix.
    const errors = this.errors.slice(0, max);
    const warnings = this.warnings.slice(0, Math.max(0, max - errors.length));
    const omitted =
      this.omittedErrors +
      this.omittedWarnings +
      (this.errors.length - errors.length) +
      (this.warnings.length - warnings.length);
    if (omitted > 0) {
      warnings.push({
        code: "FINDINGS_TRUNCATED",
        severity: "warning",
        message: `${omitted} more finding${omitted === 1 ? " was" : "s were"} left out; only the first ${max} are returned. Fix these and validate again.`,
        path: rootPath,
      });
    }
    return { valid: errors.length === 0, errors, warnings };
  }
}

// ---------------------------------------------------------------------------------------------
// Per-node state

interface NodeInfo {
  index: number;
  path: string;
  /** The node's id when it is a non-empty string. */
  id: string | undefined;
  /** True when this node owns its id (first node with it); duplicates are left out of the graph. */
  owner: boolean;
  type: NodeType | undefined;
  config: Json;
  /** Output fields, computed on first use. */
  outputs?: ReadonlySet<string>;
}

type RefKind = "template" | "extract" | "condition";

interface PendingRef {
  kind: RefKind;
  /** Index of the node that holds the reference. */
  from: number;
  /** The node id it names. */
  name: string;
  field: string | undefined;
  /** The reference as written, for messages. */
  shown: string;
  /** Where it is: the pointer is `parent` + `key`, built only when a finding needs it. */
  parent: string;
  key: string | number;
  /** Index of the named node, once resolved. */
  to: number;
}

interface WalkItem {
  value: unknown;
  parent: string;
  key: string | number;
  /** Whether strings here are rendered as templates. */
  templates: boolean;
}

function nodeLabel(info: NodeInfo): string {
  const base = info.id !== undefined ? `Node ${q(info.id)}` : `Node at index ${info.index}`;
  return info.type ? `${base} (${info.type})` : base;
}

/** The same, for use inside a sentence. */
function nodeRef(info: NodeInfo): string {
  const label = nodeLabel(info);
  return `n${label.slice(1)}`;
}

function where(info: NodeInfo): { nodeId?: string } {
  return info.id !== undefined ? { nodeId: info.id } : {};
}

function outputsOf(info: NodeInfo): ReadonlySet<string> | undefined {
  if (!info.type) return undefined;
  info.outputs ??= new Set(getContract(info.type).outputs(info.config));
  return info.outputs;
}

// ---------------------------------------------------------------------------------------------
// zod issue -> sentence

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (Array.isArray(cur) && typeof key === "number") cur = cur[key];
    else if (isRecord(cur) && typeof key === "string") cur = own(cur, key);
    else return undefined;
  }
  return cur;
}

function describeIssue(issue: z.core.$ZodIssue, config: Json): string {
  const got = () => describeValue(valueAt(config, issue.path));
  switch (issue.code) {
    case "invalid_type":
      return `must be ${A_TYPE[issue.expected] ?? issue.expected}, got ${got()}`;
    case "too_big": {
      const unit = issue.origin === "string" ? " characters long" : issue.origin === "array" ? " items" : "";
      return `must be at most ${String(issue.maximum)}${unit}${issue.origin === "number" || issue.origin === "int" ? `, got ${String(valueAt(config, issue.path))}` : ""}`;
    }
    case "too_small": {
      if (issue.origin === "string" && issue.minimum === 1) return "must not be empty";
      const unit = issue.origin === "string" ? " characters long" : issue.origin === "array" ? " items" : "";
      return `must be at least ${String(issue.minimum)}${unit}${issue.origin === "number" || issue.origin === "int" ? `, got ${String(valueAt(config, issue.path))}` : ""}`;
    }
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(valueAt(config, issue.path)) ?? "nothing"}`;
    case "invalid_format":
      return issue.format === "regex" && "pattern" in issue
        ? `has an invalid format (must match ${String(issue.pattern)})`
        : `has an invalid format (${issue.format})`;
    case "invalid_key":
      return "is not an allowed key here";
    case "invalid_union": {
      const expected = new Set<string>();
      for (const branch of issue.errors) {
        for (const sub of branch)
          if (sub.code === "invalid_type" && sub.path.length === 0) expected.add(A_TYPE[sub.expected] ?? sub.expected);
      }
      return expected.size > 0
        ? `must be ${[...expected].join(" or ")}, got ${got()}`
        : "does not match any allowed form";
    }
    case "invalid_element":
      return "contains an invalid element";
    default:
      return issue.message;
  }
}

function issueFieldName(path: readonly PropertyKey[]): string {
  return path
    .map((k) => (typeof k === "number" ? `[${k}]` : String(k)))
    .join(".")
    .replace(/\.\[/g, "[");
}

// ---------------------------------------------------------------------------------------------
// The validator

class Validator {
  private readonly f = new Findings();
  private readonly nodes: NodeInfo[] = [];
  private readonly idIndex = new Map<string, number>();
  private readonly pending: PendingRef[] = [];
  private readonly prefix: string;
  private readonly baseUrlSet: boolean;

  constructor(opts: ValidateOptions) {
    this.prefix = opts.pathPrefix ?? "";
    this.baseUrlSet = typeof opts.webhookBaseUrl === "string" && opts.webhookBaseUrl.trim() !== "";
  }

  run(workflow: unknown): ValidationResult {
    try {
      this.workflow(workflow);
    } catch (err) {
      // Only reachable with non-JSON inputs (throwing getters, proxies): report instead of throwing.
      this.f.add(
        "VALIDATOR_INTERNAL_ERROR",
        this.prefix,
        `The workflow could not be checked: ${err instanceof Error ? err.message : String(err)}.`,
      );
    }
    return this.f.result(this.prefix);
  }

  private workflow(workflow: unknown): void {
    const p = this.prefix;
    if (!isRecord(workflow)) {
      this.f.add(
        "BODY_INVALID_TYPE",
        p,
        `The workflow must be an object {nodes, edges}, got ${describeValue(workflow)}.`,
      );
      return;
    }
    const nodes = this.arrayField(workflow, "nodes");
    const edges = this.arrayField(workflow, "edges");

    let overLimit = false;
    if (nodes && nodes.length > WORKFLOW_LIMITS.maxNodes) {
      overLimit = true;
      this.f.add(
        "LIMIT_NODES",
        ptr(p, "nodes"),
        `The workflow has ${nodes.length} nodes; at most ${WORKFLOW_LIMITS.maxNodes} are allowed.`,
      );
    }
    if (edges && edges.length > WORKFLOW_LIMITS.maxEdges) {
      overLimit = true;
      this.f.add(
        "LIMIT_EDGES",
        ptr(p, "edges"),
        `The workflow has ${edges.length} edges; at most ${WORKFLOW_LIMITS.maxEdges} are allowed.`,
      );
    }
    if (overLimit) return; // too large to be worth checking in detail

    if (nodes) {
      for (let i = 0; i < nodes.length; i++) this.node(nodes[i], i);
      if (!this.nodes.some((n) => n.type === "start")) {
        this.f.add(
          "WORKFLOW_NO_START",
          ptr(p, "nodes"),
          'The workflow has no node of type "start"; add one as the entry point.',
        );
      }
      if (!this.nodes.some((n) => n.type === "end")) {
        this.f.add(
          "WORKFLOW_NO_END",
          ptr(p, "nodes"),
          'The workflow has no node of type "end"; add one as the exit point.',
        );
      }
    }
    const graphEdges = edges ? this.edges(edges, nodes !== undefined) : [];
    if (nodes) this.graph(graphEdges);
  }

  private arrayField(obj: Json, key: "nodes" | "edges"): unknown[] | undefined {
    const path = ptr(this.prefix, key);
    if (!Object.hasOwn(obj, key) || obj[key] === undefined) {
      this.f.add("BODY_REQUIRED_FIELD", path, `The workflow has no "${key}"; it must be an array (it may be empty).`);
      return undefined;
    }
    const value = obj[key];
    if (!Array.isArray(value)) {
      this.f.add("BODY_INVALID_TYPE", path, `The workflow's "${key}" must be an array, got ${describeValue(value)}.`);
      return undefined;
    }
    return value;
  }

  // -------------------------------------------------------------------------------------------
  // Nodes

  private node(raw: unknown, index: number): void {
    const path = ptr(this.prefix, "nodes", index);
    const info: NodeInfo = { index, path, id: undefined, owner: false, type: undefined, config: {} };
    this.nodes.push(info);
    if (!isRecord(raw)) {
      this.f.add(
        "BODY_INVALID_TYPE",
        path,
        `Node at index ${index} must be an object {id, type, config, position}, got ${describeValue(raw)}.`,
      );
      return;
    }
    this.nodeId(raw, info);
    this.nodeType(raw, info);
    this.position(raw, info);

    const config = own(raw, "config");
    const configPath = ptr(path, "config");
    if (config !== undefined && config !== null && !isRecord(config)) {
      this.f.add(
        "NODE_CONFIG_INVALID",
        configPath,
        `${nodeLabel(info)}: "config" must be an object, got ${describeValue(config)}.`,
        where(info),
      );
    } else if (isRecord(config)) {
      info.config = config;
    }
    if (info.type) this.config(info, configPath);
    else this.walkConfig(info, configPath, undefined);
  }

  private nodeId(raw: Json, info: NodeInfo): void {
    const path = `${info.path}/id`;
    if (!Object.hasOwn(raw, "id") || raw.id === undefined) {
      this.f.add("BODY_REQUIRED_FIELD", path, `Node at index ${info.index} has no "id".`);
      return;
    }
    const id = raw.id;
    if (typeof id !== "string") {
      this.f.add(
        "BODY_INVALID_TYPE",
        path,
        `Node at index ${info.index}: "id" must be a string, got ${describeValue(id)}.`,
      );
      return;
    }
    if (id.trim() === "") {
      this.f.add("NODE_ID_INVALID", path, `Node at index ${info.index} has an empty "id".`);
      return;
    }
    info.id = id;
    if (id.length > WORKFLOW_LIMITS.maxIdLength) {
      this.f.add(
        "NODE_ID_INVALID",
        path,
        `Node id ${q(id)} is ${id.length} characters long; at most ${WORKFLOW_LIMITS.maxIdLength} are allowed.`,
        { nodeId: id },
      );
    } else if (!isTemplateNodeId(id)) {
      this.f.add(
        "NODE_ID_NOT_REFERENCEABLE",
        path,
        `Node id ${q(id)} contains characters other than letters, digits, "_" and "-", so templates cannot refer to it.`,
        { nodeId: id },
      );
    }
    const first = this.idIndex.get(id);
    if (first !== undefined) {
      this.f.add(
        "NODE_ID_DUPLICATE",
        path,
        `Node id ${q(id)} at index ${info.index} is already used by the node at index ${first}; ids must be unique.`,
        { nodeId: id },
      );
    } else {
      this.idIndex.set(id, info.index);
      info.owner = true;
    }
  }

  private nodeType(raw: Json, info: NodeInfo): void {
    const path = `${info.path}/type`;
    const label = () => (info.id !== undefined ? `Node ${q(info.id)}` : `Node at index ${info.index}`);
    if (!Object.hasOwn(raw, "type") || raw.type === undefined) {
      this.f.add(
        "BODY_REQUIRED_FIELD",
        path,
        `${label()} has no "type"; use one of ${NODE_TYPES.join(", ")}.`,
        where(info),
      );
      return;
    }
    const type = raw.type;
    if (typeof type !== "string") {
      this.f.add(
        "BODY_INVALID_TYPE",
        path,
        `${label()}: "type" must be a string, got ${describeValue(type)}.`,
        where(info),
      );
    } else if (!isNodeType(type)) {
      this.f.add(
        "NODE_TYPE_UNKNOWN",
        path,
        `${label()} has unknown type ${q(type)}; use one of ${NODE_TYPES.join(", ")}.`,
        where(info),
      );
    } else {
      info.type = type;
    }
  }

  private position(raw: Json, info: NodeInfo): void {
    const path = `${info.path}/position`;
    const pos = own(raw, "position");
    if (pos === undefined) {
      this.f.add(
        "NODE_POSITION_INVALID",
        path,
        `${nodeLabel(info)} has no "position"; give canvas coordinates {x, y}.`,
        where(info),
      );
      return;
    }
    if (!isRecord(pos)) {
      this.f.add(
        "NODE_POSITION_INVALID",
        path,
        `${nodeLabel(info)}: "position" must be an object {x, y}, got ${describeValue(pos)}.`,
        where(info),
      );
      return;
    }
    for (const axis of ["x", "y"] as const) {
      const v = own(pos, axis);
      if (typeof v !== "number" || !Number.isFinite(v)) {
        this.f.add(
          "NODE_POSITION_INVALID",
          ptr(path, axis),
          `${nodeLabel(info)}: "position.${axis}" must be a finite number, got ${describeValue(v)}.`,
          where(info),
        );
      }
    }
  }

  /**
   * One walk over every value in the config: over-long strings anywhere, and template syntax in the
   * keys whose widget renders templates. Iterative (deep input is fine) and cycle-safe (JS callers);
   * a pointer is only built for strings that need one.
   */
  private walkConfig(info: NodeInfo, configPath: string, templateKeys: ReadonlySet<string> | undefined): void {
    let seen: Set<object> | undefined;
    const stack: WalkItem[] = [];
    const config = info.config;
    for (const key of Object.keys(config)) {
      const value = config[key];
      const templates = templateKeys?.has(key) ?? false;
      // Top-level strings (the common case) are checked without going through the stack.
      if (typeof value === "string") this.walkString(info, value, configPath, key, templates);
      else if (typeof value === "object" && value !== null) stack.push({ value, parent: configPath, key, templates });
    }
    // Children are pushed in reverse so findings come out in document order.
    stack.reverse();
    for (let item = stack.pop(); item; item = stack.pop()) {
      const v = item.value;
      if (typeof v === "string") {
        this.walkString(info, v, item.parent, item.key, item.templates);
      } else if (typeof v === "object" && v !== null && !(seen ??= new Set()).has(v)) {
        seen.add(v);
        const p = ptr(item.parent, item.key);
        if (Array.isArray(v)) {
          for (let i = v.length - 1; i >= 0; i--)
            stack.push({ value: v[i], parent: p, key: i, templates: item.templates });
        } else {
          const keys = Object.keys(v);
          for (let i = keys.length - 1; i >= 0; i--) {
            const k = keys[i] as string;
            stack.push({ value: (v as Json)[k], parent: p, key: k, templates: item.templates });
          }
        }
      }
    }
  }

  private walkString(info: NodeInfo, v: string, parent: string, key: string | number, templates: boolean): void {
    if (v.length > MAX_STR) {
      this.f.add(
        "LIMIT_STRING_LENGTH",
        ptr(parent, key),
        `${nodeLabel(info)}: a string is ${v.length} characters long; at most ${MAX_STR} are allowed.`,
        where(info),
      );
    } else if (templates && v.indexOf("{{") >= 0) {
      this.templateString(info, v, parent, key);
    }
  }

  private config(info: NodeInfo, configPath: string): void {
    const type = info.type as NodeType;
    const config = info.config;
    const contract = getContract(type);

    for (const group of missingRequiredGroups(type, config)) {
      const keys = group.length === 1 ? `"${group[0]}"` : `one of ${group.map((k) => `"${k}"`).join(", ")}`;
      this.f.add(
        "NODE_CONFIG_MISSING_REQUIRED",
        configPath,
        `${nodeLabel(info)} is missing required config: ${keys} must be present and non-empty.`,
        where(info),
      );
    }

    const parsed = contract.configSchema.safeParse(config);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // Over-long strings are reported once, as LIMIT_STRING_LENGTH.
        if (issue.code === "too_big" && issue.origin === "string" && issue.maximum === MAX_STR) continue;
        const code: FindingCode =
          type === "start" && issue.path[0] === "outputs" ? "START_OUTPUT_INVALID" : "NODE_CONFIG_INVALID";
        const issuePath = issue.path.filter((k): k is string | number => typeof k !== "symbol");
        this.f.add(
          code,
          ptr(configPath, ...issuePath),
          `${nodeLabel(info)}: config "${issueFieldName(issuePath)}" ${describeIssue(issue, config)}.`,
          where(info),
        );
      }
    }

    const known = KNOWN_KEYS[type];
    for (const key of Object.keys(config)) {
      if (!known.has(key)) {
        const hint = known.size > 0 ? ` Known keys: ${[...known].join(", ")}.` : " This node type has no config keys.";
        this.f.add(
          "NODE_CONFIG_UNKNOWN_KEY",
          ptr(configPath, key),
          `${nodeLabel(info)}: config key ${q(key)} is not part of the ${type} contract and is ignored.${hint}`,
          where(info),
        );
      }
    }

    this.walkConfig(info, configPath, TEMPLATE_KEYS[type]);

    if (type === "start") this.startOutputs(info, configPath);
    else if (type === "http") this.httpUrl(info, configPath);
    else if (type === "condition") this.conditionExpression(info, configPath);
    else if (type === "memory_save") this.extractFrom(info, configPath);
  }

  private startOutputs(info: NodeInfo, configPath: string): void {
    const outputs = own(info.config, "outputs");
    const names = new Map<string, number>();
    if (Array.isArray(outputs)) {
      outputs.forEach((item: unknown, j) => {
        if (!isRecord(item)) return;
        const name = own(item, "name");
        const type = own(item, "type");
        if (typeof name !== "string" || !IDENTIFIER_PATTERN.test(name)) return; // reported by the schema
        const first = names.get(name);
        if (first !== undefined) {
          this.f.add(
            "START_OUTPUT_DUPLICATE",
            ptr(configPath, "outputs", j, "name"),
            `${nodeLabel(info)}: output ${q(name)} is declared twice (indexes ${first} and ${j}).`,
            where(info),
          );
        } else {
          names.set(name, j);
        }
        if (
          typeof type === "string" &&
          (START_OUTPUT_TYPES as readonly string[]).includes(type) &&
          Object.hasOwn(item, "default")
        ) {
          const value = item.default;
          if (!valueMatchesType(type as StartOutputType, value)) {
            this.f.add(
              "START_OUTPUT_DEFAULT_TYPE",
              ptr(configPath, "outputs", j, "default"),
              `${nodeLabel(info)}: the default of output ${q(name)} must be ${type === "integer" ? "an integer" : type === "array" || type === "object" ? `an ${type}` : `a ${type}`}, got ${describeValue(value)}.`,
              where(info),
            );
          }
        }
      });
    }
    const variables = own(info.config, "variables");
    if (isRecord(variables)) {
      for (const key of Object.keys(variables)) {
        if (names.has(key)) {
          this.f.add(
            "START_OUTPUT_DUPLICATE",
            ptr(configPath, "variables", key),
            `${nodeLabel(info)}: variable ${q(key)} has the same name as a declared output.`,
            where(info),
          );
        }
      }
    }
  }

  private httpUrl(info: NodeInfo, configPath: string): void {
    const url = own(info.config, "url");
    if (typeof url !== "string" || url.trim() === "" || url.length > MAX_STR) return;
    const path = ptr(configPath, "url");
    const u = url.trim();
    if (u.startsWith("/") && !u.startsWith("//")) {
      if (!this.baseUrlSet) {
        this.f.add(
          "HTTP_BASE_URL_UNSET",
          path,
          `${nodeLabel(info)}: url ${q(u)} is relative but WEBHOOK_BASE_URL is not set, so the request has no host to go to.`,
          where(info),
        );
      }
      return;
    }
    if (/^https?:\/\//i.test(u)) {
      // Templates stand in for text the runtime fills in; a placeholder keeps the URL parseable.
      const probe = u.replace(/\{\{[^}]*\}\}/g, "x");
      const rest = probe.slice(probe.indexOf("//") + 2);
      let ok = rest !== "" && !rest.startsWith("/");
      if (ok) {
        try {
          new URL(probe);
        } catch {
          ok = false;
        }
      }
      if (!ok)
        this.f.add(
          "HTTP_URL_INVALID",
          path,
          `${nodeLabel(info)}: url ${q(u)} is not a valid absolute URL.`,
          where(info),
        );
      return;
    }
    if (u.startsWith("{{")) return; // the whole base comes from a template: only known at run time
    this.f.add(
      "HTTP_URL_INVALID",
      path,
      `${nodeLabel(info)}: url ${q(u)} must be an absolute http(s) URL or a path starting with "/".`,
      where(info),
    );
  }

  // -------------------------------------------------------------------------------------------
  // References (collected now, checked once the graph is known)

  private templateString(info: NodeInfo, text: string, parent: string, key: string | number): void {
    const scan = extractTemplateRefs(text);
    for (const err of scan.errors)
      this.f.add("TEMPLATE_MALFORMED", ptr(parent, key), `${nodeLabel(info)}: ${err.message}`, where(info));
    // Resolved after all nodes are read: a template may name a node that comes later in the array.
    for (const ref of scan.refs) {
      this.pending.push({
        kind: "template",
        from: info.index,
        name: ref.nodeId,
        field: ref.field,
        shown: ref.raw,
        parent,
        key,
        to: -1,
      });
    }
  }

  private conditionExpression(info: NodeInfo, configPath: string): void {
    const expression = own(info.config, "expression");
    if (typeof expression !== "string" || expression.trim() === "" || expression.length > MAX_STR) return;
    const parsed = parseExpression(expression);
    if (!parsed.ok) {
      const at = parsed.errorOffset !== undefined ? ` at character ${parsed.errorOffset}` : "";
      this.f.add(
        "CONDITION_EXPRESSION_INVALID",
        ptr(configPath, "expression"),
        `${nodeLabel(info)}: the expression is not valid CEL${at}: ${parsed.error ?? "parse error"}.`,
        where(info),
      );
      return;
    }
    for (const ident of parsed.identifiers) {
      this.pending.push({
        kind: "condition",
        from: info.index,
        name: ident.root,
        field: ident.field,
        shown: ident.root,
        parent: configPath,
        key: "expression",
        to: -1,
      });
    }
  }

  private extractFrom(info: NodeInfo, configPath: string): void {
    const value = own(info.config, "extractFrom");
    if (typeof value !== "string" || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(value)) return; // format: schema
    const [nodeId = "", field] = value.split(".");
    this.pending.push({
      kind: "extract",
      from: info.index,
      name: nodeId,
      field,
      shown: value,
      parent: configPath,
      key: "extractFrom",
      to: -1,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Edges

  private edges(edges: unknown[], nodesKnown: boolean): GraphEdge[] {
    const out: GraphEdge[] = [];
    const seen = new Set<number>();
    for (let k = 0; k < edges.length; k++) {
      const edge = this.edge(edges[k], k, nodesKnown, seen);
      if (edge) out.push(edge);
    }
    return out;
  }

  private edge(raw: unknown, k: number, nodesKnown: boolean, seen: Set<number>): GraphEdge | undefined {
    const path = ptr(this.prefix, "edges", k);
    const at = { edgeIndex: k };
    if (!isRecord(raw)) {
      this.f.add(
        "BODY_INVALID_TYPE",
        path,
        `Edge at index ${k} must be an object {source, target}, got ${describeValue(raw)}.`,
        at,
      );
      return undefined;
    }
    for (const key of EDGE_TEXT_KEYS) {
      const v = own(raw, key);
      if (v === undefined || v === null) continue;
      if (typeof v !== "string")
        this.f.add(
          "BODY_INVALID_TYPE",
          ptr(path, key),
          `Edge at index ${k}: "${key}" must be a string, got ${describeValue(v)}.`,
          at,
        );
      else if (v.length > MAX_STR)
        this.f.add(
          "LIMIT_STRING_LENGTH",
          ptr(path, key),
          `Edge at index ${k}: "${key}" is ${v.length} characters long; at most ${MAX_STR} are allowed.`,
          at,
        );
    }
    const source = this.endpoint(raw, "source", k, path, nodesKnown);
    const target = this.endpoint(raw, "target", k, path, nodesKnown);

    let branch: boolean | undefined;
    const cond = own(raw, "condition");
    let condOk = true;
    if (cond === true || cond === "true") branch = true;
    else if (cond === false || cond === "false") branch = false;
    else if (cond !== undefined && cond !== null) {
      condOk = false;
      this.f.add(
        "EDGE_CONDITION_INVALID",
        ptr(path, "condition"),
        `Edge at index ${k}: "condition" must be "true", "false" or a boolean, got ${typeof cond === "string" ? q(cond) : describeValue(cond)}.`,
        at,
      );
    }
    if (source === undefined || target === undefined) return undefined;

    const s = this.nodes[source] as NodeInfo;
    const t = this.nodes[target] as NodeInfo;
    if (branch !== undefined && s.type !== undefined && s.type !== "condition") {
      this.f.add(
        "EDGE_CONDITION_INVALID",
        ptr(path, "condition"),
        `Edge at index ${k} carries a condition, but its source ${nodeRef(s)} is not a condition node.`,
        { ...where(s), ...at },
      );
    }
    if (source === target) {
      this.f.add("EDGE_SELF_LOOP", path, `Edge at index ${k} connects ${nodeRef(s)} to itself.`, {
        ...where(s),
        ...at,
      });
      return undefined;
    }
    if (t.type === "start") {
      this.f.add(
        "START_HAS_INCOMING",
        path,
        `Edge at index ${k} points into the start node ${q(t.id ?? "")}; start nodes cannot have incoming edges.`,
        { ...where(t), ...at },
      );
    }
    if (s.type === "end") {
      this.f.add(
        "END_HAS_OUTGOING",
        path,
        `Edge at index ${k} leaves the end node ${q(s.id ?? "")}; it is never followed.`,
        { ...where(s), ...at },
      );
    }
    // Numeric key: (source, target, branch) packed; n <= maxNodes keeps it far below 2^53.
    const key = (source * (this.nodes.length + 1) + target) * 3 + (branch === undefined ? 0 : branch ? 1 : 2);
    if (seen.has(key)) {
      this.f.add(
        "EDGE_DUPLICATE",
        path,
        `Edge at index ${k} repeats an earlier edge from ${q(s.id ?? "")} to ${q(t.id ?? "")}; it is ignored.`,
        { ...where(s), ...at },
      );
      return undefined;
    }
    seen.add(key);
    return { index: k, source, target, branch, labelInvalid: !condOk, path };
  }

  private endpoint(
    raw: Json,
    key: "source" | "target",
    k: number,
    path: string,
    nodesKnown: boolean,
  ): number | undefined {
    const p = ptr(path, key);
    const at = { edgeIndex: k };
    if (!Object.hasOwn(raw, key) || raw[key] === undefined) {
      this.f.add("BODY_REQUIRED_FIELD", p, `Edge at index ${k} has no "${key}".`, at);
      return undefined;
    }
    const id = raw[key];
    if (typeof id !== "string") {
      this.f.add(
        "BODY_INVALID_TYPE",
        p,
        `Edge at index ${k}: "${key}" must be a node id string, got ${describeValue(id)}.`,
        at,
      );
      return undefined;
    }
    if (!nodesKnown) return undefined; // nodes are not an array: nothing to resolve against
    const index = this.idIndex.get(id);
    if (index === undefined) {
      this.f.add(
        key === "source" ? "EDGE_SOURCE_UNKNOWN" : "EDGE_TARGET_UNKNOWN",
        p,
        `Edge at index ${k}: ${key} ${q(id)} is not the id of any node.`,
        at,
      );
    }
    return index;
  }

  // -------------------------------------------------------------------------------------------
  // Graph

  private graph(edges: GraphEdge[]): void {
    const n = this.nodes.length;
    const g = buildDigraph(
      n,
      edges.map((e) => e.source),
      edges.map((e) => e.target),
    );
    const comps = stronglyConnectedComponents(g);

    // Cycles: one finding per strongly connected component with more than one node.
    const cycleEdge = new Map<number, GraphEdge>();
    for (const e of edges) {
      const c = comps.comp[e.source]!;
      if (c === comps.comp[e.target] && !cycleEdge.has(c)) cycleEdge.set(c, e);
    }
    if (cycleEdge.size > 0) {
      const members = new Map<number, string[]>();
      for (let v = 0; v < n; v++) {
        const c = comps.comp[v]!;
        if (!cycleEdge.has(c)) continue;
        const list = members.get(c) ?? [];
        if (list.length < 6) list.push(q(this.nodes[v]?.id ?? `#${v}`, 40));
        members.set(c, list);
      }
      for (const [c, e] of cycleEdge) {
        const size = comps.size[c]!;
        const names = (members.get(c) ?? []).slice(0, 5).join(", ") + (size > 5 ? ` and ${size - 5} more` : "");
        const first = this.nodes[e.source] as NodeInfo;
        this.f.add(
          "GRAPH_CYCLE",
          e.path,
          `Nodes ${names} form a cycle (edge at index ${e.index} is part of it); workflows must be acyclic.`,
          { ...where(first), edgeIndex: e.index },
        );
      }
    }

    const graphNodes = this.nodes.filter((info) => info.owner);
    const starts = graphNodes.filter((info) => info.type === "start").map((info) => info.index);
    const ends = graphNodes.filter((info) => info.type === "end").map((info) => info.index);

    // Without a start every node would be unreachable; WORKFLOW_NO_START says it once.
    const fromStart = starts.length > 0 ? reachable(g, starts, "forward") : undefined;
    if (fromStart) {
      for (const info of graphNodes) {
        if (!fromStart[info.index]) {
          this.f.add(
            "NODE_UNREACHABLE",
            info.path,
            `${nodeLabel(info)} cannot be reached from any start node; connect it or remove it.`,
            where(info),
          );
        }
      }
    }
    if (ends.length > 0) {
      const toEnd = reachable(g, ends, "backward");
      for (const s of starts) {
        if (!toEnd[s]) {
          const info = this.nodes[s] as NodeInfo;
          this.f.add(
            "END_UNREACHABLE",
            info.path,
            `No end node can be reached from the start node ${q(info.id ?? "")}.`,
            where(info),
          );
        }
      }
    }
    for (const info of graphNodes) {
      if (info.type !== "end" && outDegree(g, info.index) === 0) {
        this.f.add(
          "NODE_DEAD_END",
          info.path,
          `${nodeLabel(info)} has no outgoing edge, so a run stops there without reaching an end node.`,
          where(info),
        );
      }
    }

    this.conditionBranches(edges);
    this.references(g, comps, fromStart);
  }

  private conditionBranches(edges: GraphEdge[]): void {
    const outgoing = new Map<number, GraphEdge[]>();
    for (const e of edges) {
      if (this.nodes[e.source]?.type !== "condition") continue;
      const list = outgoing.get(e.source) ?? [];
      list.push(e);
      outgoing.set(e.source, list);
    }
    for (const info of this.nodes) {
      if (info.type !== "condition" || !info.owner) continue;
      const out = outgoing.get(info.index) ?? [];
      const configPath = ptr(info.path, "config");
      const targetOf = (key: "trueTarget" | "falseTarget"): string | undefined => {
        const v = own(info.config, key);
        if (typeof v !== "string" || v === "") return undefined;
        if (!out.some((e) => this.nodes[e.target]?.id === v)) {
          const why = this.idIndex.has(v)
            ? "is not the target of any of its outgoing edges"
            : "is not the id of any node";
          this.f.add(
            "CONDITION_TARGET_INVALID",
            ptr(configPath, key),
            `${nodeLabel(info)}: ${key} ${q(v)} ${why}; add an edge to it or fix the id.`,
            where(info),
          );
          return undefined;
        }
        return v;
      };
      const trueTarget = targetOf("trueTarget");
      const falseTarget = targetOf("falseTarget");
      let hasTrue = trueTarget !== undefined;
      let hasFalse = falseTarget !== undefined;
      for (const e of out) {
        const targetId = this.nodes[e.target]?.id;
        if (e.branch === true) hasTrue = true;
        if (e.branch === false) hasFalse = true;
        const named = targetId !== undefined && (targetId === trueTarget || targetId === falseTarget);
        if (e.branch === undefined && !named && !e.labelInvalid) {
          this.f.add(
            "EDGE_CONDITION_MISSING",
            e.path,
            `Edge at index ${e.index} leaves the condition ${nodeRef(info)} without a "condition" label, and trueTarget/falseTarget do not name its target; set "condition": "true" or "false".`,
            { ...where(info), edgeIndex: e.index },
          );
        } else if (
          e.branch !== undefined &&
          targetId !== undefined &&
          targetId === (e.branch ? falseTarget : trueTarget) &&
          targetId !== (e.branch ? trueTarget : falseTarget)
        ) {
          this.f.add(
            "EDGE_CONDITION_INVALID",
            ptr(e.path, "condition"),
            `Edge at index ${e.index} is labelled ${String(e.branch)}, but ${nodeRef(info)} names its target as ${e.branch ? "falseTarget" : "trueTarget"}.`,
            { ...where(info), edgeIndex: e.index },
          );
        }
      }
      if (!hasTrue || !hasFalse) {
        const missing = [!hasTrue ? "true" : "", !hasFalse ? "false" : ""].filter(Boolean).join(" and ");
        this.f.add(
          "CONDITION_BRANCH_MISSING",
          configPath,
          `${nodeLabel(info)} has no ${missing} branch; set trueTarget/falseTarget or label its outgoing edges with "condition".`,
          where(info),
        );
      }
    }
  }

  private references(
    g: ReturnType<typeof buildDigraph>,
    comps: ReturnType<typeof stronglyConnectedComponents>,
    fromStart: Uint8Array | undefined,
  ): void {
    if (this.pending.length === 0) return;
    // Resolve names now that every id is known, and report the unknown ones.
    const resolved: PendingRef[] = [];
    for (const ref of this.pending) {
      const from = this.nodes[ref.from] as NodeInfo;
      const to = this.idIndex.get(ref.name);
      if (to === undefined) {
        if (ref.kind === "condition") {
          this.f.add(
            "CONDITION_UNKNOWN_VARIABLE",
            ptr(ref.parent, ref.key),
            `${nodeLabel(from)}: the expression uses ${q(ref.name)}, which is not the id of any node.`,
            where(from),
          );
        } else {
          const what = ref.kind === "template" ? `template ${ref.shown}` : `extractFrom ${q(ref.shown)}`;
          this.f.add(
            "TEMPLATE_UNKNOWN_NODE",
            ptr(ref.parent, ref.key),
            `${nodeLabel(from)}: ${what} refers to node ${q(ref.name)}, which does not exist.`,
            where(from),
          );
        }
        continue;
      }
      ref.to = to;
      resolved.push(ref);
    }
    if (resolved.length === 0) return;
    const upstream = ancestorQueries(
      g,
      resolved.map((r) => r.to),
      resolved.map((r) => r.from),
      comps,
    );
    const what = (ref: PendingRef) =>
      ref.kind === "template"
        ? `template ${ref.shown}`
        : ref.kind === "extract"
          ? `extractFrom ${q(ref.shown)}`
          : "the expression";
    resolved.forEach((ref, i) => {
      const from = this.nodes[ref.from] as NodeInfo;
      const to = this.nodes[ref.to] as NodeInfo;
      // "Upstream" is not judged for a duplicate-id node (outside the graph) nor for an unreachable
      // one: NODE_UNREACHABLE already points at the broken wiring, which would cascade here.
      const judged = from.owner && (fromStart === undefined || fromStart[ref.from] === 1);
      if (judged && (ref.from === ref.to || !upstream[i])) {
        const code: FindingCode = ref.kind === "condition" ? "CONDITION_NOT_UPSTREAM" : "TEMPLATE_NOT_UPSTREAM";
        const why =
          ref.from === ref.to ? "the node itself" : "not upstream of it (no path of edges leads from it to this node)";
        this.f.add(
          code,
          ptr(ref.parent, ref.key),
          `${nodeLabel(from)}: ${what(ref)} uses node ${q(to.id ?? "")}, which is ${why}.`,
          where(from),
        );
      }
      const outputs = outputsOf(to);
      if (ref.field !== undefined && outputs && !outputs.has(ref.field)) {
        const code: FindingCode = ref.kind === "condition" ? "CONDITION_UNKNOWN_FIELD" : "TEMPLATE_UNKNOWN_FIELD";
        const list = outputs.size > 0 ? [...outputs].join(", ") : "none";
        this.f.add(
          code,
          ptr(ref.parent, ref.key),
          `${nodeLabel(from)}: ${what(ref)} uses field ${q(ref.field)} of node ${q(to.id ?? "")}, which outputs only: ${list}.`,
          where(from),
        );
      }
    });
  }
}

interface GraphEdge {
  index: number;
  source: number;
  target: number;
  branch: boolean | undefined;
  /** The edge had a `condition` that is not a branch label (already reported). */
  labelInvalid: boolean;
  path: string;
}

// ---------------------------------------------------------------------------------------------
// Entry points

/** Validates a workflow object. Paths are prefixed with `pathPrefix` (e.g. "/workflow"). */
export function validateWorkflow(workflow: unknown, opts: ValidateOptions = {}): ValidationResult {
  return new Validator(opts).run(workflow);
}

/**
 * Validates a whole request body `{ "workflow": {...}, "kind"?: "agent" | "judge" }`; every finding's path is a JSON
 * pointer into that body (e.g. "/workflow/nodes/1/config"). `kind: "judge"` adds the judge contract's findings
 * (judge.ts); an unknown kind is AGENT_KIND_UNKNOWN at /kind.
 */
export function validateWorkflowRequest(
  body: unknown,
  opts: Omit<ValidateOptions, "pathPrefix"> = {},
): ValidationResult {
  const f = new Findings();
  try {
    if (!isRecord(body)) {
      f.add(
        "BODY_INVALID_TYPE",
        "",
        `The request body must be a JSON object {"workflow": {...}}, got ${describeValue(body)}.`,
      );
      return f.result("");
    }
    if (!Object.hasOwn(body, "workflow") || body.workflow === undefined) {
      f.add(
        "BODY_REQUIRED_FIELD",
        "/workflow",
        'The request body has no "workflow"; send {"workflow": {"nodes": [...], "edges": [...]}}.',
      );
      return f.result("");
    }
    const result = validateWorkflow(body.workflow, { ...opts, pathPrefix: "/workflow" });
    const kind = own(body, "kind");
    if (kind === undefined || kind === "agent") return result;
    const extra: Finding[] =
      kind === "judge"
        ? judgeContractFindings(body.workflow, "/workflow")
        : [
            {
              code: "AGENT_KIND_UNKNOWN",
              severity: "error",
              message: `The request body's "kind" must be "agent" or "judge", got ${typeof kind === "string" ? q(kind) : describeValue(kind)}.`,
              path: "/kind",
            },
          ];
    const errors = [...result.errors, ...extra.filter((x) => x.severity === "error")];
    const warnings = [...result.warnings, ...extra.filter((x) => x.severity === "warning")];
    return { valid: errors.length === 0, errors, warnings };
  } catch (err) {
    f.add(
      "VALIDATOR_INTERNAL_ERROR",
      "",
      `The request could not be checked: ${err instanceof Error ? err.message : String(err)}.`,
    );
    return f.result("");
  }
}
