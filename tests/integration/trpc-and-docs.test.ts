import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/server/http/endpoints";
import type { RestEndpoint } from "@/server/http/rest";
import { api, minimalWorkflow, ok, servers, shapeServers, trpc, trpcErrorOf } from "./client";
import { ROOT } from "../../scripts/lib/app-server";

/** Every app/api route file, as an OpenAPI-style path with its exported methods. */
function routeFiles(): Array<{ path: string; methods: string[] }> {
  const out: Array<{ path: string; methods: string[] }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const rel = path.relative(path.join(ROOT, "app"), path.dirname(full)).split(path.sep);
        // catch-alls (404 fallback, next-auth, tRPC) are framework plumbing, documented in the description
        if (rel.some((s) => s.startsWith("[...") || s === "[trpc]")) continue;
        const src = fs.readFileSync(full, "utf8");
        const methods = [...src.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
        out.push({ path: `/${rel.map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`, methods });
      }
    }
  };
  walk(path.join(ROOT, "app", "api"));
  return out;
}

for (const server of shapeServers()) {
  describe(`tRPC, OpenAPI and docs on ${server.name}`, () => {
    it("tRPC builder exposes the same validate and provisioning", async () => {
      const client = trpc(server);
      const ok = await client.builder.validate.mutate({ workflow: minimalWorkflow() });
      expect(ok).toMatchObject({ valid: true, errors: [] });
      const wf = minimalWorkflow();
      delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
      const bad = await client.builder.validate.mutate({ workflow: wf });
      expect(bad.valid).toBe(false);
      expect(bad.errors).toContainEqual(
        expect.objectContaining({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" }),
      );

      const created = await client.builder.agents.create.mutate({ name: "via tRPC", workflow: minimalWorkflow() });
      expect(created.version.version).toBe(1);
      const v2 = await client.builder.versions.create.mutate({
        id: created.agent.id,
        body: { workflow: minimalWorkflow(), note: "v2" },
      });
      expect(v2.version.version).toBe(2);
      const versions = await client.builder.versions.list.query({ id: created.agent.id });
      expect(versions.items.map((v) => v.version)).toEqual([2, 1]); // `{ items }`, as over REST
      const refused = trpcErrorOf(
        await client.builder.versions.create.mutate({ id: created.agent.id, body: { workflow: wf } }).catch((e) => e),
      );
      expect(refused.httpStatus).toBe(400);
      expect(refused.appCode).toBe("WORKFLOW_INVALID");
      const types = await client.builder.nodeTypes.query();
      expect(types.nodeTypes).toHaveLength(8);
    });

    it("OpenAPI 3.1 lists every REST path and method of the app", async () => {
      const res = await api(server, "GET", "/api/openapi.json", { token: null });
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe("3.1.0");
      for (const route of routeFiles()) {
        if (route.path.startsWith("/docs")) continue;
        for (const m of route.methods)
          expect(res.body.paths[route.path]?.[m.toLowerCase()], `${m} ${route.path}`).toBeTruthy();
      }
      expect(Object.keys(res.body.paths).length).toBe(new Set(ENDPOINTS.map((e) => e.path)).size);
      expect(res.body.paths["/api/builder/validate"].post.responses["400"]).toBeTruthy();
      // every protected operation documents 401, and 403 when it needs a permission
      for (const e of ENDPOINTS.filter((x) => x.auth !== "none")) {
        const op = res.body.paths[e.path][e.method.toLowerCase()];
        expect(op.responses["401"], `${e.method} ${e.path}`).toBeTruthy();
        if (e.permission) expect(op.responses["403"], `${e.method} ${e.path}`).toBeTruthy();
      }
      expect(res.body.info.description).toContain("NODE_CONFIG_MISSING_REQUIRED");
    });

    it("each operation's description in the served document is the one its declaration carries", async () => {
      const res = await api(server, "GET", "/api/openapi.json", { token: null });
      const described = ENDPOINTS.filter((e) => "operation" in e && (e as RestEndpoint).operation.description);
      // which operations must carry a description is server/http/openapi.test.ts's rule; here: each is served as declared
      expect(described.length).toBeGreaterThan(0);
      for (const e of described as RestEndpoint[]) {
        const served: string = res.body.paths[e.path][e.method.toLowerCase()].description;
        expect(served.startsWith(e.operation.description ?? ""), e.operationId).toBe(true);
      }
      const at = (path: string, method: string): string => res.body.paths[path][method].description;
      expect(at("/api/eval/runs/{id}/items/{itemId}/verdict/undo", "post")).toContain("409 VERDICT_NOT_UNDOABLE");
      expect(at("/api/eval/runs/{id}/gate", "get")).toContain("a regression_pool run never passes");
    });

    it("/docs is a readable reference served without any CDN", async () => {
      const page = await fetch(`${server.url}/docs`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("/api/openapi.json");
      const external = [...html.matchAll(/(?:src|href)="(https?:\/\/[^"]+)"/g)].map((m) => m[1]);
      expect(external).toEqual([]);
      const asset = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain("javascript");
      expect((await fetch(`${server.url}/docs/assets/swagger-ui.css`)).status).toBe(200);
      expect((await fetch(`${server.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    });

    it("state conflicts are 409 as the code table says: closing answers of an in-platform run, freezing an empty version", async () => {
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", { body: { name: "conflicts", workflow: minimalWorkflow() } }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "conflicts", kind: "golden", gateThreshold: 1 },
        }),
        201,
      );
      const empty = await api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`);
      expect([empty.status, empty.body.error.code]).toEqual([409, "SET_VERSION_INCOMPLETE"]);
      const rows = [{ key: "q01", question: "Which dish?", expected_points: ["names a dish"] }];
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(rows) },
        }),
      );
      const frozen = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: frozen.id, mode: "in_platform", tier: "pipeline" },
        }),
        201,
      );
      const close = await api(server, "POST", `/api/eval/runs/${run.id}/close`);
      expect([close.status, close.body.error.code]).toEqual([409, "RUN_MODE_MISMATCH"]);
      const pasted = await api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
        body: { answers: [{ key: "q01", answer: "x" }] },
      });
      expect([pasted.status, pasted.body.error.code]).toEqual([409, "RUN_MODE_MISMATCH"]);
      const viaTrpc = trpcErrorOf(
        await trpc(server)
          .eval.runs.close.mutate({ id: run.id })
          .catch((e) => e),
      );
      expect([viaTrpc.httpStatus, viaTrpc.appCode]).toEqual([409, "RUN_MODE_MISMATCH"]);
    });
  });
}

// the one answer here that depends on the database: it names it
for (const server of servers()) {
  describe(`health on ${server.name}`, () => {
    it("health answers without auth and names the database", async () => {
      const res = await api(server, "GET", "/api/health", { token: null });
      expect(res.body).toEqual({ status: "ok", database: { kind: server.name, status: "ok" } });
    });
  });
}
