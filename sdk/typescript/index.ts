/**
 * Flowbench TypeScript SDK: a thin, typed client over the REST API (fetch; no dependencies).
 *
 *   const client = new FlowbenchClient({ baseUrl: "http://localhost:3000", token: process.env.FLOWBENCH_TOKEN });
 *   const types = await client.listNodeTypes();
 *   const result = await client.validateWorkflow(workflow);   // { valid, errors, warnings }; never throws for an invalid workflow
 *
 * The spec's names `list_node_types()` and `validate_workflow(workflow)` are provided as aliases.
 */

export type Finding = {
  code: string;
  severity: "error" | "warning";
  message: string;
  path: string;
  nodeId?: string;
  edgeIndex?: number;
};
export type ValidationResult = { valid: boolean; errors: Finding[]; warnings: Finding[] };
export type Workflow = { nodes: unknown[]; edges: unknown[] };

/**
 * Every failure of a call: `status` is the HTTP status the server answered (0 when no answer came), `code` the API's
 * stable error code for a non-2xx answer that carries one (`HTTP_<status>` when it carries none), or one of the
 * SDK's own codes (sdk/typescript/README.md):
 * - `CONNECTION_FAILED` (status 0): the server could not be reached; the message names the URL;
 * - `TIMEOUT`: no answer, or not its whole body, within `timeoutMs` (status 0, or the answer's status);
 * - `RESPONSE_INCOMPLETE`: the answer's body broke off (the answer's status);
 * - `UNEXPECTED_RESPONSE`: a 2xx answer that is not JSON (e.g. an HTML page from a proxy) or not the documented shape,
 *   or a validate answer that is neither a validation result nor an error (the answer's status; `body` holds it);
 * - `REQUEST_NOT_SERIALIZABLE` (status 0, nothing sent): the arguments cannot be written as JSON (a BigInt, a cycle).
 * An invalid workflow on validate is not an error: it is the result `{ valid: false, errors, warnings }`.
 */
export class FlowbenchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown[] = [],
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = "FlowbenchError";
  }
}

type ApiErrorBody = { error?: { code?: unknown; message?: unknown; details?: unknown } };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** The server's `{ error: { code, message, details } }`, when the body is one. */
function apiError(body: unknown): { code: string; message: string; details: unknown[] } | null {
  const err = isObject(body) ? (body as ApiErrorBody).error : undefined;
  if (!isObject(err) || typeof err.code !== "string") return null;
  return {
    code: err.code,
    message: typeof err.message === "string" ? err.message : err.code,
    details: Array.isArray(err.details) ? err.details : [],
  };
}

export type FlowbenchClientOptions = { baseUrl?: string; token?: string; fetch?: typeof fetch; timeoutMs?: number };

