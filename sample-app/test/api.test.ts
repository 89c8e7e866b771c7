// The whole service in-process on an ephemeral port with a temp PGlite folder, over real HTTP.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractChecker } from "../contract/validate.ts";
import { createApp } from "../src/app.ts";
import type { Database } from "../src/db.ts";
import { SEED_SCENES } from "../src/seed-data.ts";
import { serveApp, startApp, type RunningApp, type RunningServer } from "../src/server.ts";
import { captureLogger, fetchJson, makeTempDir, pgliteConfig } from "./helpers.ts";

const check = createContractChecker();
const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

interface Scene {
  id: string;
  name: string;
  dishCount: number;
  timeOfDay: string;
}
interface Dish {
  id: string;
  name: string;
  nameZh: string;
  price: number;
}

describe("meal-scenes API", () => {
  const temp = makeTempDir();
  const { logger, lines } = captureLogger();
  let app: RunningApp;
  let scenes: Scene[];

  beforeAll(async () => {
    app = await startApp(pgliteConfig(`${temp.dir}/nested/pglite`), { logger });
    const res = await fetchJson(`${app.url}/api/meal-scenes`);
    scenes = (res.body as { scenes: Scene[] }).scenes;
  });
  afterAll(async () => {
    await app?.close();
    temp.remove();
  });

  it("GET /health is ok, names the service, its package version and the database kind", async () => {
    const res = await fetchJson(`${app.url}/health`);
    expect(res.status).toBe(200);
    expect(check("health", res.body)).toEqual([]);
    expect(res.body).toEqual({
      status: "ok",
      service: "meal-scenes",
      version: packageVersion,
      database: { status: "ok", kind: "pglite" },
    });
  });

  it("GET /api/meal-scenes matches the contract and lists at least five scenes", async () => {
    const res = await fetchJson(`${app.url}/api/meal-scenes`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(check("meal-scenes", res.body)).toEqual([]);
    expect(scenes.length).toBeGreaterThanOrEqual(5);
    expect(new Set(scenes.map((s) => s.id)).size).toBe(scenes.length);
    expect(new Set(scenes.map((s) => s.timeOfDay))).toEqual(
      new Set(["morning", "midday", "afternoon", "evening", "late_night"]),
    );
    expect(scenes.map((s) => s.id)).toEqual(SEED_SCENES.map((s) => s.id));
  });

  it("GET /api/dishes?scene=<id> is non-empty and matches the contract for every scene", async () => {
    const names: string[] = [];
    for (const scene of scenes) {
      const res = await fetchJson(`${app.url}/api/dishes?scene=${encodeURIComponent(scene.id)}`);
      expect(res.status, scene.id).toBe(200);
      expect(check("dishes", res.body), scene.id).toEqual([]);
      const body = res.body as { scene: { id: string; name: string }; dishes: Dish[] };
      expect(body.scene).toEqual({ id: scene.id, name: scene.name });
      expect(body.dishes.length).toBe(scene.dishCount);
      expect(body.dishes.length).toBeGreaterThanOrEqual(4);
      expect(body.dishes.length).toBeLessThanOrEqual(8);
      names.push(...body.dishes.map((d) => d.name));
    }
    // Distinct names across scenes make a fabricated or misattributed dish detectable.
    expect(new Set(names).size).toBe(names.length);
  });

  it("keeps prices exact (numeric in the database, a JSON number in yuan)", async () => {
    const res = await fetchJson(`${app.url}/api/dishes?scene=late-night-snack`);
    const crayfish = (res.body as { dishes: Dish[] }).dishes.find((d) => d.id === "mala-crayfish");
    expect(crayfish).toMatchObject({ price: 128, nameZh: "麻辣小龙虾（500克）" });
  });

  it.each([
    ["missing", "/api/dishes"],
    ["empty", "/api/dishes?scene="],
    ["blank", "/api/dishes?scene=%20%20"],
  ])("GET /api/dishes with the scene %s is 400 SCENE_REQUIRED", async (_case, path) => {
    const res = await fetchJson(`${app.url}${path}`);
    expect(res.status).toBe(400);
    expect(check("error", res.body)).toEqual([]);
    expect(res.body).toMatchObject({ error: { code: "SCENE_REQUIRED", details: [{ field: "scene" }] } });
  });

  it("GET /api/dishes with an unknown scene is 404 SCENE_NOT_FOUND pointing to /api/meal-scenes, never an empty 200", async () => {
    for (const scene of ["dessert-buffet", "BREAKFAST", "breakfast'; DROP TABLE dishes; --", "x".repeat(500)]) {
      const res = await fetchJson(`${app.url}/api/dishes?scene=${encodeURIComponent(scene)}`);
      expect(res.status, scene).toBe(404);
      expect(check("error", res.body)).toEqual([]);
      const error = (res.body as { error: { code: string; message: string; details: Array<{ allowed?: string[] }> } })
        .error;
      expect(error.code).toBe("SCENE_NOT_FOUND");
      expect(error.message).toContain("GET /api/meal-scenes");
      expect(error.message.length).toBeLessThan(200);
      expect(error.details[0]?.allowed).toEqual(scenes.map((s) => s.id));
    }
    // The injection attempt above was just an unknown id.
    expect((await fetchJson(`${app.url}/api/dishes?scene=breakfast`)).status).toBe(200);
  });

  it.each(["GET", "POST", "DELETE"])(
    "%s /api/stages is 410 ENDPOINT_REMOVED pointing to /api/meal-scenes",
    async (method) => {
      for (const path of ["/api/stages", "/api/stages/3", "/api/stages?scene=breakfast"]) {
        const res = await fetchJson(`${app.url}${path}`, { method });
        expect(res.status, path).toBe(410);
        expect(check("error", res.body)).toEqual([]);
        expect(res.body).toMatchObject({ error: { code: "ENDPOINT_REMOVED" } });
        expect(JSON.stringify(res.body)).toContain("/api/meal-scenes");
      }
    },
  );

  it("unknown paths are a JSON 404, wrong methods a JSON 405 with Allow", async () => {
    for (const path of ["/", "/api", "/api/meal-scenes/breakfast", "/index.html"]) {
      const res = await fetchJson(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(check("error", res.body)).toEqual([]);
      expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
    const res = await fetchJson(`${app.url}/api/meal-scenes`, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(check("error", res.body)).toEqual([]);
  });

  it("HEAD /health answers without a body", async () => {
    const res = await fetch(`${app.url}/health`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("writes one structured request log line per request (method, path, status, duration)", async () => {
    await fetchJson(`${app.url}/api/dishes?scene=afternoon-tea`);
    const line = lines.filter((l) => l.msg === "request" && l.path === "/api/dishes").at(-1);
    expect(line).toMatchObject({ level: "info", service: "meal-scenes", method: "GET", status: 200 });
    expect(typeof line?.durationMs).toBe("number");
    expect(typeof line?.time).toBe("string");
  });
});

describe("failures", () => {
  const failingDb: Database = {
    kind: "postgresql",
    query: () => Promise.reject(new Error("connection terminated: secret-internal-detail")),
    transaction: () => Promise.reject(new Error("unused")),
    ping: () => Promise.reject(new Error("connection refused")),
    close: () => Promise.resolve(),
  };
  const { logger, lines } = captureLogger();
  let server: RunningServer;
  beforeAll(async () => {
    server = await serveApp(createApp({ db: failingDb, logger }), 0);
  });
  afterAll(() => server?.close());

  it("GET /health is 503 degraded when the database check fails", async () => {
    const res = await fetchJson(`${server.url}/health`);
    expect(res.status).toBe(503);
    expect(check("health", res.body)).toEqual([]);
    expect(res.body).toMatchObject({ status: "degraded", database: { status: "error", kind: "postgresql" } });
  });

  it("an internal error is a JSON 500 without stack or internals; the details go to the log", async () => {
    const res = await fetchJson(`${server.url}/api/meal-scenes`);
    expect(res.status).toBe(500);
    expect(check("error", res.body)).toEqual([]);
    expect(JSON.stringify(res.body)).not.toMatch(/secret-internal-detail|at .*\.ts/);
    const logged = lines.find((l) => l.msg === "unhandled error");
    expect(JSON.stringify(logged)).toContain("secret-internal-detail");
    expect(lines.find((l) => l.msg === "request" && l.status === 500)?.level).toBe("error");
  });
});

describe("logger", () => {
  it("filters by level", () => {
    const { logger, lines } = captureLogger("warn");
    logger.debug("a");
    logger.info("b");
    logger.warn("c");
    logger.error("d", { err: new Error("boom") });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "c"],
      ["error", "d"],
    ]);
    expect(lines[1]?.err).toMatchObject({ name: "Error", message: "boom" });
  });
});
