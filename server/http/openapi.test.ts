import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { MAX_DB_INT } from "../core/params";
import { STORABLE_TEXT_PATTERN } from "../core/text";
import { EVAL_OPERATIONS } from "../eval/operations";
import { ENDPOINTS } from "./endpoints";
import type { RestEndpoint } from "./rest";
import { openapiDocument } from "./openapi";

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; schema?: Schema; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  "x-permission"?: string;
};
type Doc = {
  servers?: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Schema> };
};

const doc = openapiDocument(ENDPOINTS) as unknown as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    path,
    method: method.toUpperCase(),
    op,
    name: `${method.toUpperCase()} ${path}`,
  })),
);

/** Every schema node below `schema` (following $refs into components once each), with its JSON pointer-ish location. */
function* walk(schema: unknown, at: string, seen = new Set<string>()): Generator<{ node: Schema; at: string }> {
  if (!schema || typeof schema !== "object") return;
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) yield* walk(s, `${at}/${i}`, seen);
    return;
  }
  const node = schema as Schema;
  if (typeof node.$ref === "string") {
    const name = /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1];
    if (!name)
      throw new Error(`${at}: a $ref outside components/schemas (${node.$ref}) cannot be resolved in the document`);
    if (seen.has(name)) return;
    seen.add(name);
    yield* walk(doc.components.schemas?.[name], `${at}->${name}`, seen);
  }
  yield { node, at };
  for (const [k, v] of Object.entries(node)) {
    if (k === "default" || k === "examples" || k === "example" || k === "const" || k === "enum") continue;
    if (v && typeof v === "object") yield* walk(v, `${at}/${k}`, seen);
  }
}

function inputSchemas(op: Operation): Array<{ schema: unknown; at: string }> {
  return [
    ...(op.parameters ?? []).map((p) => ({ schema: p.schema, at: `${p.in}:${p.name}` })),
    ...Object.entries(op.requestBody?.content ?? {}).map(([type, c]) => ({ schema: c.schema, at: `body(${type})` })),
  ];
}

describe("every list's cursor is one rule (issue 28, item 8)", () => {
  it("each `cursor` query parameter is an optional string of 1 to 64 characters (server/core/params.ts Cursor)", () => {
    const cursors = operations.flatMap(({ name, op }) =>
      (op.parameters ?? []).filter((p) => p.in === "query" && p.name === "cursor").map((p) => ({ name, p })),
    );
    expect(cursors.length).toBeGreaterThanOrEqual(9);
    for (const { name, p } of cursors) {
      expect(p.required ?? false, name).toBe(false);
      expect(p.schema, name).toMatchObject({ type: "string", minLength: 1, maxLength: 64 });
    }
    // the leads' cursor narrows it to its form: an instant from 1970 to 9999, then the trace id
    const leads = cursors.find((c) => c.name === "GET /api/eval/online/leads")!;
    const pattern = new RegExp(String(leads.p.schema?.pattern));
    expect(pattern.test("2026-01-10T00:00:00.000Z_cm1")).toBe(true);
    for (const bad of ["0000-01-01T00:00:00.000Z_x", "-271821-04-20T00:00:00.000Z_x", "2026-01-10T00:00:00.000Z_"])
      expect(pattern.test(bad), bad).toBe(false);
  });
});

describe("every integer a REST input takes is bounded by the database's 32-bit integer", () => {
  it("walks the documented input schemas of every operation and finds no integer without a bound within MAX_DB_INT", () => {
    const unbounded: string[] = [];
    let integers = 0;
    for (const { op, name } of operations) {
      for (const input of inputSchemas(op)) {
        for (const { node, at } of walk(input.schema, input.at)) {
          const types = Array.isArray(node.type) ? node.type : [node.type];
          if (!types.includes("integer")) continue;
          integers++;
          const max =
            typeof node.maximum === "number"
              ? node.maximum
              : typeof node.exclusiveMaximum === "number"
                ? node.exclusiveMaximum - 1
                : Infinity;
          const min =
            typeof node.minimum === "number"
              ? node.minimum
              : typeof node.exclusiveMinimum === "number"
                ? node.exclusiveMinimum + 1
                : -Infinity;
          if (max > MAX_DB_INT || min < -MAX_DB_INT - 1) unbounded.push(`${name} ${at}: integer ${min}..${max}`);
        }
      }
    }
    expect(integers).toBeGreaterThan(20); // the walk reaches query, path and body integers (and $refs)
    expect(unbounded).toEqual([]);
  });
});

