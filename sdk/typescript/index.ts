/**
 * Flowbench TypeScript SDK: a thin, typed client over the REST API (fetch; no dependencies).
 *
 *   const client = new FlowbenchClient({ baseUrl: "http://localhost:3000", token: process.env.FLOWBENCH_TOKEN });
 *   const types = await client.listNodeTypes();
 *   const result = await client.validateWorkflow(workflow);   // { valid, errors, warnings }; never throws for an invalid workflow
 *
 * The spec's names `list_node_types()` and `validate_workflow(workflow)` are provided as aliases.
 */

export type Finding = { code: string; severity: "error" | "warning"; message: string; path: string; nodeId?: string; edgeIndex?: number };
export type ValidationResult = { valid: boolean; errors: Finding[]; warnings: Finding[] };
export type Workflow = { nodes: unknown[]; edges: unknown[] };

/** Any non-2xx answer other than an invalid workflow on validate: carries the API's stable error code. */
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
  async request<T>(method: string, path: string, body?: unknown, accept: number[] = []): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await this.fetchImpl(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (res.ok || accept.includes(res.status)) return { status: res.status, body: parsed as T };
    const err = (parsed as { error?: { code?: string; message?: string; details?: unknown[] } } | undefined)?.error;
    throw new FlowbenchError(res.status, err?.code ?? `HTTP_${res.status}`, err?.message ?? `HTTP ${res.status}`, err?.details ?? [], parsed);
  }

  /** The node-type contract (GET /api/builder/node-types). */
  async listNodeTypes(): Promise<{ nodeTypes: Array<{ type: string; title: string; description: string; requiredAnyOf: string[][] }>; [k: string]: unknown }> {
    return (await this.request<never>("GET", "/api/builder/node-types")).body;
  }

  /** Validates without storing. An invalid workflow is a normal result (valid: false), not an exception. */
  async validateWorkflow(workflow: unknown): Promise<ValidationResult> {
    const { body } = await this.request<ValidationResult>("POST", "/api/builder/validate", { workflow }, [400]);
    if (typeof body?.valid !== "boolean") throw new FlowbenchError(400, "REQUEST_INVALID", "The server did not return a validation result", [], body);
    return { valid: body.valid, errors: body.errors, warnings: body.warnings };
  }

  getRecipe(name: string) {
    return this.request<{ name: string; workflow: Workflow }>("GET", `/api/builder/recipes/${encodeURIComponent(name)}`).then((r) => r.body);
  }

  /** Provisions a new agent with version 1 (throws FlowbenchError WORKFLOW_INVALID with the findings as details). */
  createAgent(input: { name: string; description?: string; workflow: unknown; note?: string }) {
    return this.request<{ agent: { id: string; latestVersion: number }; version: { version: number }; warnings: Finding[] }>("POST", "/api/builder/agents", input).then(
      (r) => r.body,
    );
  }

  addVersion(agentId: string, input: { workflow: unknown; note?: string }) {
    return this.request<{ version: { version: number }; warnings: Finding[] }>("POST", `/api/builder/agents/${encodeURIComponent(agentId)}/versions`, input).then(
      (r) => r.body,
    );
  }

  // The spec's names.
  list_node_types = () => this.listNodeTypes();
  validate_workflow = (workflow: unknown) => this.validateWorkflow(workflow);
}
