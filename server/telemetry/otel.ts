import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  type SpanKind,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { setGlobalErrorHandler, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  detectResources,
  envDetector,
  hostDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { metrics } from "./metrics";
import { setTracing } from "./tracing";

/**
 * The OpenTelemetry SDK, started by server/startup.ts (a dynamic import) only when an OTLP endpoint is configured:
 * spans go over OTLP/HTTP with JSON bodies (the official exporter; it reads OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT itself) through a
 * BatchSpanProcessor whose queue is bounded: a span is added to it or dropped, never waited for, so an endpoint that
 * does not answer never slows a request. Lost spans are counted in GET /api/metrics
 * (flowbench_otel_spans_dropped_total by reason, flowbench_otel_spans_exported_total), from the processor's own
 * self-observability counter.
 *
 * Registered globally: the AsyncLocalStorage context manager (parents follow async calls), the W3C trace-context
 * propagator (an incoming `traceparent` continues the caller's trace; Next.js reads it for its request span), the
 * tracer provider (Next.js's own request spans use it too), and Prisma's tracing helper (@prisma/instrumentation:
 * the client calls it around each operation, query and transaction, also with driver adapters).
 */
export type OtelSettings = {
  /** service.name (OTEL_SERVICE_NAME wins, as does OTEL_RESOURCE_ATTRIBUTES for the attributes it names) */
  serviceName: string;
  serviceVersion: string;
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification names them */
  sampler: SamplerName;
  samplerArg?: number;
  /** OTEL_BSP_*: the batch processor's bounded queue */
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: node inputs and outputs (prompts, answers) on spans */
  captureContent: boolean;
};

export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** The sampler OTEL_TRACES_SAMPLER names (the SDK's own samplers; the specification's names and default). */
export function samplerOf(name: SamplerName, arg = 1): Sampler {
  const ratio = new TraceIdRatioBasedSampler(Math.min(1, Math.max(0, arg)));
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Database spans outside any request, run or job (the housekeeping loops' queries, every few seconds) would each be a
 * trace of their own: they are not recorded. Everything else is the configured sampler's decision.
 */
export class NoLoneDatabaseSpans implements Sampler {
  constructor(private readonly inner: Sampler) {}
  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]) {
    if (name.startsWith("prisma:") && !trace.getSpanContext(ctx)) return { decision: SamplingDecision.NOT_RECORD };
    return this.inner.shouldSample(ctx, traceId, name, kind, attributes, links);
  }
  toString() {
    return `NoLoneDatabaseSpans{${this.inner.toString()}}`;
  }
}

/**
 * A MeterProvider for the SDK's self-observability that forwards the span processor's `otel.sdk.processor.span.processed`
 * counter to Prometheus: without `error.type` the spans were exported, `queue_full` dropped on arrival, any other
 * type lost in an export that failed. The SDK's other instruments are no-ops.
 */
function spanCountingMeterProvider() {
  const noop = {
    add: () => undefined,
    record: () => undefined,
    addCallback: () => undefined,
    removeCallback: () => undefined,
  };
  const m = metrics();
  const counted = {
    add(value: number, attributes?: Attributes) {
      const type = attributes?.["error.type"];
      if (type === undefined) m.otelSpansExported.inc(value);
      else m.otelSpansDropped.inc({ reason: type === "queue_full" ? "queue_full" : "export_failed" }, value);
    },
  };
  const meter = {
    createCounter: (name: string) => (name === "otel.sdk.processor.span.processed" ? counted : noop),
    createUpDownCounter: () => noop,
    createHistogram: () => noop,
    createGauge: () => noop,
    createObservableGauge: () => noop,
    createObservableCounter: () => noop,
    createObservableUpDownCounter: () => noop,
    addBatchObservableCallback: () => undefined,
    removeBatchObservableCallback: () => undefined,
  };
  // biome-ignore lint/suspicious/noExplicitAny: the API's Meter interface, implemented for the two methods the SDK calls
  return { getMeter: () => meter as any };
}

type Started = { provider: TracerProvider; shutdown(): Promise<void> };
const KEY = Symbol.for("flowbench.otel");

/** Starts the SDK once per process (a second call returns the first); spans are recorded from then on. */
export function startOtel(settings: OtelSettings): Started {
  const g = globalThis as typeof globalThis & { [KEY]?: Started };
  if (g[KEY]) return g[KEY];
  // host.name and a service.instance.id per process, so the spans of two instances behind one balancer are told apart;
  // OTEL_RESOURCE_ATTRIBUTES (envDetector, last) wins over both
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: settings.serviceVersion,
  }).merge(detectResources({ detectors: [hostDetector, serviceInstanceIdDetector, envDetector] }));
  const selfObs = spanCountingMeterProvider();
  const processor = new BatchSpanProcessor({
    exporter: new OTLPTraceExporter(),
    maxQueueSize: settings.maxQueueSize,
    maxExportBatchSize: Math.min(settings.maxExportBatchSize, settings.maxQueueSize),
    scheduledDelayMillis: settings.scheduledDelayMillis,
    exportTimeoutMillis: settings.exportTimeoutMillis,
    selfObsMeterProvider: selfObs,
  });
  const provider = new TracerProvider({
    resource,
    sampler: new NoLoneDatabaseSpans(samplerOf(settings.sampler, settings.samplerArg)),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // the SDK reports failed exports here: one line when they start failing, not one per batch (the metrics count them)
  let failing = false;
  setGlobalErrorHandler((e) => {
    if (failing) return;
    failing = true;
    console.error(
      `[flowbench] OpenTelemetry: exporting spans failed (${(e as Error)?.message ?? String(e)}); lost spans are counted in flowbench_otel_spans_dropped_total`,
    );
    setTimeout(() => (failing = false), 60_000).unref();
  });
  const prisma = new PrismaInstrumentation({
    // the client's own serialisation and query compilation: CPU time already inside the operation's span
    ignoreSpanTypes: ["prisma:client:serialize", "prisma:client:compile"],
  });
  prisma.setTracerProvider(provider);
  prisma.enable();
  setTracing({ enabled: true, captureContent: settings.captureContent });
  const started: Started = {
    provider,
    shutdown: async () => {
      setTracing({ enabled: false });
      await provider.shutdown();
    },
  };
  g[KEY] = started;
  // spans still queued go out when the server is stopped (best effort within the export timeout)
  process.once("SIGTERM", () => void provider.forceFlush().catch(() => undefined));
  return started;
}
