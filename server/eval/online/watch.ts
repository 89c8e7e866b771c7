import type PgBoss from "pg-boss";
import type { Db } from "../../db/client";
import { databaseTarget } from "../../db/client";
import { LOCKS, withStartupLock } from "../../db/locks";
import { deliveriesIn, hasSubscribers, sendDeliveries } from "../../webhooks/emit";
import { answerJobId } from "../runs/queue-jobs";
import { getEvalQueue } from "../runs/worker";
import { evaluateAlerts, leadsUrl } from "./alerts";
import { cachedRule, filtersNeedTrace, judgeOnlineTrace, passesFilters } from "./judging";
import { judgmentOut, leadSignalsOf } from "./leads";
import { sampled } from "./sampler";
import { ONLINE_JUDGING_LIMITS } from "./schemas";
import { userMessage, versionWorkflow } from "./traces";
import { WATCH_TTL_MS, watchGlobals } from "./watch-state";

/**
 * What the online worker does with online answers, after the chat answered (issue 25): the chat's own path only
 * pushes `{ agentId, traceId }` into this process's buffer (in memory; whether the agent is watched is cached), and
 * the buffer goes to the durable queue `eval-online` in one insert per second (or per ONLINE_JUDGING_LIMITS.enqueueBatch
 * answers), so a burst of chats costs one insert. A process that dies loses at most that second of answers (their
 * leads still show on the leads page, which computes leads on read; only their lead.created and the judging sample
 * are lost).
 *
 * Jobs (./worker.ts runs them, each after a quiet event loop):
 * - `answers` (a batch): for each agent, the sampled answers (./sampler.ts: the hash of the trace id below the rule's
 *   rate, then the rule's filters) get a `judge` job each (a stable job id per trace: queued once); then the batch's
 *   leads are recorded (`recordLeads`) and the agent's alert rules evaluated (./alerts.ts).
 * - `judge`: one sampled answer judged (./judging.ts), then its lead recorded and the alert rules evaluated.
 * - Feedback scored on an online answer queues an `answers` batch without sampling (a low score makes a lead).
 *
 * `recordLeads` is where `lead.created` is sent, exactly once per lead: the traces' signals are evaluated by the leads
 * page's rules (./leads.ts), and a trace found to be a lead for the first time gets its OnlineLead row and its
 * deliveries in one transaction (the row's primary key makes a second finder, another job or instance, insert
 * nothing and send nothing). A lead that gains a signal later (a judged fail after a low score) keeps its row and is
 * not announced again; its signals are added to the row.
 */
export const ONLINE_QUEUE = "eval-online";
const QUEUE_SETTINGS = { retryLimit: 5, retryDelay: 5, expireInSeconds: 300, retentionMinutes: 60 * 24 } as const;

export type OnlineItem = { agentId: string; traceId: string };
export type OnlineJob = { kind: "answers"; items: OnlineItem[]; sample: boolean } | { kind: "judge"; traceId: string };

/** A stable job id per judged trace, so a trace sampled twice (a retry, feedback) is judged once. */
export const judgeJobId = (traceId: string) => answerJobId(`online-judge:${traceId}`);

const installed = new WeakMap<PgBoss, Promise<void>>();
/** Creates the `eval-online` queue once per pg-boss instance (instances take turns on a database server). */
export function ensureOnlineQueue(boss: PgBoss): Promise<void> {
  let done = installed.get(boss);
  if (!done) {
    done = withStartupLock(databaseTarget(), LOCKS.evalQueueStart, async () => {
      const options = { name: ONLINE_QUEUE, policy: "standard" as const, ...QUEUE_SETTINGS };
      await boss.createQueue(ONLINE_QUEUE, options);
      await boss.updateQueue(ONLINE_QUEUE, options);
    });
    done.catch(() => installed.delete(boss));
    installed.set(boss, done);
  }
  return done;
}

/** Inserts online jobs (judge jobs with their stable ids). */
export async function insertOnlineJobs(boss: PgBoss, jobs: OnlineJob[]): Promise<void> {
  if (!jobs.length) return;
  await ensureOnlineQueue(boss);
  await boss.insert(
    jobs.map((j) => ({ name: ONLINE_QUEUE, data: j, ...(j.kind === "judge" ? { id: judgeJobId(j.traceId) } : {}) })),
  );
}

// ---------------------------------------------------------------- the chat's side

