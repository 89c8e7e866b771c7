import { z, type ZodType } from "zod";
import { createDocument } from "zod-openapi";
import { DocumentedErrorOut, ERROR_CODES, ERROR_DETAILS } from "./error-codes";
import { DEFAULT_MAX_BODY_BYTES, type Endpoint, type EndpointResponse } from "./endpoint";
import { ErrorOut } from "../core/errors";
import { PERMISSIONS } from "../auth/roles";
import { FINDING_CODES, WORKFLOW_LIMITS } from "../workflow";
import { RUNTIME_ERROR_CODES } from "../runtime/errors";
import { MAX_INPUT_DEPTH, STORABLE_TEXT_PATTERN } from "../core/text";

function table(head: string[], rows: string[][]): string {
  const esc = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

/** A code's detail shape for the table: its fields, `?` marking the optional ones (the `Error` component types them). */
function detailsText(code: string): string {
  const schema = ERROR_DETAILS[code];
  if (!schema) return "";
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
    required?: string[];
    $ref?: string;
    $defs?: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
  };
  const root = json.$ref && json.$defs ? (json.$defs[json.$ref.split("/").pop()!] ?? json) : json;
  const required = new Set(root.required ?? []);
  return `\`{ ${Object.keys(root.properties ?? {})
    .map((k) => (required.has(k) ? k : `${k}?`))
    .join(", ")} }\``;
}

function description(): string {
  const limits = WORKFLOW_LIMITS as Record<string, number>;
  return [
    "Flowbench: build AI agents as workflows and prove they are good enough to release.",
    "",
    "## Authentication",
    "- `/api/builder/*`: `Authorization: Bearer <token>` (API tokens are created by admins under Settings, or by the headless `FLOWBENCH_INIT_API_TOKEN`).",
    "- `/api/eval/*`, `/api/agents/*`, `/api/traces/*`: a signed-in session (cookie) or a bearer token.",
    "- Missing or bad credentials: **401**; a role that may not do it: **403**.",
    "- A signed-in browser may change things (POST, PUT, PATCH, DELETE) only from Flowbench's own pages: such a request from another page, even one on the same site (another port or subdomain), is **403** `CROSS_SITE_REQUEST` (the browser's `Sec-Fetch-Site`, or its `Origin` against the host). Bearer tokens are not affected.",
    "",
    "### Roles and permissions",
    table(
      ["permission", "roles"],
      Object.entries(PERMISSIONS).map(([p, roles]) => [p, roles.join(", ")]),
    ),
    "",
    "## Errors",
    'Every failure has one shape: `{ "error": { "code": "STABLE_CODE", "message": "...", "details": [...] } }`. Validation failures add `valid`, `errors` and `warnings` beside it.',
    "",
    table(
      ["code", "status", "meaning", "details"],
      Object.entries(ERROR_CODES).map(([c, v]) => [`\`${c}\``, String(v.status), v.description, detailsText(c)]),
    ),
    "",
    "## Workflow finding codes",
    "Each finding is `{ code, severity, message, path, nodeId?, edgeIndex? }`; `path` is a JSON pointer into the request body. Codes never change meaning once released.",
    "",
    table(
      ["code", "severity", "meaning"],
      Object.entries(FINDING_CODES).map(([c, v]) => [`\`${c}\``, v.severity, v.description]),
    ),
    "",
    "## Run error codes",
    "A failed workflow run (a trace, `POST /api/agents/{id}/chat`, test runs, evaluation items) carries one of these codes, or a code of the Python sandbox (TIMEOUT, MEMORY, PYTHON_ERROR, SYNTAX_ERROR, RESULT_NOT_JSON, RESULT_MISSING, OUTPUT_TOO_LARGE, BUSY).",
    "",
    table(
      ["code", "meaning"],
      Object.entries(RUNTIME_ERROR_CODES).map(([c, v]) => [`\`${c}\``, v]),
    ),
    "",
    "## Limits",
    table(
      ["limit", "value"],
      [
        ["request body, workflow endpoints (413 above)", `${limits.maxBodyBytes} bytes`],
        ["request body, other endpoints (413 above)", `${DEFAULT_MAX_BODY_BYTES} bytes`],
        ...Object.entries(limits)
          .filter(([k]) => k !== "maxBodyBytes")
          .map(([k, v]) => [k, String(v)]),
      ],
    ),
    "",
    "## tRPC",
    "The web UI uses the same services through tRPC at `/api/trpc` (routers `builder`, `runtime`, `eval`, `admin`); REST is the stable public face.",
    "",
    "## MCP and SDKs",
    "MCP tools `builder_list_node_types` and `builder_validate`: over Streamable HTTP at `POST /api/mcp` (bearer token) or over stdio with `npm run mcp` (FLOWBENCH_URL, FLOWBENCH_TOKEN). SDKs: `sdk/typescript` (`FlowbenchClient`) and `sdk/python` (`flowbench.Client`), both with `list_node_types()` and `validate_workflow(workflow)`.",
  ].join("\n");
}

