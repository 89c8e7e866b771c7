import { createTRPCClient, httpLink } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "@/server/api/root";
import { ENDPOINTS } from "@/server/http/endpoints";
import { api, minimalWorkflow, ok, servers, shapeServers, signIn, tokenWithRole, trpc, trpcErrorOf } from "./client";

/** A concrete URL for an endpoint path, with placeholder ids (auth is checked before anything is looked up). */
function concrete(path: string): string {
  return path.replace(/\{version\}/g, "1").replace(/\{[^}]+\}/g, "x");
}

const protectedEndpoints = ENDPOINTS.filter((e) => e.auth !== "none");

// the same answer from the HTTP face on either database: on one (shapeServers)
for (const server of shapeServers()) {
  describe(`auth on every endpoint on ${server.name}`, () => {
    it.each(protectedEndpoints.map((e) => [`${e.method} ${e.path}`, e] as const))(
      "%s: 401 without or with a bad token",
      async (_name, e) => {
        const body = e.body ? { workflow: {} } : undefined;
        const none = await api(server, e.method, concrete(e.path), { token: null, body });
        expect(none.status).toBe(401);
        expect(none.body.error).toMatchObject({ code: "UNAUTHORIZED" });
        expect(none.headers.get("www-authenticate")).toBe('Bearer realm="flowbench"'); // RFC 6750: clients can tell a token is needed
        const bad = await api(server, e.method, concrete(e.path), { token: "fb_not-a-real-token", body });
        expect(bad.status).toBe(401);
        const malformed = await api(server, e.method, concrete(e.path), {
          token: null,
          body,
          headers: { authorization: "Basic abc" },
        });
        expect(malformed.status).toBe(401);
      },
    );
  });
}