/** Whether the agent is watched (./watch-state.ts), cached for WATCH_TTL_MS. */
export async function isWatched(db: Db, agentId: string): Promise<boolean> {
  const cache = (watchGlobals.__flowbenchOnlineWatch ??= new Map());
  const hit = cache.get(agentId);
  if (hit && Date.now() - hit.at < WATCH_TTL_MS) return hit.watched;
  const [rule, alerts, subscribed] = await Promise.all([
    cachedRule(db, agentId),
    db.onlineAlertRule.count({ where: { agentId, enabled: true } }),
    hasSubscribers(db, "lead.created"),
  ]);
  const watched = !!rule?.enabled || alerts > 0 || subscribed;
  if (cache.size >= 1000) cache.clear();
  cache.set(agentId, { at: Date.now(), watched });
  return watched;
}

type Buffer = { answers: OnlineItem[]; scored: OnlineItem[]; timer: ReturnType<typeof setTimeout> | null };
type Globals = { __flowbenchOnlineBuffer?: Buffer; __flowbenchOnlineSend?: (jobs: OnlineJob[]) => Promise<void> };
const globals = globalThis as typeof globalThis & Globals;

/** Where buffered jobs go: the process's queue (a test or the benchmark may hand its own). */
export function setOnlineSender(send: ((jobs: OnlineJob[]) => Promise<void>) | undefined): void {
  globals.__flowbenchOnlineSend = send;
}

async function send(db: Db, jobs: OnlineJob[]): Promise<void> {
  if (globals.__flowbenchOnlineSend) return globals.__flowbenchOnlineSend(jobs);
  await insertOnlineJobs((await getEvalQueue(db)).boss, jobs);
}

/** Sends the buffered answers to the queue, in one insert. */
export async function flushOnlineJobs(db: Db): Promise<void> {
  const buffer = globals.__flowbenchOnlineBuffer;
  if (!buffer) return;
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const answers = buffer.answers.splice(0);
  const scored = buffer.scored.splice(0);
  const jobs: OnlineJob[] = [];
  if (answers.length) jobs.push({ kind: "answers", items: answers, sample: true });
  if (scored.length) jobs.push({ kind: "answers", items: scored, sample: false });
  if (!jobs.length) return;
  // background work on a sample of traffic: answers that could not be queued are dropped with a log line, never
  // retried into a chat
  await send(db, jobs).catch((e: unknown) =>
    console.error(
      `[flowbench] online judging: ${answers.length + scored.length} online answer(s) not queued: ${(e as Error).message}`,
    ),
  );
}

/**
 * The online-answer hook (server/startup.ts registers it with the runtime's onOnlineAnswer, and with onFeedback for
 * `scored: true`): in memory unless the buffer is full; answers whether the answer was buffered.
 */
export async function watchOnlineAnswer(db: Db, answer: OnlineItem, opts: { scored?: boolean } = {}): Promise<boolean> {
  if (!(await isWatched(db, answer.agentId))) return false;
  const buffer = (globals.__flowbenchOnlineBuffer ??= { answers: [], scored: [], timer: null });
  (opts.scored ? buffer.scored : buffer.answers).push({ agentId: answer.agentId, traceId: answer.traceId });
  if (buffer.answers.length + buffer.scored.length >= ONLINE_JUDGING_LIMITS.enqueueBatch) await flushOnlineJobs(db);
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushOnlineJobs(db), ONLINE_JUDGING_LIMITS.enqueueFlushMs);
    buffer.timer.unref?.();
  }
  return true;
}

// ---------------------------------------------------------------- the worker's side

/** The answers of a batch the agent's rule samples (the hash of the trace id, then the filters). */
export async function sampleAnswers(db: Db, agentId: string, traceIds: string[]): Promise<string[]> {
  const rule = await cachedRule(db, agentId);
  if (!rule?.enabled || rule.samplingRate <= 0) return [];
  const picked = traceIds.filter((id) => sampled(id, rule.samplingRate));
  if (!picked.length || !filtersNeedTrace(rule.filters)) return picked;
  const traces = await db.trace.findMany({
    where: { id: { in: picked } },
    select: { id: true, source: true, input: true, steps: true, workflowVersionId: true },
  });
  const out: string[] = [];
  for (const t of traces)
    if (passesFilters(rule.filters, { ...t, workflow: await versionWorkflow(db, t.workflowVersionId) })) out.push(t.id);
  return out;
}

