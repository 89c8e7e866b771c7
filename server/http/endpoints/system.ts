import { z } from "zod";
import { defineEndpoint } from "../endpoint";
import { databaseTarget } from "../../db/client";
import { readiness } from "../../core/readiness";
import { ApiError, ErrorOut } from "../../core/errors";
import { BACKUP_FOLDER_HEADER, BACKUP_SCHEMA_HEADER, backupRunningEmbedded, folderIdentity } from "../../db/backup";

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

export const backup = defineEndpoint({
  method: "GET",
  path: "/api/admin/backup",
  operationId: "adminBackup",
  summary: "A backup of the embedded database, taken while the server runs",
  description: [
    "The embedded database's folder as a gzipped tar (the format `npm run db:restore -- FILE` reads), taken by this server from its own open database, so the platform keeps serving: a checkpoint, then one copy of the folder between two statements, consistent as of that moment.",
    "The `x-flowbench-schema` header names the newest migration it holds, `x-flowbench-database-folder` the folder it is of. `npm run db:backup -- FILE` asks for it when the server has the database open and FLOWBENCH_URL and FLOWBENCH_TOKEN are set, and writes nothing when the server runs on another folder.",
    "On PostgreSQL: 409 BACKUP_NOT_EMBEDDED; back up with `npm run db:backup -- FILE` (pg_dump, consistent while servers run).",
  ].join(" "),
  tag: "System",
  auth: "token",
  permission: "admin",
  responses: {
    200: { description: "The backup (application/gzip, attachment)" },
    409: { description: "BACKUP_NOT_EMBEDDED: this server does not run on an embedded database", schema: ErrorOut },
  },
  handler: async () => {
    const target = databaseTarget();
    if (target.kind !== "pglite" || target.dataDir.startsWith("memory://"))
      throw new ApiError(
        409,
        "BACKUP_NOT_EMBEDDED",
        target.kind === "pglite"
          ? "This server's embedded database is in memory: there is nothing on disk to back up"
          : "This server runs on PostgreSQL: back up with `npm run db:backup -- FILE` (pg_dump, consistent while servers run)",
      );
    const { blob, migrations } = await backupRunningEmbedded(target);
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    return new Response(blob, {
      status: 200,
      headers: {
        "content-type": "application/gzip",
        "content-disposition": `attachment; filename="flowbench-${stamp}.backup"`,
        "cache-control": "no-store",
        [BACKUP_SCHEMA_HEADER]: migrations.at(-1) ?? "",
        [BACKUP_FOLDER_HEADER]: folderIdentity(target.dataDir),
      },
    });
  },
});
