/**
 * Canvas benchmark (Playwright + Debian's Chromium against the production build):
 *   1. opens a 500-node workflow on the canvas (a local draft) and reports the time until it is drawn and validated;
 *   2. drags a node for ~3 s and counts requestAnimationFrame callbacks: frames per second and frame-time p95/max;
 *   3. measures the `builder.validate` tRPC round trip from the page (fetch of the same batch endpoint the canvas'
 *      client uses) for 200- and 500-node workflows, realistic (all node types, incl. Python code nodes whose syntax
 *      the server checks) and llm-only; plus the round trip the canvas itself recorded after an edit.
 *
 *   NEXT_DIST_DIR=.next-canvas npx tsx scripts/bench-canvas.ts            # starts its own server on a fresh DB
 *   (BENCH_NODES=… changes the canvas size, BENCH_SCREENSHOT=path.png keeps a picture of the opened canvas)
 *   BENCH_URL=http://127.0.0.1:3931 npx tsx scripts/bench-canvas.ts       # or uses a running one (admin login from env)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { linearChain, realisticWorkflow } from "../server/workflow/testing";
import type { WorkflowInput } from "../server/workflow";
import { DIST_DIR, startServer } from "./lib/app-server";
import { recordRow } from "./lib/bench-rows";

export interface DragResult {
  zoom: string;
  drawnNodes: number;
  seconds: number;
  frames: number;
  fps: number;
  p95FrameMs: number;
  maxFrameMs: number;
}

export interface CanvasBenchResult {
  nodes: number;
  /** Navigation until the first node is on screen. */
  drawnMs: number;
  /** Navigation until the first validation answer (includes the server's Python sandbox cold start). */
  openMs: number;
  drags: DragResult[];
  validate: { workflow: string; nodes: number; runs: number; p50Ms: number; p95Ms: number }[];
  /** What the canvas itself measured for `builder.validate` after an edit (debounce excluded), 500 nodes. */
  canvasRoundTripMs: number | null;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Lays the generated workflow out on a grid so the canvas looks like a real (large) workflow. */
function onGrid(wf: WorkflowInput, perRow = 25): WorkflowInput {
  return {
    ...wf,
    nodes: wf.nodes.map((n, i) => ({ ...n, position: { x: (i % perRow) * 300, y: Math.floor(i / perRow) * 160 } })),
  };
}

/** The realistic workflow with its Python code nodes turned into llm nodes (isolates the sandbox syntax check). */
function withoutCodeNodes(wf: WorkflowInput): WorkflowInput {
  return {
    ...wf,
    nodes: wf.nodes.map((n) =>
      n.type === "code" ? { ...n, type: "llm", config: { userPrompt: "Summarise {{start.query}}" } } : n,
    ),
  };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/builder$/);
}

async function validateRoundTrips(page: Page, workflow: WorkflowInput, runs: number): Promise<number[]> {
  return page.evaluate(
    async ({ workflow, runs }) => {
      const body = JSON.stringify({ 0: { workflow } });
      const times: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const t = performance.now();
        const res = await fetch("/api/trpc/builder.validate?batch=1", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await res.json();
        if (!res.ok) throw new Error(`validate answered ${res.status}`);
        if (i >= 3) times.push(performance.now() - t); // the first three warm the server up
      }
      return times;
    },
    { workflow, runs },
  );
}

const settled = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="validation-status"]')?.getAttribute("data-state") !== "pending",
    undefined,
    { timeout: 60_000 },
  );

