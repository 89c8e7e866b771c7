import { defineEndpoint } from "../endpoint";
import { env } from "../../core/env";
import type { Db } from "../../db/client";
import { queueDepths } from "../../eval/runs/queue-jobs";
import { sandboxStats } from "../../runtime/sandbox";
import { gaugeOnScrape, scrape } from "../../telemetry/metrics";

/** The gauges read at scrape time: the queues from the database, the Python sandbox's pool from the process. */
function scrapedGauges(db: Db) {
  gaugeOnScrape(
    "flowbench_queue_jobs",
    "Jobs in a durable queue, by state (waiting, active)",
    ["queue", "state"],
    async (set) => {
      for (const q of await queueDepths(db)) {
        set({ queue: q.queue, state: "waiting" }, q.waiting);
        set({ queue: q.queue, state: "active" }, q.active);
      }
    },
  );
  gaugeOnScrape(
    "flowbench_queue_oldest_waiting_seconds",
    "Age of the oldest job waiting in a durable queue (0 when none waits)",
    ["queue"],
    async (set) => {
      for (const q of await queueDepths(db)) set({ queue: q.queue }, q.oldestWaitingSeconds);
    },
  );
  gaugeOnScrape(
    "flowbench_sandbox_workers",
    "Python sandbox workers, by state (warm, busy, queued calls)",
    ["state"],
    (set) => {
      const s = sandboxStats();
      set({ state: "warm" }, s?.workers ?? 0);
      set({ state: "busy" }, s?.busy ?? 0);
      set({ state: "queued" }, s?.queued ?? 0);
    },
  );
  gaugeOnScrape(
    "flowbench_sandbox_restarts",
    "Python sandbox worker and host restarts since the process started",
    [],
    (set) => set({}, sandboxStats()?.restarts ?? 0),
  );
}

export const metricsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/metrics",
  operationId: "metrics",
  summary: "Prometheus metrics of this instance",
  description: [
    "This instance's metrics in the Prometheus text format (each instance is scraped on its own; counters start at 0 when it starts). Stable names:",
    "`flowbench_http_request_duration_seconds` (histogram; labels `route`: the documented REST path or `/api/trpc/<procedure>`, `method`, `status`),",
    "`flowbench_queue_jobs` (`queue`, `state`: waiting or active) and `flowbench_queue_oldest_waiting_seconds` (`queue`), read from the database at each scrape,",
    "`flowbench_eval_items_total` (`outcome`: answered or failed), `flowbench_eval_run_duration_seconds` (histogram: a run's start to its last answer),",
    "`flowbench_model_tokens_total` (`model`, `type`: prompt or completion), `flowbench_model_calls_total` (`model`, `outcome`: ok or error),",
    "`flowbench_webhook_deliveries_total` (`event`, `outcome`: delivered, retrying, failed, endpoint_disabled; one per attempt),",
    "`flowbench_sandbox_workers` (`state`: warm, busy, queued) and `flowbench_sandbox_restarts`,",
    "`flowbench_otel_spans_exported_total` and `flowbench_otel_spans_dropped_total` (`reason`: queue_full or export_failed; OpenTelemetry spans, 0 while OTEL_EXPORTER_OTLP_ENDPOINT is unset),",
    "and the process's own (`process_*`, `nodejs_*`).",
    "Read with an admin's API token, or with FLOWBENCH_METRICS_TOKEN for a scraper.",
  ].join(" "),
  tag: "System",
  auth: "token",
  permission: "admin",
  serviceToken: () => env().FLOWBENCH_METRICS_TOKEN,
  responses: { 200: { description: "The metrics (text/plain; version=0.0.4)" } },
  handler: async ({ db }) => {
    scrapedGauges(db);
    const { text, contentType } = await scrape();
    return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
});
