import { z } from "zod";
import { defineEndpoint } from "../endpoint";
import { databaseTarget } from "../../db/client";
import { readiness } from "../../core/readiness";

export const health = defineEndpoint({
  method: "GET",
  path: "/api/health",
  operationId: "health",
  summary: "Liveness and database status (no auth)",
  description:
    "Liveness: 200 while the process answers. During start-up (migrations, waiting for another instance's migration) it answers at once with database.status `starting` while other requests wait for start-up; after it, 200 when the database answers and 503 when it does not. A load balancer restarts an instance by this and routes traffic by GET /api/health/ready.",
  tag: "System",
  auth: "none",
  responses: {
    200: {
      description: "Up",
      schema: z.object({ status: z.literal("ok"), database: z.object({ kind: z.string(), status: z.string() }) }),
    },
    503: { description: "The database does not answer" },
  },
  handler: async ({ db }) => {
    const kind = databaseTarget().kind;
    try {
      await db.$queryRaw`SELECT 1`;
      return { status: 200, body: { status: "ok", database: { kind, status: "ok" } } };
    } catch {
      return { status: 503, body: { status: "degraded", database: { kind, status: "error" } } };
    }
  },
});

const ReadyOut = z.object({
  status: z.enum(["ready", "starting", "failed"]),
  since: z.string().describe("when the state began (ISO 8601)"),
  detail: z.string().optional(),
  database: z.object({ kind: z.string(), status: z.string() }),
});

export const ready = defineEndpoint({
  method: "GET",
  path: "/api/health/ready",
  operationId: "healthReady",
  summary: "Readiness: may this instance take traffic? (no auth)",
  description:
    "200 only after start-up work is done on this instance (pending migrations applied, another instance's migration waited for, access bootstrapped, interrupted traces swept, the evaluation worker started, and with FLOWBENCH_SEED_SAMPLE_AGENT=on the sample agent seeded: detail `seeding the sample agent` meanwhile; a failed seed is logged and does not hold readiness) and while its database answers; 503 with status starting or failed before that. Route a load balancer's traffic by this; use GET /api/health for liveness.",
  tag: "System",
  auth: "none",
  responses: {
    200: { description: "Ready", schema: ReadyOut },
    503: { description: "Starting, failed, or the database does not answer", schema: ReadyOut },
  },
  handler: async ({ db }) => {
    const kind = databaseTarget().kind;
    const r = readiness();
    let database = "ok";
    if (r.state === "ready") {
      try {
        await db.$queryRaw`SELECT 1`;
      } catch {
        database = "error";
      }
    } else database = "unknown";
    const ok = r.state === "ready" && database === "ok";
    const body = {
      status: r.state,
      since: r.since,
      ...(r.detail ? { detail: r.detail } : {}),
      database: { kind, status: database },
    };
    return { status: ok ? 200 : 503, body };
  },
});
