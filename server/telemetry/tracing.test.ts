import { context, ROOT_CONTEXT, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { afterAll, describe, expect, it } from "vitest";
import { NoLoneDatabaseSpans, samplerOf } from "./otel";
import { currentOtelTraceId, errorType, inSpan, setTracing, tracingEnabled } from "./tracing";

/**
 * The span helpers the request path calls (tracing.ts) and the sampler choice (otel.ts), with the SDK's in-memory
 * exporter: off, `inSpan` only calls its function; on, spans nest by async context, a failure is an ERROR with a
 * stable type and no message, and a job span started as a root starts a trace of its own. Runs isolated (it
 * registers the global tracer provider: vitest.config.ts ALSO_ISOLATED).
 */
describe("tracing", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  afterAll(async () => {
    setTracing({ enabled: false });
    await provider.shutdown();
  });

  it("off (no OTLP endpoint): inSpan calls its function with no span and records nothing", async () => {
    expect(tracingEnabled()).toBe(false);
    expect(await inSpan("x", {}, async (span) => span)).toBeUndefined();
    expect(currentOtelTraceId()).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("on: children follow async calls, errors carry a stable type, roots start new traces", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    setTracing({ enabled: true });
    let inner: string | undefined;
    await inSpan("request", { kind: "server", attributes: { "http.route": "/r/{id}" } }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await inSpan("agent.run", {}, async () => {
        inner = currentOtelTraceId();
      });
      await expect(
        inSpan("node.llm", {}, async () => {
          throw Object.assign(new Error("https://x.test/?token=secret failed"), { code: "LLM_TIMEOUT" });
        }),
      ).rejects.toThrow(/secret/);
      await inSpan("eval.answer", { root: true, kind: "consumer" }, async () => undefined);
    });
    const spans = exporter.getFinishedSpans();
    const by = (name: string) => spans.find((s) => s.name === name)!;
    const request = by("request");
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes["http.route"]).toBe("/r/{id}");
    expect(by("agent.run").parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(inner).toBe(request.spanContext().traceId);
    const failed = by("node.llm");
    expect(failed.status).toEqual({ code: 2, message: "LLM_TIMEOUT" });
    expect(failed.attributes["error.type"]).toBe("LLM_TIMEOUT");
    expect(failed.events).toEqual([]); // no exception event: its message could quote a URL or a value
    expect(JSON.stringify(failed.attributes)).not.toContain("secret");
    const job = by("eval.answer");
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.spanContext().traceId).not.toBe(request.spanContext().traceId);
    // a request span under another (Next.js's own) is INTERNAL: one SERVER span per request
    exporter.reset();
    await inSpan("outer", { kind: "server" }, () => inSpan("inner", { kind: "server" }, async () => undefined));
    expect(exporter.getFinishedSpans().find((s) => s.name === "inner")!.kind).toBe(SpanKind.INTERNAL);
  });

  it("errorType: a code when there is one, else the class; never the message", () => {
    expect(errorType(Object.assign(new Error("m"), { code: "RUN_TIMEOUT" }))).toBe("RUN_TIMEOUT");
    expect(errorType(new TypeError("secret"))).toBe("TypeError");
    expect(errorType(Object.assign(new Error("m"), { code: "a code with spaces" }))).toBe("Error");
    expect(errorType("x")).toBe("unknown");
  });

  it("samplers: the specification's names; database spans without a parent are not recorded", () => {
    expect(samplerOf("parentbased_always_on")).toBeInstanceOf(ParentBasedSampler);
    expect(samplerOf("traceidratio", 0.25)).toBeInstanceOf(TraceIdRatioBasedSampler);
    const always = samplerOf("always_on");
    const sampler = new NoLoneDatabaseSpans(always);
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const decide = (ctx: typeof ROOT_CONTEXT, name: string) =>
      sampler.shouldSample(ctx, traceId, name, SpanKind.CLIENT, {}, []).decision;
    expect(decide(ROOT_CONTEXT, "prisma:client:operation")).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(ROOT_CONTEXT, "agent.run")).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "b7ad6b7169203331", traceFlags: 1 });
    expect(decide(parent, "prisma:client:operation")).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(samplerOf("always_off").shouldSample(ROOT_CONTEXT, traceId, "x", SpanKind.INTERNAL, {}, []).decision).toBe(
      SamplingDecision.NOT_RECORD,
    );
  });
});
