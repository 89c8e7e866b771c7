import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { api, E2E_BASE, signIn } from "./helpers";

/**
 * Cross-site request forgery in a real browser (server/auth/principal.ts): a page on the same site as Flowbench (here
 * another port of 127.0.0.1; in a deployment another subdomain) whose form POSTs to a body-less endpoint. The
 * session cookie is SameSite=Lax, so Chromium sends it with that POST; Flowbench refuses the POST because the browser
 * says it came from another page (Sec-Fetch-Site: same-site), and the same request from Flowbench's own page works.
 */
test("a sibling page's form cannot make a signed-in browser freeze a set version; Flowbench's own page can", async ({
  page,
}) => {
  const call = api();
  const agent = await call("POST", "/api/builder/agents", {
    name: `cross-site ${Date.now()}`,
    workflow: {
      nodes: [
        { id: "start", type: "start", config: { outputs: [] }, position: { x: 0, y: 0 } },
        { id: "end", type: "end", config: { output: "ok" }, position: { x: 200, y: 0 } },
      ],
      edges: [{ source: "start", target: "end" }],
    },
  });
  const set = await call("POST", "/api/eval/sets", {
    agentId: agent.agent.id,
    name: "cross-site set",
    kind: "golden",
    gateThreshold: 1,
  });
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify([{ key: "q1", question: "breakfast?", expected_points: ["a dish"] }]),
  });
  const freezePath = `/api/eval/sets/${set.id}/versions/1/freeze`;
  const status = async () =>
    ((await call("GET", `/api/eval/sets/${set.id}`)).versions as Array<{ version: number; status: string }>).find(
      (v) => v.version === 1,
    )?.status;

  // the sibling: a page on another port of the same host, with a form that posts to Flowbench
  const sibling = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><title>A prize</title><form method="post" action="${E2E_BASE}${freezePath}"><button>Claim your prize</button></form></html>`,
    );
  });
  await new Promise<void>((resolve) => sibling.listen(0, "127.0.0.1", resolve));
  try {
    await signIn(page);
    await page.goto(`http://127.0.0.1:${(sibling.address() as AddressInfo).port}/`);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(freezePath)),
      page.getByRole("button", { name: "Claim your prize" }).click(),
    ]);
    // refused for where it came from, not for a missing session: the browser did send the session cookie
    expect(answer.status()).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("CROSS_SITE_REQUEST");
    expect((await answer.request().allHeaders())["sec-fetch-site"]).toBe("same-site");
    expect(await status()).toBe("draft");

    // the same request from Flowbench's own page (the way its pages call the API) goes through
    await page.goto("/eval");
    const own = await page.evaluate(async (p) => (await fetch(p, { method: "POST" })).status, freezePath);
    expect(own).toBe(200);
    expect(await status()).toBe("frozen");
  } finally {
    await new Promise((resolve) => sibling.close(resolve));
  }
});
