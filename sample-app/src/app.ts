// HTTP surface of the meal-scenes API. Every response is JSON, errors included, in the shape
// { error: { code, message, details } } so a calling agent can branch on `code`.
import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Database } from "./db.ts";
import type { Logger } from "./logger.ts";
import { findSceneDishes, listScenes } from "./menu.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "./package-info.ts";

export type ErrorCode =
  | "SCENE_REQUIRED"
  | "SCENE_NOT_FOUND"
  | "ENDPOINT_REMOVED"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "INTERNAL_ERROR";

export interface ErrorDetail {
  field: string;
  message: string;
  allowed?: string[];
}

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  details: ErrorDetail[] = [],
) {
  return c.json({ error: { code, message, details } }, status);
}

export interface AppDeps {
  db: Database;
  logger: Logger;
}

export function createApp({ db, logger }: AppDeps): Hono {
  const app = new Hono();

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const fields = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    // Health probes arrive every few seconds; keep them out of the info stream.
    if (c.res.status >= 500) logger.error("request", fields);
    else if (c.req.path === "/health" && c.res.status < 400) logger.debug("request", fields);
    else logger.info("request", fields);
  });

  app.get("/health", async (c) => {
    let healthy = true;
    try {
      await db.ping();
    } catch (err) {
      healthy = false;
      logger.warn("health check: database unreachable", { err });
    }
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        status: healthy ? "ok" : "degraded",
        service: SERVICE_NAME,
        version: SERVICE_VERSION,
        database: { status: healthy ? "ok" : "error", kind: db.kind },
      },
      healthy ? 200 : 503,
    );
  });

  app.get("/api/meal-scenes", async (c) => c.json({ scenes: await listScenes(db) }));

  app.get("/api/dishes", async (c) => {
    const sceneId = c.req.query("scene")?.trim();
    if (!sceneId) {
      return errorResponse(
        c,
        400,
        "SCENE_REQUIRED",
        "Query parameter `scene` is required, e.g. GET /api/dishes?scene=breakfast. List scene ids with GET /api/meal-scenes.",
        [{ field: "scene", message: "required query parameter (a scene id from GET /api/meal-scenes)" }],
      );
    }
    const result = await findSceneDishes(db, sceneId);
    if (!result) {
      const allowed = (await listScenes(db)).map((s) => s.id);
      const shown = sceneId.length > 64 ? `${sceneId.slice(0, 64)}…` : sceneId;
      return errorResponse(
        c,
        404,
        "SCENE_NOT_FOUND",
        `Unknown scene "${shown}". Get the valid scene ids from GET /api/meal-scenes.`,
        [{ field: "scene", message: "not a scene id offered by GET /api/meal-scenes", allowed }],
      );
    }
    return c.json(result);
  });

  // The old path is gone for good; 410 (not 404) tells callers to switch rather than retry.
  const removed = (c: Context) =>
    errorResponse(
      c,
      410,
      "ENDPOINT_REMOVED",
      "/api/stages has been removed. Use GET /api/meal-scenes to list scenes and GET /api/dishes?scene=<id> for their dishes.",
      [{ field: "path", message: "replaced by /api/meal-scenes" }],
    );
  app.all("/api/stages", removed);
  app.all("/api/stages/*", removed);

  for (const path of ["/health", "/api/meal-scenes", "/api/dishes"]) {
    app.all(path, (c) => {
      c.header("Allow", "GET, HEAD");
      return errorResponse(c, 405, "METHOD_NOT_ALLOWED", `${c.req.method} is not supported on ${path}; use GET.`);
    });
  }

  app.notFound((c) =>
    errorResponse(
      c,
      404,
      "NOT_FOUND",
      `No endpoint ${c.req.method} ${c.req.path}. Available: GET /health, GET /api/meal-scenes, GET /api/dishes?scene=<id>.`,
    ),
  );

  // Details go to the log only: clients never see stack traces.
  app.onError((err, c) => {
    logger.error("unhandled error", { method: c.req.method, path: c.req.path, err });
    return errorResponse(c, 500, "INTERNAL_ERROR", "Internal server error. The failure has been logged.");
  });

  return app;
}
