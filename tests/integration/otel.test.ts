import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type StartedServer } from "../../scripts/lib/app-server";
import { startFakeLlmServer, type FakeLlmServer } from "../../server/llm/testing";
import { api, minimalWorkflow, ok, trpc } from "./client";

/**
 * OpenTelemetry traces (issue 26): one app server (embedded database; what is traced does not depend on the
 * database) started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP receiver (node:http, decoding the
 * official exporter's OTLP/JSON bodies), and the local OpenAI-compatible model server. Checked from the spans the
 * receiver got: a REST request and a tRPC call (route templates, method, status, database spans under them), an
 * agent run with one span per node and the model call with the GenAI conventions (tokens as the model reported
 * them), an evaluation item (answer job, its run, its judging), the OTel trace id stored in Flowbench's own trace,
 * and no credential or prompt text anywhere in what was exported. Then the receiver stops answering: requests are not
 * slowed, and the lost spans are counted in GET /api/metrics.
 */

type Attr = { key: string; value: Record<string, unknown> };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Attr[];
  status?: { code?: number };
};
type Export = {
  resourceSpans: Array<{ resource: { attributes: Attr[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
};
type Span = Omit<OtlpSpan, "attributes"> & { attrs: Record<string, unknown>; resource: Record<string, unknown> };

/** OTLP/JSON ids are hex (the specification); base64 is accepted too, as protobuf's JSON mapping writes bytes. */
const hex = (id: string | undefined) =>
  !id ? "" : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, "base64").toString("hex");

/** An OTLP AnyValue as a plain value (int64 travels as a string in OTLP/JSON). */
function plain(v: Record<string, unknown>): unknown {
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return Number(v.doubleValue);
  if ("boolValue" in v) return v.boolValue;
  return v;
}
const attrsOf = (list: Attr[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));

/** The local OTLP/HTTP receiver: POST /v1/traces with JSON bodies; "hang" accepts requests and never answers. */
async function startReceiver() {
  const state = {
    mode: "ok" as "ok" | "hang",
    bodies: [] as string[],
    headers: [] as http.IncomingHttpHeaders[],
    spans: [] as Span[],
    hanging: 0,
    url: "",
  };
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (state.mode === "hang") {
        state.hanging++;
        held.push(res);
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      state.bodies.push(text);
      state.headers.push(req.headers);
      if (req.method === "POST" && req.url === "/v1/traces") {
        const body = JSON.parse(text) as Export;
        for (const rs of body.resourceSpans) {
          const resource = attrsOf(rs.resource.attributes);
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              state.spans.push({
                ...s,
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                attrs: attrsOf(s.attributes),
                resource,
              });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { state, close };
}

const USAGE = { prompt: 37, completion: 11 };
const QUESTION = "otel-question-7f3a: which breakfast dish would you recommend?";
const HEADER_SECRET = "otlp-collector-secret-5c9e";

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let model: FakeLlmServer;
  let server: StartedServer;
  let dir: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    model = await startFakeLlmServer({ usage: () => USAGE });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-otel-"));
    server = await startServer("otel", `pglite:${dir}`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.state.url,
      OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${HEADER_SECRET}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: "5000",
      // exports every 100 ms or 64 spans; at most 256 wait (the last test fills it)
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "64",
      OTEL_BSP_MAX_QUEUE_SIZE: "256",
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-local-test",
      EVAL_JUDGE: "builtin",
    });
  });

  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The first span `pick` finds among those received, waiting for the next exports (at most 15 s). */
  async function spanWhere(pick: (s: Span) => boolean, what: string): Promise<Span> {
    const until = Date.now() + 15_000;
    for (;;) {
      const found = receiver.state.spans.find(pick);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no span ${what} among ${receiver.state.spans.length} received`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const childrenOf = (parent: Span) => receiver.state.spans.filter((s) => s.parentSpanId === parent.spanId);
  /** whether `span` lies under `ancestor` (same trace, following parent ids) */
  function under(span: Span, ancestor: Span): boolean {
    const byId = new Map(receiver.state.spans.map((s) => [s.spanId, s]));
    for (let s: Span | undefined = span; s; s = byId.get(s.parentSpanId ?? "")) if (s === ancestor) return true;
    return false;
  }
  /** waits until every span of `trace` that was started has arrived (nothing new for a few export periods) */
  async function settled(): Promise<void> {
    let n = -1;
    while (n !== receiver.state.spans.length) {
      n = receiver.state.spans.length;
      await new Promise((r) => setTimeout(r, 400));
    }
  }

  let agentId: string;

  it("a REST request and a tRPC call: route templates, method, status, their database queries as children", async () => {
    const created = await ok(
      api(server, "POST", "/api/builder/agents", { body: { name: "otel agent", workflow: minimalWorkflow() } }),
      201,
    );
    agentId = created.agent.id;
    const rest = await spanWhere(
      (s) => s.name === "POST /api/builder/agents" && s.attrs["http.response.status_code"] === 201,
      "for the REST request",
    );
    expect(rest.attrs).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/builder/agents",
      "flowbench.operation_id": expect.any(String),
    });
    expect(rest.resource["service.name"]).toBe("flowbench");
    // an instance of its own among several (compose runs two): its host and a per-process instance id
    expect(rest.resource["host.name"]).toEqual(expect.any(String));
    expect(rest.resource["service.instance.id"]).toMatch(/^[0-9a-f-]{36}$/);
    // database time: Prisma's spans (one per operation, one per query sent) under the request's span
    const query = await spanWhere((s) => s.name === "prisma:client:db_query" && under(s, rest), "for a query");
    expect(query.kind).toBe(3); // CLIENT
    expect(query.attrs["db.query.text"]).toEqual(expect.any(String));
    expect(query.attrs["db.system.name"]).toBe("postgresql");

    // a caller's W3C traceparent continues its trace
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    await ok(
      api(server, "GET", `/api/builder/agents/${agentId}`, {
        headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
      }),
    );
    const continued = await spanWhere((s) => s.name === "GET /api/builder/agents/{id}", "for the traced call");
    expect(continued.traceId).toBe(callerTrace);

    await trpc(server).me.query();
    const procedure = await spanWhere((s) => s.name === "GET /api/trpc/me", "for the tRPC call");
    expect(procedure.attrs).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/trpc/me",
      "http.response.status_code": 200,
    });
  });

  it("an agent run: one span per node under agent.run, the model call with the GenAI conventions, the trace id stored", async () => {
    const run = await ok(
      api(server, "POST", `/api/agents/${agentId}/test-run`, { body: { input: { query: QUESTION } } }),
    );
    expect(run.status).toBe("succeeded");
    const request = await spanWhere((s) => s.name === "POST /api/agents/{id}/test-run", "for the test run");
    const agent = await spanWhere(
      (s) => s.name === "agent.run" && s.attrs["flowbench.trace_id"] === run.id,
      "agent.run of the run",
    );
    expect(agent.parentSpanId).toBe(request.spanId);
    expect(agent.traceId).toBe(request.traceId);
    expect(agent.attrs).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": agentId,
      "flowbench.source": "test_run",
      "flowbench.run.status": "succeeded",
      "flowbench.usage.prompt_tokens": USAGE.prompt,
      "flowbench.usage.completion_tokens": USAGE.completion,
    });
    await settled();
    const nodes = childrenOf(agent).filter((s) => s.name.startsWith("node."));
    expect(nodes.map((s) => [s.name, s.attrs["flowbench.node.id"], s.attrs["flowbench.node.status"]])).toEqual([
      ["node.start", "start", "succeeded"],
      ["node.llm", "llm_1", "succeeded"],
      ["node.end", "end", "succeeded"],
    ]);
    const llm = nodes[1]!;
    const chat = childrenOf(llm).find((s) => s.name.startsWith("chat "));
    expect(chat, "the model call under the llm node").toBeDefined();
    const requested = model.requests.at(-1)!.body.model;
    expect(chat!.name).toBe(`chat ${requested}`);
    expect(chat!.kind).toBe(3); // CLIENT
    // the tokens are what the local model reported, and what Flowbench's trace stored
    expect(chat!.attrs).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.system": "openai",
      "gen_ai.request.model": requested,
      "gen_ai.response.model": requested,
      "gen_ai.usage.input_tokens": USAGE.prompt,
      "gen_ai.usage.output_tokens": USAGE.completion,
    });
    // the Flowbench trace names the OTel trace, and the OTel span names the Flowbench trace
    const stored = await ok(api(server, "GET", `/api/traces/${run.id}`));
    expect(stored.otelTraceId).toBe(agent.traceId);
    expect(stored.usage).toEqual({ promptTokens: USAGE.prompt, completionTokens: USAGE.completion });
    // the run's trace writes are database spans of the run
    expect(receiver.state.spans.some((s) => s.name === "prisma:client:operation" && under(s, agent))).toBe(true);
  });

  it("an evaluation item: its answer job is a trace of its own, with the agent run and the judging under it", async () => {
    const set = await ok(
      api(server, "POST", "/api/eval/sets", { body: { agentId, name: "otel", kind: "golden", gateThreshold: 1 } }),
      201,
    );
    await ok(
      api(server, "POST", `/api/eval/sets/${set.id}/versions/1/samples`, {
        body: { question: QUESTION, expectedPoints: ["recommends a breakfast dish"] },
      }),
      201,
    );
    const version = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
    const run = await ok(
      api(server, "POST", "/api/eval/runs", {
        body: { setVersionId: version.id, mode: "in_platform", tier: "invoke" },
      }),
      201,
    );
    await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
    const until = Date.now() + 60_000;
    while ((await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).status !== "awaiting_review") {
      if (Date.now() > until) throw new Error("the run was not answered in 60 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    const [item] = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
    const job = await spanWhere(
      (s) => s.name === "eval.answer" && s.attrs["flowbench.eval.item_id"] === item.id,
      "for the answer job",
    );
    expect(job.parentSpanId).toBe(""); // a root: the worker's loop started it
    expect(job.kind).toBe(5); // CONSUMER
    expect(job.attrs).toMatchObject({ "flowbench.eval.job": "answer", "flowbench.eval.run_id": run.id });
    await settled();
    const agent = receiver.state.spans.find(
      (s) => s.name === "agent.run" && s.attrs["flowbench.trace_id"] === item.traceId,
    );
    expect(agent && under(agent, job), "the item's run under its job").toBe(true);
    expect(agent!.attrs["flowbench.source"]).toBe("eval");
    const judge = childrenOf(job).find((s) => s.name === "eval.judge");
    expect(judge, "the judging under the job").toBeDefined();
    const chat = receiver.state.spans.find((s) => s.name.startsWith("chat ") && under(s, agent!));
    expect(chat!.attrs["gen_ai.usage.input_tokens"]).toBe(USAGE.prompt);
    const stored = await ok(api(server, "GET", `/api/traces/${item.traceId}`));
    expect(stored.otelTraceId).toBe(job.traceId);
  });

  it("no credential and no prompt text in what was exported; the exporter sent OTEL_EXPORTER_OTLP_HEADERS", async () => {
    await settled();
    const all = receiver.state.bodies.join("\n");
    expect(all.length).toBeGreaterThan(1000);
    for (const secret of [server.adminToken, "sk-local-test", HEADER_SECRET, "Bearer", "authorization", "cookie"])
      expect(all.toLowerCase()).not.toContain(secret.toLowerCase());
    // content capture is off by default: neither the question nor the model's answer
    expect(all).not.toContain("otel-question-7f3a");
    // the collector's own credential went as a header, and only there
    expect(receiver.state.headers.every((h) => h["x-collector-key"] === HEADER_SECRET)).toBe(true);
  });

  it("an endpoint that does not answer slows no request; the lost spans are counted in /api/metrics", async () => {
    const timed = async (n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i += 4) {
        await Promise.all(
          [0, 1, 2, 3].map(async () => {
            const t0 = performance.now();
            await ok(api(server, "GET", `/api/builder/agents/${agentId}`));
            ms.push(performance.now() - t0);
          }),
        );
      }
      return ms.sort((a, b) => a - b);
    };
    const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
    const healthy = await timed(40);
    const before = await counters();
    expect(before.exported).toBeGreaterThan(0);

    receiver.state.mode = "hang";
    const hung = await timed(120);
    // an export was held open while the requests were answered: a request that waited for it would take the
    // exporter's 5 s timeout; they took what they took before (within the noise of a shared machine)
    expect(receiver.state.hanging).toBeGreaterThan(0);
    expect(hung.at(-1)!).toBeLessThan(4000);
    expect(median(hung)).toBeLessThan(3 * median(healthy) + 100);

    // the queue (256) overflowed while the export hung, and the held batch failed at the exporter's timeout
    const until = Date.now() + 30_000;
    const grew = (c: typeof before) => c.queueFull > before.queueFull && c.exportFailed > before.exportFailed;
    let after = await counters();
    while (!grew(after) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      after = await counters();
    }
    expect(after.queueFull).toBeGreaterThan(before.queueFull);
    expect(after.exportFailed).toBeGreaterThan(before.exportFailed);
  });

  async function counters() {
    const text = await (
      await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN);
    return {
      exported: value(/^flowbench_otel_spans_exported_total (\S+)$/m),
      queueFull: value(/^flowbench_otel_spans_dropped_total\{reason="queue_full"\} (\S+)$/m),
      exportFailed: value(/^flowbench_otel_spans_dropped_total\{reason="export_failed"\} (\S+)$/m),
    };
  }
});
