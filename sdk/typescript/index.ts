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
 * Any non-2xx answer other than an invalid workflow on validate: carries the API's stable error code. A server that
 * cannot be reached is one too: status 0 and code CONNECTION_FAILED (or TIMEOUT after `timeoutMs`), naming the URL;
 * so is an answer whose body breaks off (the answer's status, CONNECTION_FAILED or TIMEOUT).
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

  /** Low-level call; resolves with the parsed body for 2xx, throws FlowbenchError otherwise (unless `accept` lists the status). */
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
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
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
        timedOut ? "TIMEOUT" : "CONNECTION_FAILED",
        `${method} ${url}: reading the ${res.status} answer failed (${timedOut ? `not within ${this.timeoutMs} ms` : reason})`,
      );
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (res.ok || accept.includes(res.status)) return { status: res.status, body: parsed as T };
    const err = (parsed as { error?: { code?: string; message?: string; details?: unknown[] } } | undefined)?.error;
    throw new FlowbenchError(
      res.status,
      err?.code ?? `HTTP_${res.status}`,
      err?.message ?? `HTTP ${res.status}`,
      err?.details ?? [],
      parsed,
    );
  }

  /** The node-type contract (GET /api/builder/node-types). */
  async listNodeTypes(): Promise<{
    nodeTypes: Array<{ type: string; title: string; description: string; requiredAnyOf: string[][] }>;
    [k: string]: unknown;
  }> {
    return (await this.request<never>("GET", "/api/builder/node-types")).body;
  }

  /** Validates without storing. An invalid workflow is a normal result (valid: false), not an exception. */
  async validateWorkflow(workflow: unknown): Promise<ValidationResult> {
    const { body } = await this.request<ValidationResult>("POST", "/api/builder/validate", { workflow }, [400]);
    if (typeof body?.valid !== "boolean") {
      // a 400 that is not a validation result (e.g. INVALID_JSON, REQUEST_INVALID): keep the server's code and message
      const err = (body as unknown as { error?: { code?: string; message?: string; details?: unknown[] } } | undefined)
        ?.error;
      throw new FlowbenchError(
        400,
        err?.code ?? "REQUEST_INVALID",
        err?.message ?? "The server did not return a validation result",
        err?.details ?? [],
        body,
      );
    }
    return { valid: body.valid, errors: body.errors, warnings: body.warnings };
  }

  getRecipe(name: string) {
    return this.request<{ name: string; workflow: Workflow }>(
      "GET",
      `/api/builder/recipes/${encodeURIComponent(name)}`,
    ).then((r) => r.body);
  }

  /** Provisions a new agent with version 1 (throws FlowbenchError WORKFLOW_INVALID with the findings as details). */
  createAgent(input: { name: string; description?: string; workflow: unknown; note?: string }) {
    return this.request<{
      agent: { id: string; latestVersion: number };
      version: { version: number };
      warnings: Finding[];
    }>("POST", "/api/builder/agents", input).then((r) => r.body);
  }

  addVersion(agentId: string, input: { workflow: unknown; note?: string }) {
    return this.request<{ version: { version: number }; warnings: Finding[] }>(
      "POST",
      `/api/builder/agents/${encodeURIComponent(agentId)}/versions`,
      input,
    ).then((r) => r.body);
  }

  // The spec's names.
  list_node_types = () => this.listNodeTypes();
  validate_workflow = (workflow: unknown) => this.validateWorkflow(workflow);
}
