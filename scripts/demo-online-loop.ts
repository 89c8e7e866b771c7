/**
 * npm run demo:online-loop -- demo data for the online feedback loop (spec 4.3), over REST like the gate CLIs
 * (FLOWBENCH_URL, FLOWBENCH_TOKEN; --url, --token; --agent picks another agent than the sample "Meal recommendation",
 * by id or name). On that agent:
 *   1. traffic     online conversations (two of them multi-turn) with feedback: ten answers scored low (1-2) with a
 *                  comment, three scored high;
 *   2. pool        a regression-pool set "<agent> online regression pool (demo)" whose version holds the ten
 *                  low-scored traces as samples, with expectations, frozen;
 *   3. run         a regression run of that version at pipeline_live, answered in the platform;
 *   4. verdicts    a verdict on each answer: the demo waits until every answer has its machine suggestion (at most two
 *                  minutes), then passes where the suggestion is pass (except every third answer) and fails the rest
 *                  with a basis and an attribution; a verdict already given is never changed;
 *   5. bad-cases   a Bad Case for every fail;
 *   6. shadow      an intent shadow whose candidate is the PUBLISHED version with its scene detector (the code node
 *                  detect_scene) replaced by the demo's own detector, which calls "morning" questions brunch (the
 *                  seeded detector: breakfast), replayed over the agent's last chats; it fails loudly when the agent
 *                  has no detect_scene code node or the replay shows no disagreement.
 * Idempotent piece by piece: each step finds what an earlier run made and makes only what is missing (a chat is found
 * by its message, session and feedback; samples by their trace; the run by the pool version; verdicts and Bad Cases
 * per item; the shadow by its note, and replayed only while it has no results), so a run that stopped halfway is
 * completed by the next one and a complete demo is left unchanged. A shadow configuration the agent already had (not
 * the demo's) is kept as it is. Prints what it made or found, and the URLs to open.
 *
 * Works on the embedded database and on a PostgreSQL server. The answers come from the server's model provider: the
 * offline provider by default (tests), or a real model when the server is started with OPENAI_BASE_URL /
 * OPENAI_API_KEY / OPENAI_MODEL (README, "Demo data of the online loop"); the sample agent's live queries need the
 * meal-scenes sample service at the server's WEBHOOK_BASE_URL. With a real model the machine suggestions, and so the demo's verdicts, vary from run to run.
 */
import { ConnectError, UsageError, main, parseFlags, serverFrom, type Server } from "./lib/cli-http";
import { demoCandidate } from "./lib/demo-candidate";

const USAGE = `usage: npm run demo:online-loop -- [--url URL] [--token TOKEN] [--agent ID_OR_NAME] [--stop-after STEP]
  FLOWBENCH_URL / FLOWBENCH_TOKEN (an admin or builder token) are read from the environment by default.
  --agent        the agent to fill (default: the seeded sample agent "Meal recommendation")
  --stop-after   stop after one of the steps: traffic, pool, run, verdicts, bad-cases, shadow (the next run completes the rest)`;

const STEPS = ["traffic", "pool", "run", "verdicts", "bad-cases", "shadow"] as const;
type Step = (typeof STEPS)[number];

export const SAMPLE_AGENT = "Meal recommendation";
export const demoPoolName = (agentName: string) => `${agentName} online regression pool (demo)`;
/** The demo's shadow configuration is recognised by this note. */
export const DEMO_SHADOW_NOTE = "demo-online-loop: a scene detector that calls morning questions brunch";