/** An `answers` job (see the module comment); `enqueue` sends the judge jobs. */
export async function processAnswers(
  db: Db,
  job: { items: OnlineItem[]; sample: boolean },
  enqueue: (jobs: OnlineJob[]) => Promise<void>,
): Promise<void> {
  const byAgent = new Map<string, string[]>();
  for (const i of job.items) byAgent.set(i.agentId, [...(byAgent.get(i.agentId) ?? []), i.traceId]);
  for (const [agentId, traceIds] of byAgent) {
    if (job.sample) {
      const judge = await sampleAnswers(db, agentId, traceIds);
      await enqueue(judge.map((traceId) => ({ kind: "judge", traceId })));
    }
    await recordLeads(db, agentId, traceIds);
    await evaluateAlerts(db, agentId);
  }
}

/** A `judge` job: the judgment, then the lead it may make and the alert rules. */
export async function processJudge(db: Db, traceId: string, signal?: AbortSignal): Promise<void> {
  const judged = await judgeOnlineTrace(db, traceId, { signal });
  if (!judged) return;
  if (judged.verdict !== "pass") await recordLeads(db, judged.agentId, [traceId]);
  await evaluateAlerts(db, judged.agentId);
}

/** What `lead.created` says of a lead. */
async function leadEvents(db: Db, agentId: string, leads: Map<string, string[]>) {
  const ids = [...leads.keys()];
  const [agent, traces, judgments, feedback] = await Promise.all([
    db.agent.findUnique({ where: { id: agentId }, select: { name: true } }),
    db.trace.findMany({
      where: { id: { in: ids } },
      select: { id: true, input: true, answer: true, startedAt: true, source: true, workflowVersionId: true },
    }),
    db.onlineJudgment.findMany({ where: { traceId: { in: ids } } }),
    db.traceFeedback.findMany({ where: { traceId: { in: ids } }, orderBy: [{ score: "asc" }, { createdAt: "desc" }] }),
  ]);
  const judgmentOf = new Map(judgments.map((j) => [j.traceId, judgmentOut(j)]));
  const out = new Map<string, Record<string, unknown>>();
  for (const t of traces) {
    const signals = leads.get(t.id) ?? [];
    const judgment = judgmentOf.get(t.id);
    const score = feedback.find((f) => f.traceId === t.id);
    out.set(t.id, {
      traceId: t.id,
      agentId,
      agentName: agent?.name ?? null,
      source: t.source,
      startedAt: t.startedAt.toISOString(),
      signals,
      message: userMessage(t.input, await versionWorkflow(db, t.workflowVersionId)).slice(0, 500),
      answer: (t.answer ?? "").slice(0, 500),
      score: score?.score ?? null,
      comment: score?.comment || null,
      judgment: judgment
        ? {
            verdict: judgment.verdict,
            rationale: judgment.rationale,
            judge: judgment.judgedBy.label,
            error: judgment.error,
          }
        : null,
      leadsUrl: leadsUrl(agentId, signals[0] ?? null),
    });
  }
  return out;
}

/**
 * Records which of these traces are leads now and sends `lead.created` for those found for the first time (see the
 * module comment). Answers the traces announced.
 */
export async function recordLeads(db: Db, agentId: string, traceIds: string[]): Promise<string[]> {
  const leads = await leadSignalsOf(db, agentId, traceIds);
  if (!leads.size) return [];
  const ids = [...leads.keys()];
  const known = new Map(
    (await db.onlineLead.findMany({ where: { traceId: { in: ids } }, select: { traceId: true, signals: true } })).map(
      (l) => [l.traceId, l.signals],
    ),
  );
  // signals found since a lead was recorded: added to its row, not announced again
  for (const [traceId, signals] of leads) {
    const had = known.get(traceId);
    if (had && signals.some((s) => !had.includes(s)))
      await db.onlineLead.update({ where: { traceId }, data: { signals: [...new Set([...had, ...signals])] } });
  }
  const fresh = new Map([...leads].filter(([id]) => !known.has(id)));
  if (!fresh.size) return [];
  const events = (await hasSubscribers(db, "lead.created")) ? await leadEvents(db, agentId, fresh) : null;
  const made = await db.$transaction(async (tx) => {
    const inserted = await tx.onlineLead.createManyAndReturn({
      data: [...fresh].map(([traceId, signals]) => ({ traceId, agentId, signals })),
      skipDuplicates: true,
      select: { traceId: true },
    });
    const announced = inserted.map((r) => r.traceId);
    const deliveries = events
      ? await deliveriesIn(
          tx,
          "lead.created",
          announced.flatMap((id) => (events.get(id) ? [events.get(id) as Record<string, unknown>] : [])),
        )
      : [];
    return { announced, deliveries };
  });
  await sendDeliveries(made.deliveries);
  return made.announced;
}
