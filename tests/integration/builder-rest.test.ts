import http from "node:http";
import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, tokenWithRole, trpc, trpcErrorOf } from "./client";

for (const server of servers()) {
  describe(`builder REST on ${server.name}`, () => {
    it("serves the node-type contract with JSON Schema per type, template syntax and recipes", async () => {
      const res = await api(server, "GET", "/api/builder/node-types");
      expect(res.status).toBe(200);
      const types = res.body.nodeTypes.map((t: { type: string }) => t.type);
      expect(types).toEqual(["start", "end", "llm", "http", "condition", "code", "memory_load", "memory_save"]);
      for (const t of res.body.nodeTypes) {
        expect(t.jsonSchema, t.type).toBeTypeOf("object");
        expect(t.example, t.type).toBeTypeOf("object");
      }
      const llm = res.body.nodeTypes.find((t: { type: string }) => t.type === "llm");
      expect(llm.requiredAnyOf).toEqual([["userPrompt", "user_prompt", "prompt_template"]]);
      expect(res.body.templateSyntax).toBeTruthy();
      expect(res.body.recipes).toEqual(expect.arrayContaining(["minimal", "http_call_thin"]));
    });

    it("validates the spec's minimal workflow with 200 and stores nothing", async () => {
      const before = await api(server, "GET", "/api/builder/agents?limit=200");
      const res = await api(server, "POST", "/api/builder/validate", { body: { workflow: minimalWorkflow() } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: true, errors: [] });
      expect(Array.isArray(res.body.warnings)).toBe(true);
      const after = await api(server, "GET", "/api/builder/agents?limit=200");
      expect(after.body.items.length).toBe(before.body.items.length);
    });

    it("answers 400 with the missing-config code at /workflow/nodes/1/config when the llm has no userPrompt", async () => {
      const wf = minimalWorkflow();
      delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
      const res = await api(server, "POST", "/api/builder/validate", { body: { workflow: wf } });
      expect(res.status).toBe(400);
      expect(res.body.valid).toBe(false);
      expect(res.body.errors).toContainEqual(
        expect.objectContaining({
          code: "NODE_CONFIG_MISSING_REQUIRED",
          path: "/workflow/nodes/1/config",
          nodeId: "llm_1",
          severity: "error",
        }),
      );
      expect(res.body.error.code).toBe("WORKFLOW_INVALID");
    });

    it("reports every wrong type with its path, not just the first", async () => {
      const res = await api(server, "POST", "/api/builder/validate", {
        body: {
          workflow: { nodes: [{ id: 1, type: "start", config: [], position: { x: "a", y: 0 } }, "x"], edges: {} },
        },
      });
      expect(res.status).toBe(400);
      const paths = res.body.errors.map((f: { path: string }) => f.path);
      expect(paths).toEqual(expect.arrayContaining(["/workflow/nodes/0/id", "/workflow/nodes/1", "/workflow/edges"]));
      expect(paths.some((p: string) => p.startsWith("/workflow/nodes/0/position"))).toBe(true);
    });

    it("answers bad input with clear 4xx codes, never a 5xx or HTML", async () => {
      const bad = await api(server, "POST", "/api/builder/validate", { rawBody: "{not json" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("INVALID_JSON");
      const empty = await api(server, "POST", "/api/builder/validate", { rawBody: "" });
      expect(empty.status).toBe(400);
      expect(empty.body.error.code).toBe("REQUEST_INVALID");
      const media = await api(server, "POST", "/api/builder/validate", {
        rawBody: "workflow",
        headers: { "content-type": "text/plain" },
      });
      expect(media.status).toBe(415);
      expect(media.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      const nullWorkflow = await api(server, "POST", "/api/builder/validate", { body: { workflow: null } });
      expect(nullWorkflow.status).toBe(400);
      const notObject = await api(server, "POST", "/api/builder/validate", { body: [1, 2] });
      expect(notObject.status).toBe(400);
      const unknownPath = await api(server, "GET", "/api/builder/nope");
      expect(unknownPath.status).toBe(404);
      expect(unknownPath.body.error.code).toBe("NOT_FOUND");
    });

    it("version numbers beyond the database's 32-bit integer are a 400, never a 5xx", async () => {
      const list = await api(server, "GET", "/api/builder/agents");
      const agentId = list.body.agents?.[0]?.id ?? list.body.items?.[0]?.id ?? "x";
      for (const path of [
        `/api/builder/agents/${agentId}/versions/2147483648`,
        `/api/eval/sets/x/versions/9007199254740991`,
      ]) {
        const res = await api(server, "GET", path);
        expect(res.status, path).toBe(400);
        expect(res.body.error.code).toBe("REQUEST_INVALID");
      }
      expect((await api(server, "GET", `/api/builder/agents/${agentId}/versions/2147483647`)).status).toBe(404);
    });

    it("text PostgreSQL cannot store (NUL, unpaired surrogates) is a 400 naming the field on REST and tRPC, never a 5xx", async () => {
      const cases: Array<[string, string, unknown?]> = [
        ["GET", "/api/builder/agents?q=%00"],
        ["GET", "/api/eval/runs/compare?run_a=a%00&run_b=b"],
        ["POST", "/api/builder/agents", { name: "nul\u0000name", workflow: minimalWorkflow() }],
        ["POST", "/api/builder/agents", { name: "lone \ud800 surrogate", workflow: minimalWorkflow() }],
        ["POST", "/api/eval/sets", { agentId: "x", name: "a\u0000", kind: "golden", gateThreshold: 1 }],
      ];
      for (const [method, path, body] of cases) {
        // JSON.stringify writes NUL and a lone surrogate as \u escapes; JSON.parse on the server restores them
        const res = await api(server, method, path, body === undefined ? {} : { body });
        expect(res.status, `${method} ${path} ${res.text}`).toBe(400);
        expect(res.body.error.code).toBe("REQUEST_INVALID");
        expect(res.body.error.details[0].code).toBe("unstorable_text");
      }
      const nul = await api(server, "POST", "/api/builder/agents", {
        rawBody: '{"name":"x\\u0000y","workflow":{"nodes":[],"edges":[]}}',
      });
      expect(nul.body.error.details[0].path).toBe("/name");
      // tRPC: the same rule, the same code
      const err = trpcErrorOf(
        await trpc(server)
          .builder.agents.create.mutate({ name: "a\u0000b", workflow: minimalWorkflow() } as never)
          .catch((e) => e),
      );
      expect(err.httpStatus).toBe(400);
      expect(err.appCode).toBe("REQUEST_INVALID");
      // impossible days are a 400 too (year 0000 cannot be stored)
      const usage = await api(server, "GET", "/api/eval/usage?from=0000-01-01");
      expect(usage.status).toBe(400);
      expect(usage.body.error.code).toBe("REQUEST_INVALID");
    });

    it("a standard method a path does not serve is a 405 with the JSON error shape and an Allow header", async () => {
      const res = await api(server, "DELETE", "/api/health");
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe("METHOD_NOT_ALLOWED");
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      const put = await api(server, "PUT", "/api/builder/agents", { body: {} });
      expect(put.status).toBe(405);
      expect(put.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
      // methods Next.js cannot represent: 405 in the same shape, not its 500 text/plain
      for (const method of ["TRACE", "PROPFIND"]) {
        // fetch refuses to send TRACE: node:http does
        const res = await new Promise<{ status: number; allow: string | undefined; body: string }>(
          (resolve, reject) => {
            const req = http.request(`${server.url}/api/builder/agents`, { method }, (r) => {
              let body = "";
              r.on("data", (c: Buffer) => (body += c.toString()));
              r.on("end", () => resolve({ status: r.statusCode ?? 0, allow: r.headers.allow, body }));
            });
            req.on("error", reject);
            req.end();
          },
        );
        expect(res.status, method).toBe(405);
        expect(res.allow).toBe("GET, POST, HEAD, OPTIONS"); // the route's methods (every path: methods.test.ts)
        expect(JSON.parse(res.body).error.code).toBe("METHOD_NOT_ALLOWED");
      }
      // an undecodable path is a 400, not Next's 500
      const bad = await api(server, "GET", "/api/traces/%ED%A0%80");
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("REQUEST_INVALID");
    });

    it("deleting an agent that owns a frozen evaluation set is a 409 naming the set; after the set is deleted the agent can go", async () => {
      const created = await api(server, "POST", "/api/builder/agents", {
        body: { name: "Owns a frozen set", workflow: minimalWorkflow() },
      });
      const agentId = created.body.agent.id as string;
      const set = await api(server, "POST", "/api/eval/sets", {
        body: { agentId, name: "Frozen evidence", kind: "golden", gateThreshold: 1 },
      });
      expect(set.status).toBe(201);
      const imported = await api(server, "POST", `/api/eval/sets/${set.body.id}/versions/1/import`, {
        body: { format: "json", content: JSON.stringify([{ question: "q1", expectedPoints: ["p"] }]) },
      });
      expect(imported.status, imported.text).toBe(200);
      expect((await api(server, "POST", `/api/eval/sets/${set.body.id}/versions/1/freeze`)).status).toBe(200);
      const refused = await api(server, "DELETE", `/api/builder/agents/${agentId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("AGENT_HAS_FROZEN_SETS");
      expect(refused.body.error.message).toContain("Frozen evidence");
      expect((await api(server, "GET", `/api/builder/agents/${agentId}`)).status).toBe(200);
      expect((await api(server, "DELETE", `/api/eval/sets/${set.body.id}`)).status).toBe(204);
      expect((await api(server, "DELETE", `/api/builder/agents/${agentId}`)).status).toBe(204);
    });

    it("refuses a body over the documented limit with 413", async () => {
      const limits = (await api(server, "GET", "/api/builder/node-types")).body.limits;
      const big = JSON.stringify({ workflow: { nodes: [], edges: [], pad: "x".repeat(limits.maxBodyBytes + 10) } });
      const res = await api(server, "POST", "/api/builder/validate", { rawBody: big });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    });

    it("provisions an agent, adds versions, lists and reads them", async () => {
      const created = await api(server, "POST", "/api/builder/agents", {
        body: { name: "Minimal agent", workflow: minimalWorkflow(), note: "first" },
      });
      expect(created.status).toBe(201);
      expect(created.body.version.version).toBe(1);
      const id = created.body.agent.id as string;

      const wf2 = minimalWorkflow();
      (wf2.nodes[1]!.config as Record<string, unknown>).temperature = 0.3;
      const v2 = await api(server, "POST", `/api/builder/agents/${id}/versions`, {
        body: { workflow: wf2, note: "cooler" },
      });
      expect(v2.status).toBe(201);
      expect(v2.body.version.version).toBe(2);

      const list = await api(server, "GET", `/api/builder/agents/${id}/versions`);
      expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      const one = await api(server, "GET", `/api/builder/agents/${id}/versions/2`);
      expect(one.status).toBe(200);
      expect(one.body.workflow.nodes[1].config.temperature).toBe(0.3);
      const agent = await api(server, "GET", `/api/builder/agents/${id}`);
      expect(agent.body).toMatchObject({ id, name: "Minimal agent", latestVersion: 2 });
      expect(agent.body.latest.version).toBe(2);
      const agents = await api(server, "GET", "/api/builder/agents?q=minimal%20agent");
      const listed = agents.body.items.find((a: { id: string }) => a.id === id);
      expect(listed.latestSummary).toEqual({ warningCount: 0, nodeCount: 3, nodeTypes: ["start", "llm", "end"] });

      expect((await api(server, "GET", `/api/builder/agents/${id}/versions/9`)).status).toBe(404);
      expect((await api(server, "GET", `/api/builder/agents/nope/versions`)).status).toBe(404);
      expect((await api(server, "GET", `/api/builder/agents/${id}/versions/abc`)).status).toBe(400);
    });

    it("refuses to provision an invalid workflow with the same findings and stores nothing", async () => {
      const created = await api(server, "POST", "/api/builder/agents", {
        body: { name: "Keep me", workflow: minimalWorkflow() },
      });
      const id = created.body.agent.id as string;
      const wf = minimalWorkflow();
      delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
      const refused = await api(server, "POST", `/api/builder/agents/${id}/versions`, { body: { workflow: wf } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toContainEqual(
        expect.objectContaining({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" }),
      );
      const versions = await api(server, "GET", `/api/builder/agents/${id}/versions`);
      expect(versions.body.items).toHaveLength(1);

      const before = (await api(server, "GET", "/api/builder/agents?limit=200")).body.items.length;
      const refusedNew = await api(server, "POST", "/api/builder/agents", { body: { name: "Broken", workflow: wf } });
      expect(refusedNew.status).toBe(400);
      expect((await api(server, "GET", "/api/builder/agents?limit=200")).body.items.length).toBe(before);
      const noName = await api(server, "POST", "/api/builder/agents", { body: { workflow: minimalWorkflow() } });
      expect(noName.status).toBe(400);
      expect(noName.body.error.code).toBe("REQUEST_INVALID");
    });

    it("numbers concurrent provisions without gaps or duplicates", async () => {
      const created = await api(server, "POST", "/api/builder/agents", {
        body: { name: "Concurrent", workflow: minimalWorkflow() },
      });
      const id = created.body.agent.id as string;
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          api(server, "POST", `/api/builder/agents/${id}/versions`, { body: { workflow: minimalWorkflow() } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(results.map((r) => r.body.version.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it("serves recipes; http_call_thin can be fetched, pointed at a real url, validated and provisioned", async () => {
      const list = await api(server, "GET", "/api/builder/recipes");
      expect(list.body.items.map((r: { name: string }) => r.name)).toEqual(
        expect.arrayContaining(["minimal", "http_call_thin"]),
      );
      const recipe = await api(server, "GET", "/api/builder/recipes/http_call_thin");
      expect(recipe.status).toBe(200);
      const wf = recipe.body.workflow;
      const http = wf.nodes.find((n: { type: string }) => n.type === "http");
      expect(http.config.method ?? "GET").toBe("GET");
      http.config.url = "https://api.example.com/api/dishes?scene={{start.query}}";
      const valid = await api(server, "POST", "/api/builder/validate", { body: { workflow: wf } });
      expect(valid.status).toBe(200);
      const provisioned = await api(server, "POST", "/api/builder/agents", {
        body: { name: "From recipe", workflow: wf },
      });
      expect(provisioned.status).toBe(201);
      expect((await api(server, "GET", "/api/builder/recipes/nope")).status).toBe(404);
    });

    it("lets a builder rename and delete an agent", async () => {
      const builder = await tokenWithRole(server, "builder");
      const created = await api(server, "POST", "/api/builder/agents", {
        token: builder,
        body: { name: "Temp", workflow: minimalWorkflow() },
      });
      expect(created.status).toBe(201);
      const id = created.body.agent.id;
      const renamed = await api(server, "PATCH", `/api/builder/agents/${id}`, {
        token: builder,
        body: { name: "Renamed" },
      });
      expect(renamed.body.name).toBe("Renamed");
      expect((await api(server, "DELETE", `/api/builder/agents/${id}`, { token: builder })).status).toBe(204);
      expect((await api(server, "GET", `/api/builder/agents/${id}`)).status).toBe(404);
      expect((await api(server, "DELETE", `/api/builder/agents/${id}`, { token: builder })).status).toBe(404);
    });
  });
}