/** The demo's online traffic: [session, message, score, comment, expected points]. */
const TRAFFIC: Array<{ session?: string; message: string; score: number; comment?: string; points?: string[] }> = [
  {
    message: "Something vegan for breakfast?",
    score: 1,
    comment: "It suggested eggs",
    points: ["recommends only vegan breakfast dishes", "no eggs or dairy"],
  },
  {
    message: "Cheap lunch under 15 yuan for one person",
    score: 2,
    comment: "Too expensive",
    points: ["every dish is under 15 yuan", "gives the price of each dish"],
  },
  { session: "demo-s1", message: "I'd like dinner tonight", score: 5 },
  {
    session: "demo-s1",
    message: "Something not spicy, please",
    score: 1,
    comment: "It listed spicy dishes",
    points: ["recommends dinner dishes", "none of them is spicy"],
  },
  {
    message: "A quick breakfast I can eat on the subway",
    score: 2,
    comment: "Nothing portable",
    points: ["recommends takeaway breakfast items", "they can be eaten on the go"],
  },
  {
    message: "Healthy dinner with lots of protein",
    score: 1,
    comment: "Only noodles",
    points: ["recommends high-protein dinner dishes", "mentions what makes them healthy"],
  },
  {
    message: "What do you have for a kid's lunch?",
    score: 2,
    points: ["recommends mild lunch dishes suitable for children", "gives prices"],
  },
  { session: "demo-s2", message: "Lunch for my team of six", score: 5 },
  {
    session: "demo-s2",
    message: "Can you make it vegetarian?",
    score: 1,
    comment: "Still had meat",
    points: ["recommends vegetarian lunch dishes", "enough for six people"],
  },
  {
    message: "Breakfast with coffee",
    score: 2,
    comment: "No drinks mentioned",
    points: ["recommends a breakfast with a hot drink", "gives prices in yuan"],
  },
  {
    message: "Late dinner, something light",
    score: 1,
    comment: "Recommended hot pot",
    points: ["recommends light dinner dishes", "no heavy or fried dishes"],
  },
  {
    message: "Lunch without pork",
    score: 2,
    comment: "Pork buns again",
    points: ["recommends lunch dishes", "none contains pork"],
  },
  { message: "Something light in the morning before the gym", score: 4 },
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
  accept: number[] = [],
): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ConnectError(`cannot reach ${server.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as Json) : {};
  if (!res.ok && !accept.includes(res.status))
    throw new ConnectError(
      `${method} ${path} answered ${res.status} ${parsed.error?.code ?? ""}: ${parsed.error?.message ?? text.slice(0, 200)}`,
    );
  return parsed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const messageOf = (input: unknown): string => {
  const i = (input ?? {}) as Json;
  return typeof i.query === "string" ? i.query : String(Object.values(i).find((v) => typeof v === "string") ?? "");
};

/** Every page of a cursor list (bounded: a demo server, not a production one). */
async function all(server: Server, path: string, maxPages = 50): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const page: Json = await call(
      server,
      "GET",
      `${path}${path.includes("?") ? "&" : "?"}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    out.push(...page.items);
    cursor = page.nextCursor ?? null;
    if (!cursor) break;
  }
  return out;
}

async function findAgent(server: Server, wanted: string): Promise<Json> {
  const byId = await call(server, "GET", `/api/builder/agents/${encodeURIComponent(wanted)}`, undefined, [400, 404]);
  if (byId.id) return byId;
  const agent = (await call(server, "GET", `/api/builder/agents?q=${encodeURIComponent(wanted)}`)).items?.find(
    (a: Json) => a.name === wanted,
  );
  if (!agent)
    throw new ConnectError(
      wanted === SAMPLE_AGENT
        ? `the sample agent "${SAMPLE_AGENT}" is not on this server (start it with FLOWBENCH_SEED_SAMPLE_AGENT=on)`
        : `no agent "${wanted}" on this server`,
    );
  return call(server, "GET", `/api/builder/agents/${agent.id}`);
}

/** 1. The traffic: each conversation turn found (message, session, feedback) or asked now; feedback added where missing. */
async function traffic(
  server: Server,
  agentId: string,
  inPool: Set<string>,
): Promise<{ low: Array<{ traceId: string; points: string[] }>; made: number; found: number }> {
  const rated = await all(server, `/api/traces?agentId=${agentId}&source=chat&minScore=1`);
  const sessionTurns = new Map<string, Json[]>();
  for (const name of new Set(TRAFFIC.flatMap((t) => (t.session ? [t.session] : []))))
    sessionTurns.set(name, await all(server, `/api/traces?agentId=${agentId}&source=chat&sessionId=${name}`));
  const taken = new Set<string>();
  const find = (t: (typeof TRAFFIC)[number]): Json | undefined => {
    // earlier demo runs named their sessions demo-s1-<suffix>; a trace already in the pool is preferred
    const pool = [...(t.session ? (sessionTurns.get(t.session) ?? []) : []), ...rated];
    const fits = pool.filter(
      (x) =>
        !taken.has(x.id) &&
        messageOf(x.input) === t.message &&
        (t.session ? String(x.sessionId ?? "").startsWith(t.session) : !x.sessionId),
    );
    return fits.find((x) => inPool.has(x.id)) ?? fits.find((x) => x.feedbackSummary?.count > 0) ?? fits[0];
  };
  let made = 0;
  let found = 0;
  const low: Array<{ traceId: string; points: string[] }> = [];
  const sessionOf = new Map<string, string>();
  for (const t of TRAFFIC) {
    let trace = find(t);
    if (trace) {
      found++;
      if (t.session && trace.sessionId) sessionOf.set(t.session, trace.sessionId);
    } else {
      const sessionId = t.session ? (sessionOf.get(t.session) ?? t.session) : undefined;
      const chat = await call(server, "POST", `/api/agents/${agentId}/chat`, {
        message: t.message,
        ...(sessionId ? { sessionId } : {}),
      });
      trace = { id: chat.traceId, feedbackSummary: { count: 0 } };
      if (sessionId) sessionOf.set(t.session!, sessionId);
      made++;
    }
    taken.add(trace.id);
    if (!(trace.feedbackSummary?.count > 0))
      await call(server, "POST", `/api/traces/${trace.id}/feedback`, {
        score: t.score,
        ...(t.comment ? { comment: t.comment } : {}),
      });
    if (t.points) low.push({ traceId: trace.id, points: t.points });
  }
  return { low, made, found };
}