describe("OpenAPI lint", () => {
  it("has servers, unique operationIds, a description per operation and valid JSON Schemas", () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter((o) => !o.op.description?.trim() || !o.op.summary?.trim()).map((o) => o.name)).toEqual([]);
    // every schema compiles as JSON Schema 2020-12 (OpenAPI 3.1's dialect), with the document's components
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(doc as object, "openapi");
    const broken: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas ?? {})) {
      try {
        ajv.compile({ $ref: `openapi#/components/schemas/${name.replaceAll("~", "~0").replaceAll("/", "~1")}` });
      } catch (e) {
        broken.push(`${name}: ${(e as Error).message}`);
      }
      expect(schema).toBeTypeOf("object");
    }
    expect(broken).toEqual([]);
  });

  it("every operation documents a 2xx, 400 when it takes input, 401/403 when protected, and each response has a description", () => {
    const problems: string[] = [];
    for (const { op, name, path } of operations) {
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => /^2\d\d$/.test(s))) problems.push(`${name}: no 2xx response`);
      const hasInput = !!op.requestBody || (op.parameters ?? []).length > 0;
      if (hasInput && !statuses.includes("400")) problems.push(`${name}: takes input but documents no 400`);
      if ((op.security ?? []).length > 0 && !statuses.includes("401"))
        problems.push(`${name}: protected but documents no 401`);
      if (op["x-permission"] && !statuses.includes("403"))
        problems.push(`${name}: needs ${op["x-permission"]} but documents no 403`);
      for (const [status, r] of Object.entries(op.responses ?? {}))
        if (!r.description?.trim()) problems.push(`${name} ${status}: no description`);
      // path parameters: every {name} in the template is declared (required) and nothing else is
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((p) => p.in === "path")
        .map((p) => p.name)
        .sort();
      if (JSON.stringify(inTemplate) !== JSON.stringify(declared))
        problems.push(`${name}: path parameters ${declared.join(",")} do not match the template`);
      if ((op.parameters ?? []).some((p) => p.in === "path" && p.required !== true))
        problems.push(`${name}: a path parameter is not required`);
    }
    expect(operations.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

describe("error details are typed in the document where the code table gives them a shape", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, "openapi");
  const responseSchema = (path: string, method: string, status: number) =>
    ajv.compile({
      $ref: `openapi#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}/responses/${status}/content/application~1json/schema`,
    });
  const error = (code: string, details: unknown[]) => ({ error: { code, message: "m", details } });

  it("an import's 400 accepts IMPORT_INVALID only with EvalRowError details, and any other code in the common shape", () => {
    const check = responseSchema("/api/eval/sets/{id}/versions/{version}/import", "post", 400);
    expect(check(error("IMPORT_INVALID", [{ row: 2, field: "question", message: "question is required" }]))).toBe(true);
    expect(check(error("IMPORT_INVALID", [{ path: "/question", message: "x", code: "too_small" }]))).toBe(false);
    expect(check(error("IMPORT_INVALID", ["row 2 is bad"]))).toBe(false);
    expect(
      check(error("REQUEST_INVALID", [{ path: "/format", message: "Invalid option", code: "invalid_value" }])),
    ).toBe(true);
    expect(check(error("REQUEST_INVALID", [{ row: 1 }]))).toBe(false);
    expect(check(error("INVALID_JSON", []))).toBe(true);
    expect(check(error("SOME_OTHER_CODE", [{ anything: true }]))).toBe(true);
  });

  it("validation 400s carry Finding details; run failures RunError details; limits their own", () => {
    const validate = responseSchema("/api/builder/validate", "post", 400);
    const finding = { code: "NO_START_NODE", severity: "error", message: "m", path: "/workflow/nodes" };
    expect(validate({ valid: false, errors: [finding], warnings: [], ...error("WORKFLOW_INVALID", [finding]) })).toBe(
      true,
    );
    expect(validate({ valid: false, errors: [], warnings: [], ...error("WORKFLOW_INVALID", [{ nope: 1 }]) })).toBe(
      false,
    );
    const chat502 = responseSchema("/api/agents/{id}/chat", "post", 502);
    expect(
      chat502({ traceId: "t", ...error("RUN_FAILED", [{ code: "LLM_UNAVAILABLE", message: "m", nodeId: "llm_1" }]) }),
    ).toBe(true);
    expect(chat502({ traceId: "t", ...error("RUN_FAILED", [{ nodeId: 1 }]) })).toBe(false);
    const upload413 = responseSchema("/api/eval/sets/{id}/versions/{version}/import", "post", 413);
    expect(upload413(error("EVAL_LIMIT_EXCEEDED", [{ limit: "maxImportBytes", value: 5 }]))).toBe(true);
    expect(upload413(error("PAYLOAD_TOO_LARGE", [{ limitBytes: 5 }]))).toBe(true);
    expect(upload413(error("PAYLOAD_TOO_LARGE", [{ limit: 5 }]))).toBe(false);
  });
});

