import { z, type ZodType } from "zod";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AnyOperation } from "../auth/operation";

/**
 * REST and tRPC are two faces of one operation: for every REST endpoint with a tRPC twin, the same full input (every
 * optional field present, generated from the REST schemas) must reach the service with the same arguments through
 * both faces. A face that copies fields by hand and forgets one, renames a parameter, or drops the query fails here.
 * The services are replaced by recorders; nothing else is mocked.
 */
const recorded: Array<{ fn: string; args: unknown[] }> = [];
const RESULT = {
  created: true,
  valid: true,
  errors: [],
  warnings: [],
  body: "",
  contentType: "text/plain",
  filename: "f.txt",
  items: [],
};

function recorders<T extends Record<string, unknown>>(real: T, prefix: string): T {
  const out: Record<string, unknown> = { ...real };
  for (const [name, value] of Object.entries(real)) {
    if (
      typeof value === "function" &&
      /^[a-z]/.test(name) &&
      !/^(evalVocabulary|nodeTypesSummary|requireRecipe|getRecipe|isNodeType)$/.test(name)
    ) {
      out[name] = async (...args: unknown[]) => {
        recorded.push({ fn: `${prefix}.${name}`, args });
        return RESULT;
      };
    }
  }
  return out as T;
}

vi.mock("../eval", async (orig) => recorders(await orig<Record<string, unknown>>(), "eval"));
vi.mock("../agents/service", async (orig) => recorders(await orig<Record<string, unknown>>(), "agents"));
vi.mock("../runtime/service", async (orig) => recorders(await orig<Record<string, unknown>>(), "runtime"));
vi.mock("../runtime/traces", async (orig) => recorders(await orig<Record<string, unknown>>(), "traces"));
vi.mock("../runtime/validate-code", async (orig) => recorders(await orig<Record<string, unknown>>(), "validate"));
vi.mock("../auth/admin-tokens", async (orig) => recorders(await orig<Record<string, unknown>>(), "auth"));
vi.mock("../webhooks/service", async (orig) => recorders(await orig<Record<string, unknown>>(), "webhooks"));

const { ENDPOINTS } = await import("../http/endpoints");
const { appRouter } = await import("./root");

const evalOperationExports = await import("../eval/operations");
const runtimeOperationExports = await import("../runtime/operations");
const { EVAL_OPERATIONS } = evalOperationExports;
const { RUNTIME_OPERATIONS } = runtimeOperationExports;
const adminOperationExports = await import("../auth/operations");
const { ADMIN_OPERATIONS } = adminOperationExports;
const builderOperationExports = await import("../agents/operations");
const { BUILDER_OPERATIONS } = builderOperationExports;
const webhookOperationExports = await import("../webhooks/operations");
const { WEBHOOK_OPERATIONS } = webhookOperationExports;

/** Every operation declared once (server/auth/operation.ts); its faces are derived from the declaration. */
const OPERATIONS: AnyOperation[] = [
  ...EVAL_OPERATIONS,
  ...RUNTIME_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...BUILDER_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
];

const operationOf = (e: (typeof ENDPOINTS)[number]): AnyOperation | undefined =>
  (e as { operation?: AnyOperation }).operation;

/** REST operationId -> the tRPC procedure that is its twin, from the declarations (nothing is kept by hand). */
const TWINS: Record<string, string> = {
  ...Object.fromEntries(
    ENDPOINTS.flatMap((e) => {
      const op = operationOf(e);
      return op?.trpc ? [[e.operationId, op.trpc]] : [];
    }),
  ),
};
/**
 * REST-only: no browser page needs them through tRPC (metrics: Prometheus scrapes it; adminBackup: a file for
 * `npm run db:backup` or an operator's curl).
 */
const REST_ONLY = new Set(["health", "healthReady", "openapi", "mcp", "metrics", "adminBackup"]);

// ---------------------------------------------------------------- a full instance of a schema

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

const STRING_CANDIDATES = [
  "value-1",
  "k1",
  "$.items[0].name",
  "i",
  "2026-01-02",
  "{{start.query}}",
  "2026-01-02T00:00:00.000Z_t1",
  "https://hooks.example.com/flowbench",
];

/** Every property present, one item per array, the first alternative of a union: a valid value that uses every field. */
function full(s: JsonSchema, defs: Record<string, JsonSchema> = s.$defs ?? {}): unknown {
  if (s.$ref) return full(defs[s.$ref.replace("#/$defs/", "")] ?? {}, defs);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  // (an object's own anyOf, e.g. "message or input", only names required properties: every property is present here)
  const alternatives = s.properties ? undefined : (s.anyOf ?? s.oneOf);
  if (alternatives) return full(alternatives.find((a) => a.type !== "null") ?? alternatives[0]!, defs);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object":
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, full(v, defs)]));
    case "array":
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => full(s.items ?? {}, defs));
    case "string": {
      if (s.format === "date") return "2026-01-02";
      const re = s.pattern ? new RegExp(s.pattern) : null;
      return (
        STRING_CANDIDATES.find((c) => (!re || re.test(c)) && c.length >= (s.minLength ?? 0)) ??
        "x".repeat(Math.max(1, s.minLength ?? 1))
      );
    }
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1);
    case "boolean":
      return true;
    default:
      return { any: "value" }; // z.unknown()
  }
}

function fullInput(schema: ZodType | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  return full(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema) as Record<string, unknown>;
}

/** Path and query parameters travel as text in REST. */
const asText = (o: Record<string, unknown> | undefined) =>
  o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)])) : undefined;