async function run(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2), { values: ["url", "token", "agent", "stop-after"], booleans: [] });
  const server = serverFrom(flags);
  const stopAfter = flags["stop-after"] as Step | undefined;
  if (stopAfter !== undefined && !STEPS.includes(stopAfter))
    throw new UsageError(`--stop-after must be one of ${STEPS.join(", ")}`);
  const done = (step: Step) => stopAfter === step;
  const agent = await findAgent(server, String(flags.agent ?? SAMPLE_AGENT));
  if (!agent.publishedVersion)
    throw new ConnectError(
      `agent "${agent.name}" has no published version: online chat needs one (publish it in the builder)`,
    );
  const open = () => {
    console.log(`Open ${server.url}/eval?tab=online-loop&agent=${agent.id}`);
    console.log(`     ${server.url}/eval?tab=intent-shadow&agent=${agent.id}`);
    return 0;
  };
  const poolName = demoPoolName(agent.name);
  let pool: Json | undefined = (
    await call(server, "GET", `/api/eval/sets?agentId=${agent.id}&kind=regression_pool&limit=200`)
  ).items.find((s: Json) => s.name === poolName);
  const poolSamples = async (): Promise<{ version: Json; samples: Json[] } | null> => {
    if (!pool) return null;
    const detail = await call(server, "GET", `/api/eval/sets/${pool.id}`);
    const version = [...detail.versions].sort((a: Json, b: Json) => b.version - a.version)[0];
    return version
      ? { version, samples: await all(server, `/api/eval/sets/${pool.id}/versions/${version.version}/samples`) }
      : null;
  };

  // 1. online traffic with feedback
  const before = await poolSamples();
  const t = await traffic(
    server,
    agent.id,
    new Set((before?.samples ?? []).map((s) => s.sourceTraceId).filter(Boolean)),
  );
  console.log(`1. online answers with feedback: ${t.made} made, ${t.found} found (${t.low.length} scored 1-2)`);
  if (done("traffic")) return open();

  // 2. the pool: ten samples from those traces, with expectations, frozen
  let poolMade = false;
  if (!pool) {
    pool = await call(server, "POST", "/api/eval/sets", {
      agentId: agent.id,
      name: poolName,
      kind: "regression_pool",
      gateThreshold: 0,
      description: "Low-scored online answers (demo data)",
    });
    poolMade = true;
  }
  let current = await poolSamples();
  const present = new Map((current?.samples ?? []).map((s) => [s.sourceTraceId as string, s]));
  let added = 0;
  for (const l of t.low) {
    const sample = present.get(l.traceId);
    if (!sample) {
      await call(
        server,
        "POST",
        `/api/eval/sets/${pool!.id}/pool`,
        { traceId: l.traceId, expectedPoints: l.points },
        [200],
      );
      added++;
    } else if (!sample.expectedPoints?.length && current!.version.status === "draft") {
      await call(server, "PATCH", `/api/eval/samples/${sample.id}`, { expectedPoints: l.points });
      added++;
    }
  }
  current = await poolSamples();
  let froze = false;
  if (current!.version.status === "draft") {
    await call(server, "POST", `/api/eval/sets/${pool!.id}/versions/${current!.version.version}/freeze`);
    current = await poolSamples();
    froze = true;
  }
  const version = current!.version;
  const fromDemo = current!.samples.filter((s) => t.low.some((l) => l.traceId === s.sourceTraceId));
  console.log(
    `2. regression pool "${poolName}" v${version.version}: ${fromDemo.length} samples from those traces, frozen (${poolMade ? "pool made, " : ""}${added} sample(s) added${froze ? ", frozen now" : ", found frozen"})`,
  );
  if (done("pool")) return open();

  // 3. a regression run at pipeline_live, answered in the platform
  const runs = (await all(server, `/api/eval/runs?setId=${pool!.id}`)).filter(
    (r) => r.setVersionId === version.id && !r.rerunOfId && r.status !== "cancelled" && r.status !== "failed",
  );
  let evalRun = runs.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
  const runMade = !evalRun;
  if (!evalRun)
    evalRun = await call(server, "POST", "/api/eval/runs", {
      setVersionId: version.id,
      mode: "in_platform",
      tier: "pipeline_live",
      environment: "demo",
    });
  if (evalRun.status === "created" || evalRun.status === "answering")
    await call(server, "POST", `/api/eval/runs/${evalRun.id}/start`);
  const deadline = Date.now() + 10 * 60_000;
  while (
    (evalRun = await call(server, "GET", `/api/eval/runs/${evalRun.id}`)).status === "answering" ||
    evalRun.status === "created"
  ) {
    if (Date.now() > deadline) throw new ConnectError(`run ${evalRun.shortId} did not finish answering in 10 minutes`);
    await sleep(500);
  }
  console.log(
    `3. regression run ${evalRun.shortId} (pipeline_live) ${runMade ? "made and answered" : "found"}: ${evalRun.status.replace("_", " ")}`,
  );
  if (done("run")) return open();

  // 4. verdicts, once every answer has its machine suggestion
  let items = await all(server, `/api/eval/runs/${evalRun.id}/items`);
  for (
    const until = Date.now() + 120_000;
    items.some((i) => i.status === "answered" && !i.suggestion) && Date.now() < until;
  ) {
    await sleep(1000);
    items = await all(server, `/api/eval/runs/${evalRun.id}/items`);
  }
  items.sort((a, b) => a.position - b.position);
  let judged = 0;
  for (const [i, item] of items.entries()) {
    if (item.verdict || (item.status !== "answered" && item.status !== "failed")) continue;
    const pass = item.suggestion?.verdict === "pass" && i % 3 !== 2;
    await call(
      server,
      "PUT",
      `/api/eval/runs/${evalRun.id}/items/${item.id}/verdict`,
      pass
        ? { verdict: "pass" }
        : { verdict: "fail", basis: "demo: the answer misses an expectation of the user", attribution: "generation" },
    );
    judged++;
  }
  items = await all(server, `/api/eval/runs/${evalRun.id}/items`);
  const fails = items.filter((i) => i.verdict?.verdict === "fail");
  console.log(`4. verdicts: ${judged} given now, ${items.length - judged} found; ${fails.length} fail(s)`);
  if (done("verdicts")) return open();

  // 5. Bad Cases from its fails
  const withoutCase = fails.filter((i) => !i.badCase).length;
  const made = withoutCase ? (await call(server, "POST", `/api/eval/runs/${evalRun.id}/bad-cases`)).created : 0;
  console.log(`5. Bad Cases: ${made} made, ${fails.length - withoutCase} found`);
  if (done("bad-cases")) return open();

  // 6. the intent shadow: the published version with the demo's scene detector, replayed over the chats above
  const existing = (await call(server, "GET", `/api/eval/shadow/${agent.id}`)).config;
  if (existing && existing.candidateNote !== DEMO_SHADOW_NOTE) {
    console.log(`6. intent shadow: the agent has its own configuration; kept as it is`);
    return open();
  }
  let configured = "found";
  if (!existing) {
    const live = (await call(server, "GET", `/api/builder/agents/${agent.id}/versions/${agent.publishedVersion}`))
      .workflow;
    const candidate = demoCandidate(live);
    if (!candidate.ok)
      throw new ConnectError(
        `the published version ${agent.publishedVersion} of "${agent.name}" cannot be the demo's candidate: ${candidate.reason}`,
      );
    await call(server, "PUT", `/api/eval/shadow/${agent.id}`, {
      candidateWorkflow: candidate.workflow,
      candidateNote: DEMO_SHADOW_NOTE,
      liveRef: "{{detect_scene.result.scene}}",
      candidateRef: "{{detect_scene.result.scene}}",
      sampleRate: 1,
    });
    configured = "made";
  }
  let report = await call(server, "GET", `/api/eval/shadow/${agent.id}/report`);
  let replayed = "found replayed";
  if (report.results === 0) {
    const replay = await call(server, "POST", `/api/eval/shadow/${agent.id}/replay`, { limit: 50 });
    report = replay.report;
    replayed = `replayed over ${replay.replayed} chats`;
  }
  const disagreements = report.compared - report.agreed;
  if (!disagreements)
    throw new ConnectError(
      `the demo's candidate scene detector agrees with the live one on all ${report.compared} compared chats (${report.failed} failed): the shadow shows no disagreement`,
    );
  console.log(
    `6. intent shadow ${configured}, ${replayed}: agreement ${report.agreement === null ? "-" : `${Math.round(report.agreement * 100)}%`} (${report.agreed}/${report.compared}), ${disagreements} disagreement(s)`,
  );
  return open();
}

void main(run, USAGE);