export class FlowbenchClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: FlowbenchClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? process.env.FLOWBENCH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
    this.token = options.token ?? process.env.FLOWBENCH_TOKEN;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * Low-level call; resolves with the parsed JSON body for 2xx, throws FlowbenchError otherwise (unless `accept` lists
   * the status). A 2xx answer that is not JSON is UNEXPECTED_RESPONSE.
   */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    accept: number[] = [],
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const url = `${this.baseUrl}${path}`;
    let payload: string | undefined;
    try {
      payload = body === undefined ? undefined : JSON.stringify(body);
    } catch (e) {
      throw new FlowbenchError(
        0,
        "REQUEST_NOT_SERIALIZABLE",
        `${method} ${url} was not sent: the arguments cannot be written as JSON (${(e as Error)?.message ?? String(e)})`,
      );
    }
    let res: Response;
    try {
      res = await this.fetchImpl(url, { method, headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      const timedOut = (e as Error)?.name === "TimeoutError";
      const reason =
        (e as { cause?: { code?: string; message?: string } })?.cause?.code ??
        (e as { cause?: Error })?.cause?.message ??
        (e as Error)?.message ??
        String(e);
      throw new FlowbenchError(
        0,
        timedOut ? "TIMEOUT" : "CONNECTION_FAILED",
        timedOut
          ? `${method} ${url} did not answer within ${this.timeoutMs} ms`
          : `Could not reach Flowbench at ${url} (${reason})`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // the answer began but its body did not arrive whole (connection reset, or the time limit hit while reading)
      const timedOut = (e as Error)?.name === "TimeoutError" || (e as Error)?.name === "AbortError";
      const reason = (e as { cause?: { code?: string } })?.cause?.code ?? (e as Error)?.message ?? String(e);
      throw new FlowbenchError(
        res.status,
        timedOut ? "TIMEOUT" : "RESPONSE_INCOMPLETE",
        `${method} ${url}: reading the ${res.status} answer failed (${timedOut ? `not within ${this.timeoutMs} ms` : reason})`,
      );
    }
    let parsed: unknown;
    let isJson = true;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
      isJson = false;
    }
    if (res.ok || accept.includes(res.status)) {
      if (!isJson || parsed === undefined)
        throw new FlowbenchError(
          res.status,
          "UNEXPECTED_RESPONSE",
          `${method} ${url}: the ${res.status} answer is not JSON (${res.headers.get("content-type") ?? "no content type"}: ${text.slice(0, 80)})`,
          [],
          parsed,
        );
      return { status: res.status, body: parsed as T };
    }
    const err = apiError(parsed);
    throw new FlowbenchError(
      res.status,
      err?.code ?? `HTTP_${res.status}`,
      err?.message ?? `HTTP ${res.status}`,
      err?.details ?? [],
      parsed,
    );
  }

  /** A 2xx body that is not the documented shape: the SDK's UNEXPECTED_RESPONSE, with the answer's status and body. */
  private expectShape<T>(
    answer: { status: number; body: unknown },
    what: string,
    ok: (body: Record<string, unknown>) => boolean,
  ): T {
    if (isObject(answer.body) && ok(answer.body)) return answer.body as T;
    throw new FlowbenchError(
      answer.status,
      "UNEXPECTED_RESPONSE",
      `The ${answer.status} answer is not ${what}: ${JSON.stringify(answer.body)?.slice(0, 120)}`,
      [],
      answer.body,
    );
  }

  /** The node-type contract (GET /api/builder/node-types). */
  async listNodeTypes(): Promise<{
    nodeTypes: Array<{ type: string; title: string; description: string; requiredAnyOf: string[][] }>;
    [k: string]: unknown;
  }> {
    return this.expectShape(await this.request("GET", "/api/builder/node-types"), "the node-type contract", (b) =>
      Array.isArray(b.nodeTypes),
    );
  }

  /**
   * Validates without storing (`kind` "judge": also against the judge contract). An invalid workflow is a normal
   * result (valid: false), not an exception.
   */
  async validateWorkflow(workflow: unknown, kind?: "agent" | "judge"): Promise<ValidationResult> {
    const request = kind === undefined ? { workflow } : { workflow, kind };
    const answer = await this.request<unknown>("POST", "/api/builder/validate", request, [400]);
    const body = answer.body;
    if (
      isObject(body) &&
      typeof body.valid === "boolean" &&
      Array.isArray(body.errors) &&
      Array.isArray(body.warnings)
    ) {
      return { valid: body.valid, errors: body.errors as Finding[], warnings: body.warnings as Finding[] };
    }
    // not a validation result: a 400 with the server's error (e.g. INVALID_JSON, REQUEST_INVALID) keeps its code;
    // anything else (a 200 of another shape, a 400 without an error) is UNEXPECTED_RESPONSE; the status is the answer's
    const err = apiError(body);
    throw new FlowbenchError(
      answer.status,
      err?.code ?? "UNEXPECTED_RESPONSE",
      err?.message ?? `The ${answer.status} answer is not a validation result`,
      err?.details ?? [],
      body,
    );
  }

  async getRecipe(name: string): Promise<{ name: string; workflow: Workflow }> {
    const answer = await this.request("GET", `/api/builder/recipes/${encodeURIComponent(name)}`);
    return this.expectShape(answer, "a recipe", (b) => typeof b.name === "string" && isObject(b.workflow));
  }

  /** Provisions a new agent with version 1 (throws FlowbenchError WORKFLOW_INVALID with the findings as details). */
  async createAgent(input: {
    name: string;
    description?: string;
    kind?: "agent" | "judge";
    workflow: unknown;
    note?: string;
  }): Promise<{
    agent: { id: string; kind: "agent" | "judge"; latestVersion: number };
    version: { version: number };
    warnings: Finding[];
  }> {
    const answer = await this.request("POST", "/api/builder/agents", input);
    return this.expectShape(answer, "a provisioned agent", (b) => isObject(b.agent) && isObject(b.version));
  }

  async addVersion(
    agentId: string,
    input: { workflow: unknown; note?: string },
  ): Promise<{ version: { version: number }; warnings: Finding[] }> {
    const answer = await this.request("POST", `/api/builder/agents/${encodeURIComponent(agentId)}/versions`, input);
    return this.expectShape(answer, "a provisioned version", (b) => isObject(b.version));
  }

  // The spec's names.
  list_node_types = () => this.listNodeTypes();
  validate_workflow = (workflow: unknown, kind?: "agent" | "judge") => this.validateWorkflow(workflow, kind);
}