/**
 * Rules the server enforces are said by the document too (JSON Schema where it can, the description where it cannot),
 * so a client or fuzzer that follows the document is never refused for a rule it could not see.
 */
describe("the rules the server enforces are in the documented schemas", () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, "openapi");
  const component = (name: string) => ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
  const bodyOf = (path: string, method: string) =>
    ajv.compile(doc.paths[path]![method]!.requestBody!.content!["application/json"]!.schema as object);

  it("every input string and object key refuses a NUL and an unpaired surrogate (free values say so)", () => {
    const problems: string[] = [];
    let strings = 0;
    for (const { op, name } of operations) {
      for (const input of inputSchemas(op)) {
        for (const { node, at } of walk(input.schema, input.at)) {
          if (node.type === "string" && node.enum === undefined && node.const === undefined && node.format !== "date") {
            strings++;
            const patterns = [node.pattern, ...((node.allOf as Schema[] | undefined) ?? []).map((s) => s.pattern)];
            if (!patterns.includes(STORABLE_TEXT_PATTERN)) problems.push(`${name} ${at}: string without the rule`);
          }
          if (node.type === "object" && (node.propertyNames as Schema | undefined)?.pattern !== STORABLE_TEXT_PATTERN)
            problems.push(`${name} ${at}: object keys without the rule`);
        }
      }
    }
    expect(strings).toBeGreaterThan(100);
    expect(problems).toEqual([]);
    const chat = component("ChatRequest");
    expect(chat({ message: "hello 😀" })).toBe(true);
    expect(chat({ message: "a\u0000b" })).toBe(false);
    expect(chat({ message: "x\ud800" })).toBe(false);
    expect(chat({ input: { "k\u0000": 1 } })).toBe(false);
    const free = (doc.components.schemas!.ChatRequest!.properties as Record<string, Schema>).input!
      .additionalProperties as Schema;
    expect(free.description).toMatch(/NUL.*unpaired surrogate.*100 levels/);
  });

  it("days before 1970 are refused", () => {
    const usage = doc.paths["/api/eval/usage"]!.get!.parameters!.find((p) => p.name === "from")!;
    const day = ajv.compile(usage.schema as object);
    expect([day("1970-01-01"), day("2026-02-28"), day("1969-12-31"), day("0000-01-01"), day("2026-02-30")]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("regex flags may not repeat; a chat needs message or input; a shadow a candidate version or workflow", () => {
    const assertion = component("EvalAssertion");
    expect(assertion({ type: "regex", value: "a+", flags: "im" })).toBe(true);
    expect(assertion({ type: "regex", value: "a+", flags: "ii" })).toBe(false);
    const chat = component("ChatRequest");
    expect([chat({ message: "hi" }), chat({ input: {} }), chat({}), chat({ sessionId: "s" })]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const shadow = component("ShadowConfigInput");
    const refs = { liveRef: "{{a.result.x}}", candidateRef: "{{b.result.x}}" };
    expect(shadow({ ...refs, candidateVersion: 2 })).toBe(true);
    expect(shadow(refs)).toBe(false);
  });

  it("a fail verdict needs a basis and an attribution", () => {
    const verdict = component("EvalVerdictInput");
    expect(verdict({ verdict: "pass" })).toBe(true);
    expect(verdict({ verdict: "fail", basis: "misses the dish", attribution: "generation" })).toBe(true);
    expect(verdict({ verdict: "fail", attribution: "generation" })).toBe(false);
    expect(verdict({ verdict: "fail", basis: "   ", attribution: "generation" })).toBe(false);
    expect(verdict({ verdict: "fail", basis: "why" })).toBe(false);
    expect(verdict({ verdict: "fail", basis: "why", attribution: "nobody" })).toBe(false);
  });

  it("a workflow has a start and an end node: an empty one breaks the documented schema", () => {
    const provision = bodyOf("/api/builder/agents", "post");
    const node = (id: string, type: string) => ({ id, type, position: { x: 0, y: 0 } });
    const edges = [{ source: "s", target: "e" }];
    expect(provision({ name: "a", workflow: { nodes: [node("s", "start"), node("e", "end")], edges } })).toBe(true);
    expect(provision({ name: "a", workflow: { nodes: [], edges: [] } })).toBe(false);
    expect(provision({ name: "a", workflow: { nodes: [node("s", "start")], edges: [] } })).toBe(false);
  });
});

describe("/docs carries the rules each operation declares (server/eval/behaviour.md points here)", () => {
  const byId = new Map(operations.map((o) => [o.op.operationId, o]));
  const derived = ENDPOINTS.filter((e): e is RestEndpoint => "operation" in e);

  it("every REST endpoint derived from a declaration opens its description with the declaration's description", () => {
    let described = 0;
    for (const e of derived) {
      if (!e.operation.description) continue;
      described++;
      expect(byId.get(e.operationId)?.op.description?.startsWith(e.operation.description), e.operationId).toBe(true);
    }
    expect(described).toBeGreaterThanOrEqual(EVAL_OPERATIONS.filter((o) => o.description).length);
  });

  // the reports' operations (server/eval/reports) keep their rules in their REST descriptions and behaviour.md for now
  const notMovedYet = ["adminPutModelPrices"];
  it("every evaluation operation that changes something declares its rules", () => {
    const missing = EVAL_OPERATIONS.filter(
      (o) => o.kind === "mutation" && !o.description && !notMovedYet.includes(o.id),
    );
    expect(missing.map((o) => o.id)).toEqual([]);
  });

  // One rule of each kind behaviour.md used to state, as /docs now shows it
  const rules: Array<[string, string]> = [
    ["evalFreezeVersion", "409 SET_VERSION_INCOMPLETE"],
    ["evalFreezeVersion", "the database's triggers refuse"],
    ["evalImportSamples", "RFC 4180"],
    ["evalAddSample", "preset turns (any role) are injected as history"],
    ["evalCreateRun", "Crockford base32"],
    ["evalStartRun", "`Idempotency-Key`"],
    ["evalStartRun", "at most its `concurrency` items at once across all instances"],
    ["evalCancelRun", "other instances within a poll interval"],
    ["evalCloseAnswering", "409 RUN_MODE_MISMATCH"],
    ["evalResuggest", "fail when a blocking flag fired"],
    ["evalSetVerdict", "400 VERDICT_BASIS_REQUIRED"],
    ["evalSetVerdict", "409 VERDICT_CONFLICT"],
    ["evalUndoVerdict", "409 VERDICT_NOT_UNDOABLE"],
    ["evalAdoptSuggestions", "no_query -> retrieval"],
    ["evalListQueue", "`counts: null`"],
    ["evalCreateBadCase", "never a 500"],
    ["evalUpdateBadCase", "409 BAD_CASE_NOT_VERIFIED"],
    ["evalRunGate", "a regression_pool run never passes"],
    ["evalCompareRuns", "McNemar"],
    ["evalAddToPool", "409 TRACE_NOT_ONLINE"],
    ["evalConfirmSample", "Confirming is a property of the sample's trace in the pool"],
    ["evalLoopBoard", "the cards stop at 5,000 samples"],
    ["evalPutShadow", "400 WORKFLOW_INVALID"],
    ["evalReplayShadow", "cache hits included"],
    ["evalPublishShadowCandidate", "one transaction"],
  ];
  it.each(rules)("%s says: %s", (id, rule) => {
    expect(byId.get(id)?.op.description ?? "").toContain(rule);
  });
});