function normalise(calls: typeof recorded) {
  return JSON.parse(
    JSON.stringify(calls, (_k, v) =>
      v instanceof AbortSignal ? "<signal>" : v === DB ? "<db>" : v === PRINCIPAL ? "<principal>" : v,
    ),
  );
}

const DB = { fake: "db" };
const PRINCIPAL = { kind: "token", tokenId: "t1", userId: "u1", email: "a@example.com", role: "admin" } as const;

type Callable = (input?: unknown) => Promise<unknown>;
function procedureAt(caller: unknown, dotted: string): Callable {
  return dotted.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], caller) as Callable;
}

describe("REST and tRPC pass the same whole input to the same service", () => {
  beforeEach(() => {
    recorded.length = 0;
  });

  it("every declared operation reaches the faces it claims, and only those", () => {
    const ids = OPERATIONS.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    const trpcPaths = OPERATIONS.flatMap((op) => (op.trpc ? [op.trpc] : []));
    expect(new Set(trpcPaths).size).toBe(trpcPaths.length);
    const caller = appRouter.createCaller({ principal: PRINCIPAL, db: DB } as never);
    for (const op of OPERATIONS) {
      const endpoints = ENDPOINTS.filter((e) => operationOf(e) === op);
      // a REST route unless the declaration says it has none; derived, so it carries the declaration's id and rules
      expect(endpoints.length, op.id).toBe(op.rest === false ? 0 : 1);
      for (const e of endpoints) {
        expect(e.operationId).toBe(op.id);
        expect(e.permission).toBe(op.permission);
        expect([e.params, e.query, e.body]).toEqual([op.params, op.query, op.body]);
        expect(e.method === "GET", `${op.id}: a GET is a query, anything else a mutation`).toBe(op.kind === "query");
      }
      if (op.trpc) {
        // the procedure at the declared path is the declaration's (its kind; permission and input: the test below)
        expect(typeof procedureAt(caller, op.trpc), op.trpc).toBe("function");
        const def = (procedureAt(appRouter as unknown, op.trpc) as unknown as { _def: { type: string } })._def;
        expect(def.type, op.trpc).toBe(op.kind);
      }
    }
    // every export of the domain's operation modules is listed, under its own id
    for (const [name, value] of [
      ...Object.entries(evalOperationExports),
      ...Object.entries(runtimeOperationExports),
      ...Object.entries(adminOperationExports),
      ...Object.entries(builderOperationExports),
      ...Object.entries(webhookOperationExports),
    ]) {
      if (name.endsWith("_OPERATIONS")) continue;
      expect((value as AnyOperation).id).toBe(name);
      expect(OPERATIONS).toContain(value);
    }
  });

  it("a REST endpoint of a declared operation is derived from it; every procedure is a declared operation's", () => {
    for (const e of ENDPOINTS) {
      if (!operationOf(e)) expect(OPERATIONS.map((o) => o.id)).not.toContain(e.operationId);
    }
    // every procedure of the router is a declared operation's (or the one below)
    const declared = new Set(OPERATIONS.flatMap((op) => (op.trpc ? [op.trpc] : [])));
    const TRPC_ONLY = /^me$/; // who am I: the web UI and scripts only
    const all = Object.keys(
      (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures,
    );
    expect(all.filter((p) => !declared.has(p) && !TRPC_ONLY.test(p))).toEqual([]);
  });

  it("every REST endpoint has a tRPC twin or is REST-only on purpose", () => {
    const missing = ENDPOINTS.filter((e) => !TWINS[e.operationId] && !REST_ONLY.has(e.operationId)).map(
      (e) => e.operationId,
    );
    expect(missing).toEqual([]);
  });

  for (const e of ENDPOINTS.filter((x) => TWINS[x.operationId])) {
    it(`${e.operationId} = ${TWINS[e.operationId]}`, async () => {
      const params = e.operationId === "builderGetRecipe" ? { name: "minimal" } : fullInput(e.params);
      const query = fullInput(e.query);
      const body =
        e.operationId === "builderValidate"
          ? { workflow: { nodes: [], edges: [] } }
          : e.operationId === "evalUpdateBadCase"
            ? { ...fullInput(e.body), status: "verified" } // a reason goes only with verified (a rule JSON Schema cannot say)
            : fullInput(e.body);

      // REST: what handle() does after auth: parse each part with the endpoint's schema, call the handler
      const restInput = {
        principal: PRINCIPAL,
        params: e.params ? e.params.parse(asText(params)) : undefined,
        query: e.query ? e.query.parse(asText(query)) : undefined,
        body: e.body ? e.body.parse(body) : undefined,
        db: DB,
        request: new Request("http://localhost/"),
      };
      const restOut = await e.handler(restInput as never);
      const rest = normalise(recorded.splice(0));

      // tRPC: the input convention of server/api/operations.ts
      const caller = appRouter.createCaller({ principal: PRINCIPAL, db: DB } as never, {
        signal: new AbortController().signal,
      });
      const onlyPart = params ? undefined : (body ?? query);
      const input = params ? { ...params, ...(body ? { body } : {}), ...(query ? { query } : {}) } : onlyPart;
      const trpcOut = await procedureAt(caller, TWINS[e.operationId]!)(input);
      const trpc = normalise(recorded.splice(0));

      expect(trpc).toEqual(rest);
      // an operation answered by a pure function (no recorded service) must give both faces the same answer
      if (rest.length === 0 && !(restOut instanceof Response)) expect(trpcOut).toEqual(restOut.body);
    });
  }
});
