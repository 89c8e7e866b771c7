import { z } from "zod";
import { defineEndpoint } from "../endpoint";
import { databaseTarget } from "../../db/client";

export const health = defineEndpoint({
  method: "GET",
  path: "/api/health",
  operationId: "health",
  summary: "Liveness and database status (no auth)",
  tag: "System",
  auth: "none",
  responses: {
    200: { description: "Up", schema: z.object({ status: z.literal("ok"), database: z.object({ kind: z.string(), status: z.string() }) }) },
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