// cross-site request forgery (server/auth/principal.ts crossSiteReason): the HTTP face's rule, on one database
for (const server of shapeServers()) {
  describe(`a browser session changes things only from Flowbench's own pages, on ${server.name}`, () => {
    /** A set with one question in its draft version 1 (made with the admin's token): freezing it is a body-less POST. */
    async function draftSet() {
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `csrf ${Date.now()}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "csrf set", kind: "golden", gateThreshold: 1 },
        }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: {
            format: "json",
            content: JSON.stringify([{ key: "q1", question: "breakfast?", expected_points: ["a dish"] }]),
          },
        }),
      );
      return set.id as string;
    }
    const host = new URL(server.url).host;
    const versionStatus = async (setId: string) =>
      (
        (await ok(api(server, "GET", `/api/eval/sets/${setId}`))).versions as Array<{ version: number; status: string }>
      ).find((v) => v.version === 1)?.status;

    it("REST: a POST another page makes with the session is 403 CROSS_SITE_REQUEST and changes nothing; the app's own pages, reads and tokens pass", async () => {
      const cookie = await signIn(server.url, server.adminEmail, server.adminPassword);
      const setId = await draftSet();
      const freeze = (headers: Record<string, string>, token: string | null = null) =>
        api(server, "POST", `/api/eval/sets/${setId}/versions/1/freeze`, { token, headers: { cookie, ...headers } });
      // a sibling on the same site (another port or subdomain: SameSite=Lax sends the cookie), another site, a page
      // with an opaque origin, and a browser without Sec-Fetch-Site whose Origin is another host
      const foreign: Array<Record<string, string>> = [
        { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:1" },
        { "sec-fetch-site": "cross-site", origin: "https://elsewhere.example" },
        { origin: "http://127.0.0.1:1" },
        { origin: "null" },
        { origin: `http://${host}`, "x-forwarded-host": "flowbench.example" },
      ];
      for (const headers of foreign) {
        const refused = await freeze(headers);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
        expect(refused.body.error.code).toBe("CROSS_SITE_REQUEST");
        expect(refused.body.error.message).toMatch(/only from Flowbench's own pages/);
      }
      expect(await versionStatus(setId)).toBe("draft");
      // reading is not refused, wherever the page is
      const read = await api(server, "GET", `/api/eval/sets/${setId}`, {
        token: null,
        headers: { cookie, "sec-fetch-site": "cross-site" },
      });
      expect(read.status).toBe(200);
      // a bearer token is no browser's: the same headers do not matter
      const otherSet = await draftSet();
      const byToken = await api(server, "POST", `/api/eval/sets/${otherSet}/versions/1/freeze`, {
        headers: { "sec-fetch-site": "cross-site", origin: "https://elsewhere.example" },
      });
      expect(byToken.status).toBe(200);
      // the app's own page (Sec-Fetch-Site same-origin), behind the balancer (Origin = X-Forwarded-Host), or no browser
      expect(
        (await freeze({ origin: "https://flowbench.example", "x-forwarded-host": "flowbench.example" })).status,
      ).toBe(200);
      expect(await versionStatus(setId)).toBe("frozen");
      const again = await draftSet();
      const own = await api(server, "POST", `/api/eval/sets/${again}/versions/1/freeze`, {
        token: null,
        headers: { cookie, "sec-fetch-site": "same-origin", origin: `http://${host}` },
      });
      expect(own.status).toBe(200);
      const third = await draftSet();
      const noBrowser = await api(server, "POST", `/api/eval/sets/${third}/versions/1/freeze`, {
        token: null,
        headers: { cookie },
      });
      expect(noBrowser.status).toBe(200);
    });

    it("tRPC: a mutation another page makes with the session is 403 CROSS_SITE_REQUEST; queries and the app's own pages pass", async () => {
      const cookie = await signIn(server.url, server.adminEmail, server.adminPassword);
      const name = `csrf token ${Date.now()}`;
      const create = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/trpc/admin.tokens.create`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", ...headers },
          body: JSON.stringify({ name, role: "viewer" }),
        });
      const refused = await create({ "sec-fetch-site": "same-site", origin: "http://127.0.0.1:1" });
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { error: { message: string; data: { appCode: string } } };
      expect(body.error.data.appCode).toBe("CROSS_SITE_REQUEST");
      const list = async () =>
        (
          (await (
            await fetch(`${server.url}/api/trpc/admin.tokens.list`, {
              headers: { cookie, "sec-fetch-site": "cross-site" },
            })
          ).json()) as {
            result: { data: Array<{ name: string }> };
          }
        ).result.data;
      expect((await list()).filter((t) => t.name === name)).toEqual([]); // nothing made; the query itself answered
      const own = await create({ "sec-fetch-site": "same-origin", origin: `http://${host}` });
      expect(own.status).toBe(200);
      expect((await list()).filter((t) => t.name === name)).toHaveLength(1);
    });
  });
}