/** Every protected endpoint can answer 401, and 403 when it needs a permission: added here, once, for all. */
function withAuthResponses(e: Endpoint): Record<number, EndpointResponse> {
  if (e.auth === "none") return e.responses;
  const who = e.auth === "token" ? "Missing or invalid bearer token" : "Not signed in and no valid bearer token";
  const out: Record<number, EndpointResponse> = {
    ...e.responses,
    401: e.responses[401] ?? { description: who, schema: ErrorOut },
  };
  // a browser session's request that may change something, from another site's page: 403 CROSS_SITE_REQUEST
  const crossSite = e.auth === "token-or-session" && e.method !== "GET";
  const refusals = [
    ...(e.permission ? [`FORBIDDEN: the caller's role lacks the permission ${e.permission}`] : []),
    ...(crossSite ? ["CROSS_SITE_REQUEST: a browser session's request that did not come from Flowbench's pages"] : []),
  ];
  if (refusals.length) out[403] = e.responses[403] ?? { description: refusals.join("; "), schema: ErrorOut };
  return out;
}

/**
 * Every operation that takes a path, query or body can answer 400 REQUEST_INVALID (and INVALID_JSON, unstorable
 * text) in the one error shape; one with a body also 413 and 415. Added here, once: where an operation documents
 * its own 400 (e.g. a workflow's ValidationError), the documented schema becomes "that or the error shape".
 */
function withInputResponses(
  e: Endpoint,
  responses: Record<number, EndpointResponse>,
): Record<number, EndpointResponse> {
  const out = { ...responses };
  if (e.params || e.query || e.body) {
    const own = out[400];
    const generic =
      "REQUEST_INVALID: the path, query or body does not match the documented schema (details list each problem with its path; text with a NUL or an unpaired surrogate is refused too)";
    if (!own)
      out[400] = { description: e.body ? `${generic}; INVALID_JSON: the body is not JSON` : generic, schema: ErrorOut };
    else if (own.schema && own.schema !== ErrorOut)
      out[400] = { description: `${own.description}; or ${generic}`, schema: z.union([own.schema, ErrorOut]) };
  }
  if (e.body) {
    out[413] ??= { description: "PAYLOAD_TOO_LARGE: the body exceeds the documented size limit", schema: ErrorOut };
    out[415] ??= { description: "UNSUPPORTED_MEDIA_TYPE: send the body as application/json", schema: ErrorOut };
  }
  return out;
}

/** The error shape as documented: `ErrorOut` (also inside "that or the error shape" unions) becomes the `Error` component with typed details. */
function documented(schema: ZodType): ZodType {
  if (schema === ErrorOut) return DocumentedErrorOut;
  if (schema instanceof z.ZodUnion)
    return z.union((schema.options as ZodType[]).map(documented) as [ZodType, ZodType, ...ZodType[]]);
  return schema;
}

function authText(e: Endpoint): string {
  if (e.auth === "none") return "No authentication.";
  const who = e.auth === "token" ? "A bearer token" : "A signed-in session or a bearer token";
  return `${who}${e.permission ? ` whose role has ${e.permission}` : ""} (401 without, 403 with a role that lacks it).`;
}

/** Formats whose own syntax already leaves no room for NUL or a surrogate. */
const TEXT_FORMATS = new Set(["date", "date-time", "time", "email", "uuid", "uri", "cuid", "cuid2", "ulid"]);

/**
 * The input rules every operation shares (server/core/text.ts), said by the document where JSON Schema can say them:
 * every input string and object key matches STORABLE_TEXT_PATTERN (no NUL, no unpaired surrogate); a free JSON value
 * says it (and the nesting limit, which JSON Schema cannot) in its description. Output schemas are left as they are.
 */