/** Drags the node nearest the canvas centre for ~3 s, counting requestAnimationFrame callbacks. */
async function measureDrag(page: Page, zoom: string): Promise<DragResult> {
  const canvas = await page.getByTestId("canvas").boundingBox();
  if (!canvas) throw new Error("no canvas");
  const boxes = await page.locator(".react-flow__node").evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  const cx = canvas.x + canvas.width / 2;
  const cy = canvas.y + canvas.height / 2;
  const box = boxes.sort(
    (a, b) =>
      Math.hypot(a.x + a.width / 2 - cx, a.y + a.height / 2 - cy) -
      Math.hypot(b.x + b.width / 2 - cx, b.y + b.height / 2 - cy),
  )[0];
  if (!box) throw new Error("no node to drag");
  // A string, not a function: tsx's name helpers do not exist in the page.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__counting = true;
    const tick = (t) => { if (!window.__counting) return; window.__frames.push(t); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(12, box.height / 3);
  await page.mouse.move(x, y);
  await page.mouse.down();
  const start = Date.now();
  for (let i = 0; Date.now() - start < 3000; i++) {
    await page.mouse.move(x + 120 * Math.sin(i / 15), y + 80 * Math.cos(i / 15));
    await page.waitForTimeout(8);
  }
  await page.mouse.up();
  const frames = (await page.evaluate("(() => { window.__counting = false; return window.__frames; })()")) as number[];
  const deltas = frames
    .slice(1)
    .map((t, i) => t - (frames[i] as number))
    .sort((a, b) => a - b);
  const seconds = ((frames.at(-1) ?? 0) - (frames[0] ?? 0)) / 1000;
  return {
    zoom,
    drawnNodes: boxes.length,
    seconds,
    frames: frames.length,
    fps: (frames.length - 1) / seconds,
    p95FrameMs: percentile(deltas, 95),
    maxFrameMs: deltas.at(-1) ?? Number.NaN,
  };
}

export async function benchCanvas(opts: {
  baseUrl: string;
  email: string;
  password: string;
  executablePath?: string;
  nodes?: number;
  screenshot?: string;
}): Promise<CanvasBenchResult> {
  const count = opts.nodes ?? 500;
  const browser = await chromium.launch({
    executablePath: opts.executablePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-renderer-backgrounding",
      "--disable-background-timer-throttling",
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: opts.baseUrl, viewport: { width: 1600, height: 960 } });
    const page = await context.newPage();
    await signIn(page, opts.email, opts.password);

    // 1. a large canvas, opened from a local draft; the first validation also starts the server's Python sandbox
    const big = onGrid(realisticWorkflow(count));
    await page.evaluate((wf) => {
      localStorage.setItem(
        "flowbench:draft:new:bench",
        JSON.stringify({
          name: `Bench ${wf.nodes.length}`,
          workflow: wf,
          origin: "bench",
          fresh: true,
          updatedAt: new Date().toISOString(),
        }),
      );
    }, big);
    const t0 = Date.now();
    await page.goto("/builder/new?draft=bench");
    await page.locator(".react-flow__node").first().waitFor();
    const drawnMs = Date.now() - t0;
    await settled(page);
    const openMs = Date.now() - t0;
    if (opts.screenshot) await page.screenshot({ path: opts.screenshot });

    // 2. drag at the zoom that fits everything (every node drawn, light cards), then at a working zoom (~1)
    const drags: DragResult[] = [await measureDrag(page, "fit (0.1)")];
    // An edit the canvas validates (undo of the drag): its own round trip, debounce excluded.
    await page.getByTestId("canvas").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("ControlOrMeta+z");
    await page.waitForTimeout(300);
    await settled(page);
    const recorded = await page.getAttribute('[data-testid="validation-status"]', "data-validate-ms");
    for (let i = 0; i < 13; i++) {
      await page.getByRole("button", { name: "Zoom In" }).click();
      await page.waitForTimeout(120);
    }
    await page.waitForTimeout(500);
    drags.push(await measureDrag(page, "working (~1)"));

    // 3. validation round trips through tRPC from the page
    const validate: CanvasBenchResult["validate"] = [];
    for (const [label, make] of [
      ["realistic, Python code nodes (sandbox syntax check)", (n: number) => realisticWorkflow(n)],
      ["realistic, code nodes swapped for llm", (n: number) => withoutCodeNodes(realisticWorkflow(n))],
      ["llm chain", (n: number) => linearChain(n)],
    ] as const) {
      for (const n of [200, 500]) {
        const times = (await validateRoundTrips(page, make(n), 20)).sort((a, b) => a - b);
        validate.push({
          workflow: label,
          nodes: n,
          runs: times.length,
          p50Ms: percentile(times, 50),
          p95Ms: percentile(times, 95),
        });
      }
    }
    await context.close();
    return { nodes: count, drawnMs, openMs, drags, validate, canvasRoundTripMs: recorded ? Number(recorded) : null };
  } finally {
    await browser.close();
  }
}

export function printCanvasBench(r: CanvasBenchResult): void {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}, Chromium headless (software rendering)\n`);
  console.log(
    `${r.nodes}-node canvas: drawn ${r.drawnMs} ms after navigation; first validation answer after ${r.openMs} ms (includes the server's Python sandbox cold start)`,
  );
  console.log(
    `canvas-recorded builder.validate round trip after an edit: ${r.canvasRoundTripMs?.toFixed(1) ?? "n/a"} ms\n`,
  );
  console.log("drag frame rate (requestAnimationFrame count while dragging one node for 3 s):");
  console.log("| zoom | nodes drawn | fps | frame p95 ms | frame max ms |\n| --- | ---: | ---: | ---: | ---: |");
  for (const d of r.drags) {
    console.log(
      `| ${d.zoom} | ${d.drawnNodes} | ${d.fps.toFixed(1)} | ${d.p95FrameMs.toFixed(1)} | ${d.maxFrameMs.toFixed(1)} |`,
    );
    recordRow({
      part: "canvas",
      name: `drag, ${r.nodes} nodes, zoom ${d.zoom}, fps`,
      value: d.fps,
      unit: "fps",
      better: "higher",
    });
  }
  console.log(
    "\nbuilder.validate round trip from the page (tRPC batch POST, production build, 20 runs after 3 warm-ups):",
  );
  console.log("| workflow | nodes | p50 ms | p95 ms |\n| --- | ---: | ---: | ---: |");
  for (const v of r.validate) {
    console.log(`| ${v.workflow} | ${v.nodes} | ${v.p50Ms.toFixed(1)} | ${v.p95Ms.toFixed(1)} |`);
    recordRow({
      part: "canvas",
      name: `builder.validate from the page, ${v.workflow}, p50`,
      value: v.p50Ms,
      unit: "ms",
      better: "lower",
    });
  }
}

const nodesEnv = () => (process.env.BENCH_NODES ? Number(process.env.BENCH_NODES) : undefined);

async function main() {
  const url = process.env.BENCH_URL;
  if (url) {
    printCanvasBench(
      await benchCanvas({
        baseUrl: url,
        email: process.env.BENCH_EMAIL ?? "admin@e2e.flowbench.test",
        password: process.env.BENCH_PASSWORD ?? "e2e-admin-password",
        nodes: nodesEnv(),
        screenshot: process.env.BENCH_SCREENSHOT,
      }),
    );
    return;
  }
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID")))
    throw new Error(`no production build in ${DIST_DIR}: run next build first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-canvas-"));
  const server = await startServer("bench-canvas", `pglite:${dir}`);
  try {
    printCanvasBench(
      await benchCanvas({
        baseUrl: server.url,
        email: server.adminEmail,
        password: server.adminPassword,
        nodes: nodesEnv(),
        screenshot: process.env.BENCH_SCREENSHOT,
      }),
    );
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