// tokens, roles and sessions as stored: on both databases
for (const server of servers()) {
  describe(`auth on ${server.name}`, () => {
    it("403 for a role that may not write, with the JSON error body", async () => {
      const viewer = await tokenWithRole(server, "viewer");
      const annotator = await tokenWithRole(server, "annotator");
      for (const token of [viewer, annotator]) {
        for (const e of protectedEndpoints.filter((x) => x.permission === "builder.write")) {
          const res = await api(server, e.method, concrete(e.path), {
            token,
            body: e.body ? { name: "x", workflow: {} } : undefined,
          });
          expect(res.status, `${e.method} ${e.path}`).toBe(403);
          expect(res.body.error.code).toBe("FORBIDDEN");
        }
        // reading and validating are allowed
        expect((await api(server, "GET", "/api/builder/node-types", { token })).status).toBe(200);
      }
    });

    it("a revoked token stops working at once", async () => {
      const client = trpc(server);
      const created = await client.admin.tokens.create.mutate({ name: "to revoke", role: "builder" });
      expect((await api(server, "GET", "/api/builder/agents", { token: created.token })).status).toBe(200);
      await client.admin.tokens.revoke.mutate({ id: created.id });
      const after = await api(server, "GET", "/api/builder/agents", { token: created.token });
      expect(after.status).toBe(401);
      const listed = await client.admin.tokens.list.query();
      const row = listed.find((t) => t.id === created.id);
      expect(row?.revokedAt).toBeTruthy();
      expect(JSON.stringify(listed)).not.toContain(created.token); // never shown again
    });

    it("/api/builder/* does not accept a browser session, only a bearer token", async () => {
      const cookie = await signIn(server.url, server.adminEmail, server.adminPassword);
      const res = await fetch(`${server.url}/api/builder/agents`, { headers: { cookie } });
      expect(res.status).toBe(401);
      // the same session works on tRPC (the canvas' face)
      const me = await fetch(`${server.url}/api/trpc/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect((await me.json()).result.data.role).toBe("admin");
    });

    it("tRPC: 401 without credentials, 403 for admin procedures with a builder token", async () => {
      expect(
        trpcErrorOf(
          await trpc(server, null)
            .me.query()
            .catch((e) => e),
        ).httpStatus,
      ).toBe(401);
      const builder = await tokenWithRole(server, "builder");
      const err = trpcErrorOf(
        await trpc(server, builder)
          .admin.users.list.query()
          .catch((e) => e),
      );
      expect(err.httpStatus).toBe(403);
      expect(err.appCode).toBe("FORBIDDEN");
      expect(
        trpcErrorOf(
          await trpc(server, "fb_bad")
            .builder.nodeTypes.query()
            .catch((e) => e),
        ).httpStatus,
      ).toBe(401);
    });

    it("a new password or role ends the person's sessions at once; disabling already did (issue 28, item 4)", async () => {
      const admin = trpc(server);
      const email = `sessions-${Date.now()}@example.com`;
      const user = await admin.admin.users.create.mutate({ email, password: "password-one", role: "annotator" });
      const me = (cookie: string) => fetch(`${server.url}/api/trpc/me`, { headers: { cookie } });
      const before = await signIn(server.url, email, "password-one");
      expect((await me(before)).status).toBe(200);
      await admin.admin.users.update.mutate({ id: user.id, password: "password-two" });
      expect((await me(before)).status).toBe(401);
      await expect(signIn(server.url, email, "password-one")).rejects.toThrow(/sign-in failed/);
      const after = await signIn(server.url, email, "password-two");
      expect((await me(after)).status).toBe(200);
      await admin.admin.users.update.mutate({ id: user.id, role: "viewer" });
      expect((await me(after)).status).toBe(401);
      const third = await signIn(server.url, email, "password-two");
      expect((await (await me(third)).json()).result.data.role).toBe("viewer");
      await admin.admin.users.update.mutate({ id: user.id, disabled: true });
      expect((await me(third)).status).toBe(401);
    });

    it("an admin who changes another person's password or role in the browser keeps their own session; that person's sessions end (issue 28, item 4)", async () => {
      const email = `others-${Date.now()}@example.com`;
      const user = await trpc(server).admin.users.create.mutate({ email, password: "password-one", role: "builder" });
      // the admin's own browser session does the change, through the tRPC face the Settings page uses
      const adminCookie = await signIn(server.url, server.adminEmail, server.adminPassword);
      const asAdmin = createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${server.url}/api/trpc`, headers: () => ({ cookie: adminCookie }) })],
      });
      const me = (cookie: string) => fetch(`${server.url}/api/trpc/me`, { headers: { cookie } });
      const theirs = await signIn(server.url, email, "password-one");
      const theirOther = await signIn(server.url, email, "password-one"); // a second browser of theirs
      await asAdmin.admin.users.update.mutate({ id: user.id, password: "password-two" });
      expect((await me(theirs)).status).toBe(401);
      expect((await me(theirOther)).status).toBe(401);
      expect((await me(adminCookie)).status).toBe(200);
      const again = await signIn(server.url, email, "password-two");
      await asAdmin.admin.users.update.mutate({ id: user.id, role: "annotator" });
      expect((await me(again)).status).toBe(401);
      expect((await me(adminCookie)).status).toBe(200);
      // the same role given again is no change: the session it would end stays
      const last = await signIn(server.url, email, "password-two");
      await asAdmin.admin.users.update.mutate({ id: user.id, role: "annotator" });
      expect((await me(last)).status).toBe(200);
    });

    it("a wrong password does not sign in", async () => {
      await expect(signIn(server.url, server.adminEmail, "wrong-password")).rejects.toThrow(/sign-in failed/);
    });
  });
}