function inputRules(ctx: { jsonSchema: Record<string, unknown>; zodSchema: unknown; io: "input" | "output" }): void {
  if (ctx.io !== "input") return;
  const s = ctx.jsonSchema;
  const kind = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type;
  if (kind === "unknown" || kind === "any") {
    // a value parsed as anything but documented by a JSON Schema given whole in its meta (the workflow): a copy with
    // the rule on every string and key inside (the meta objects are shared with MCP and the node-type contract)
    for (const key of ["properties", "items", "oneOf", "anyOf", "allOf", "additionalProperties"] as const)
      if (s[key] !== undefined) s[key] = storableCopy(s[key]);
    if (s.type === undefined && s.properties === undefined) {
      const rule = `Any JSON value; its strings and keys may not hold a NUL or an unpaired surrogate, and it nests at most ${MAX_INPUT_DEPTH} levels.`;
      s.description = typeof s.description === "string" ? `${s.description} ${rule}` : rule;
    }
  }
  storableRule(s);
}

/** Adds the storable-text rule to one JSON Schema node (a string's pattern, an object's property names). */
function storableRule(s: Record<string, unknown>): void {
  if (s.type === "string" && s.enum === undefined && s.const === undefined && !TEXT_FORMATS.has(String(s.format))) {
    if (s.pattern === undefined) s.pattern = STORABLE_TEXT_PATTERN;
    else if (s.pattern !== STORABLE_TEXT_PATTERN)
      s.allOf = [...((s.allOf as unknown[]) ?? []), { pattern: STORABLE_TEXT_PATTERN }];
  }
  if (s.type === "object") s.propertyNames = { ...(s.propertyNames as object), pattern: STORABLE_TEXT_PATTERN };
}

/** A deep copy of a JSON Schema fragment with the storable-text rule on every node. */
function storableCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(storableCopy);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === "const" || k === "enum" || k === "default" || k === "examples" ? v : storableCopy(v);
  storableRule(out); // (on a `properties` map too: harmless, its `type` is a schema, never "string" or "object")
  return out;
}

const cache = new WeakMap<readonly Endpoint[], ReturnType<typeof createDocument>>();

/** OpenAPI 3.1, generated from the endpoint list and the same zod schemas the handlers parse with. */
export function openapiDocument(endpoints: readonly Endpoint[]) {
  let doc = cache.get(endpoints);
  if (!doc) cache.set(endpoints, (doc = build(endpoints)));
  return doc;
}

function build(endpoints: readonly Endpoint[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const op: Record<string, unknown> = {
      operationId: e.operationId,
      summary: e.summary,
      description: e.description ? `${e.description}\n\n${authText(e)}` : `${e.summary}. ${authText(e)}`,
      tags: [e.tag],
      security:
        e.auth === "none"
          ? []
          : e.auth === "token"
            ? [{ bearerAuth: [] }]
            : [{ bearerAuth: [] }, { sessionCookie: [] }],
      requestParams: { ...(e.params ? { path: e.params } : {}), ...(e.query ? { query: e.query } : {}) },
      responses: Object.fromEntries(
        Object.entries(withInputResponses(e, withAuthResponses(e))).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...(r.schema ? { content: { "application/json": { schema: documented(r.schema) } } } : {}),
          },
        ]),
      ),
    };
    if (e.body) op.requestBody = { required: true, content: { "application/json": { schema: e.body } } };
    if (e.permission) op["x-permission"] = e.permission;
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: { title: "Flowbench API", version: "0.1.0", description: description() },
      servers: [{ url: "/", description: "The Flowbench server that serves this document" }],
      tags: [
        {
          name: "Workflow builder",
          description: "Node-type contract, validation, recipes, provisioning, publishing, MCP",
        },
        { name: "Runtime", description: "Online chat, test runs, traces and feedback" },
        {
          name: "Evaluation center",
          description: "Sets and frozen versions, runs, suggestions, human verdicts, reports, gates, bad cases",
        },
        { name: "System", description: "Health and this document" },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "An API token (shown once when created)" },
          sessionCookie: {
            type: "apiKey",
            in: "cookie",
            name: "next-auth.session-token",
            description: "A signed-in browser session",
          },
        },
      },
      paths: paths as Parameters<typeof createDocument>[0]["paths"],
    },
    { allowEmptySchema: { unknown: true, custom: true }, override: inputRules },
  );
}
