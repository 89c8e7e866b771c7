import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, ok, servers, tokenWithRole } from "./client";
import { METRICS_TOKEN, type ServerInfo } from "./global-setup";

/**
 * GET /api/metrics (issue 26) on both databases (the queue gauges read pg-boss's table with raw SQL): who may read it
 * (401 without a token or with a wrong one, 403 for a non-admin's token, 200 for an admin's and for
 * FLOWBENCH_METRICS_TOKEN), and the text parsed as Prometheus reads it: request durations by documented route, tRPC by
 * procedure with made-up names folded into one label, an in-platform run's items, its duration, the queues, the
 * sandbox and the process's own figures.
 */
type Sample = { name: string; labels: Record<string, string>; value: number };

/** The Prometheus text format (version 0.0.4): `# HELP`/`# TYPE` lines, then `name{label="value",...} number`. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { samples, types };
}

async function scrape(server: ServerInfo, token = METRICS_TOKEN) {
  const res = await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const parsed = parse(await res.text());
  const value = (name: string, labels: Record<string, string> = {}) =>
    parsed.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  const has = (name: string, labels: Record<string, string> = {}) =>
    parsed.samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return { ...parsed, value, has };
}

for (const server of servers()) {
  describe(`GET /api/metrics on ${server.name}`, () => {
    it("needs an admin's token or the metrics token: 401 without or with a wrong one, 403 for a builder", async () => {
      const none = await api(server, "GET", "/api/metrics", { token: null });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe("UNAUTHORIZED");
      expect((await api(server, "GET", "/api/metrics", { token: `${METRICS_TOKEN}x` })).status).toBe(401);
      const builder = await api(server, "GET", "/api/metrics", { token: await tokenWithRole(server, "builder") });
      expect(builder.status).toBe(403);
      expect(builder.body.error.code).toBe("FORBIDDEN");
      await scrape(server, server.adminToken);
      await scrape(server);
      // documented, with its security
      const doc = await ok(api(server, "GET", "/api/openapi.json"));
      expect(doc.paths["/api/metrics"].get).toMatchObject({ operationId: "metrics", "x-permission": "admin" });
      expect(doc.paths["/api/metrics"].get.description).toContain("flowbench_http_request_duration_seconds");
    });

    it("counts requests by documented route and status, tRPC by procedure; a made-up procedure is one label", async () => {
      const before = await scrape(server);
      const route = { route: "/api/eval/runs/{id}", method: "GET", status: "404" };
      for (let i = 0; i < 3; i++) expect((await api(server, "GET", `/api/eval/runs/nope-${i}`)).status).toBe(404);
      for (const name of ["made.up.one", "made.up.two"])
        await fetch(`${server.url}/api/trpc/${name}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
      await fetch(`${server.url}/api/trpc/eval.meta`, { headers: { authorization: `Bearer ${server.adminToken}` } });
      const after = await scrape(server);
      expect(after.types.get("flowbench_http_request_duration_seconds")).toBe("histogram");
      expect(after.value("flowbench_http_request_duration_seconds_count", route)).toBe(
        before.value("flowbench_http_request_duration_seconds_count", route) + 3,
      );
      // the +Inf bucket holds every observation; the sum is a duration in seconds
      expect(after.value("flowbench_http_request_duration_seconds_bucket", { ...route, le: "+Inf" })).toBe(
        after.value("flowbench_http_request_duration_seconds_count", route),
      );
      expect(after.value("flowbench_http_request_duration_seconds_sum", route)).toBeGreaterThan(0);
      expect(
        after.has("flowbench_http_request_duration_seconds_count", { route: "/api/trpc/eval.meta", status: "200" }),
      ).toBe(true);
      expect(
        after.value("flowbench_http_request_duration_seconds_count", { route: "/api/trpc/(unknown)" }) -
          before.value("flowbench_http_request_duration_seconds_count", { route: "/api/trpc/(unknown)" }),
      ).toBe(2);
      expect(after.samples.some((s) => s.labels.route?.includes("made.up"))).toBe(false);
      // the process's own figures
      expect(after.value("process_cpu_seconds_total")).toBeGreaterThan(0);
      expect(after.value("nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    });

    it("an in-platform run: items answered, its duration, the queue drained; the sandbox's pool", async () => {
      const before = await scrape(server);
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `metrics agent ${Date.now()}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "metrics set", kind: "golden", gateThreshold: 1 },
        }),
        201,
      );
      const rows = [1, 2, 3].map((i) => ({ key: `q${i}`, question: `breakfast ${i}?`, expected_points: ["a dish"] }));
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(rows) },
        }),
      );
      const version = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: version.id, mode: "in_platform" } }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
      const end = Date.now() + 60_000;
      while ((await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).status === "answering") {
        if (Date.now() > end) throw new Error("the run was not answered within 60 s");
        await new Promise((r) => setTimeout(r, 100));
      }
      const after = await scrape(server);
      expect(
        after.value("flowbench_eval_items_total", { outcome: "answered" }) -
          before.value("flowbench_eval_items_total", { outcome: "answered" }),
      ).toBe(3);
      expect(after.value("flowbench_eval_run_duration_seconds_count")).toBe(
        before.value("flowbench_eval_run_duration_seconds_count") + 1,
      );
      // the answering queue is known by name; nothing of this run waits in it any more
      expect(after.has("flowbench_queue_jobs", { queue: "eval-item", state: "waiting" })).toBe(true);
      expect(after.has("flowbench_queue_oldest_waiting_seconds", { queue: "eval-shadow" })).toBe(true);
      expect(after.value("flowbench_queue_oldest_waiting_seconds", { queue: "eval-item" })).toBeGreaterThanOrEqual(0);
      expect(after.types.get("flowbench_sandbox_workers")).toBe("gauge");
      expect(after.has("flowbench_sandbox_workers", { state: "warm" })).toBe(true);
      expect(after.has("flowbench_sandbox_restarts")).toBe(true);
    });
  });
}
