import client from "prom-client";

/**
 * The process's Prometheus metrics (prom-client), served by GET /api/metrics. The names are stable: dashboards and
 * alerts read them (README "Operations" lists each). One registry per process, kept on globalThis: Next.js bundles a
 * route's modules apart from start-up's (where the queue worker runs), so a module-level registry would exist twice
 * and each half would count only its own.
 */
export type Metrics = ReturnType<typeof create>;

const KEY = Symbol.for("flowbench.metrics");

/** Seconds buckets for request and run durations: from 5 ms to 30 minutes. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RUN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800];

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const m = {
    registry,
    httpDuration: new client.Histogram({
      name: "flowbench_http_request_duration_seconds",
      help: "Time to answer an API request (REST by its documented path, tRPC by procedure), by method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: REQUEST_BUCKETS,
      registers: [registry],
    }),
    evalItems: new client.Counter({
      name: "flowbench_eval_items_total",
      help: "Evaluation items this instance finished answering, by outcome (answered, failed)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    runDuration: new client.Histogram({
      name: "flowbench_eval_run_duration_seconds",
      help: "From a run's start to its last item answered (runs whose answering this instance settled)",
      buckets: RUN_BUCKETS,
      registers: [registry],
    }),
    modelTokens: new client.Counter({
      name: "flowbench_model_tokens_total",
      help: "Tokens the model provider reported, by model and type (prompt, completion)",
      labelNames: ["model", "type"] as const,
      registers: [registry],
    }),
    webhookDeliveries: new client.Counter({
      name: "flowbench_webhook_deliveries_total",
      help: "Webhook delivery attempts, by event and outcome (delivered, retrying, failed: given up after a day, endpoint_disabled)",
      labelNames: ["event", "outcome"] as const,
      registers: [registry],
    }),
    otelSpansExported: new client.Counter({
      name: "flowbench_otel_spans_exported_total",
      help: "OpenTelemetry spans the OTLP endpoint accepted (0 while OTEL_EXPORTER_OTLP_ENDPOINT is unset)",
      registers: [registry],
    }),
    otelSpansDropped: new client.Counter({
      name: "flowbench_otel_spans_dropped_total",
      help: "OpenTelemetry spans lost, by reason (queue_full: the bounded export queue was full; export_failed: the OTLP endpoint refused, failed or did not answer in time)",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    modelCalls: new client.Counter({
      name: "flowbench_model_calls_total",
      help: "Model calls, by model and outcome (ok, error)",
      labelNames: ["model", "outcome"] as const,
      registers: [registry],
    }),
  };
  // both reasons are listed from the start, at 0, so an alert on their rate has a series to read
  for (const reason of ["queue_full", "export_failed"]) m.otelSpansDropped.inc({ reason }, 0);
  return m;
}

/** This process's metrics (made on first use). */
export function metrics(): Metrics {
  const g = globalThis as typeof globalThis & { [KEY]?: Metrics };
  g[KEY] ??= create();
  return g[KEY];
}

/**
 * A gauge whose value is read when scraped (queue depth, the sandbox pool): `collect` sets it, by label, from the
 * database or the process. Registered once per name; a second call returns the first.
 */
export function gaugeOnScrape<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void> | void,
): void {
  const { registry } = metrics();
  if (registry.getSingleMetric(name)) return;
  new client.Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await collect((labels, value) => this.set(labels, value));
    },
  });
}

/** The registry's text (the Prometheus exposition format) and its content type. */
export async function scrape(): Promise<{ text: string; contentType: string }> {
  const { registry } = metrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
