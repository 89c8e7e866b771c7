import type { Db } from "../../db/client";
import type { ShadowJob, ShadowQueue } from "./state";
import { globals } from "./state";
import { SHADOW_LIMITS } from "./schemas";
import { shadowTrace } from "./intent";

/** An agent's sample rate and on/off, re-read at most every SHADOW_LIMITS.samplingTtlMs. */
async function samplingOf(db: Db, agentId: string): Promise<{ enabled: boolean; sampleRate: number }> {
  const cache = (globals.__flowbenchShadowSampling ??= new Map());
  const hit = cache.get(agentId);
  if (hit && Date.now() - hit.at < SHADOW_LIMITS.samplingTtlMs) return hit;
  const c = await db.shadowConfig.findUnique({ where: { agentId }, select: { enabled: true, sampleRate: true } });
  const entry = { at: Date.now(), enabled: c?.enabled ?? false, sampleRate: c?.sampleRate ?? 0 };
  if (cache.size >= 1000) cache.clear();
  cache.set(agentId, entry);
  return entry;
}

/** Sends the sampled chats waiting in this process to the queue, in one insert per queue. */
export async function flushShadowJobs(): Promise<void> {
  const buffer = globals.__flowbenchShadowBuffer;
  if (!buffer) return;
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const waiting = buffer.jobs.splice(0);
  const byQueue = new Map<ShadowQueue, ShadowJob[]>();
  for (const w of waiting) byQueue.set(w.queue, [...(byQueue.get(w.queue) ?? []), w.job]);
  for (const [queue, jobs] of byQueue) {
    // the shadow is a sample: jobs that could not be queued are dropped with a log line, never retried into a chat
    await queue
      .enqueue(jobs)
      .catch((e: unknown) =>
        console.error(`[flowbench] intent shadow: ${jobs.length} sampled chat(s) not queued: ${(e as Error).message}`),
      );
  }
}

/**
 * The online-answer hook of a server: sampled chats become jobs of the durable queue (queue.ts, kind `shadow`), which
 * any instance's worker runs; the chat never waits for it. Per chat the work is in memory (the agent's sampling is
 * cached for SHADOW_LIMITS.samplingTtlMs); the sampled chats are inserted together every SHADOW_LIMITS.enqueueFlushMs
 * (or per SHADOW_LIMITS.enqueueBatch), so a burst of chats costs one insert. A process that dies loses at most that
 * second of samples.
 */
export async function enqueueShadow(
  db: Db,
  answer: { agentId: string; traceId: string },
  queue: ShadowQueue,
  random: () => number = Math.random,
): Promise<boolean> {
  const config = await samplingOf(db, answer.agentId);
  if (!config.enabled || random() >= config.sampleRate) return false;
  const buffer = (globals.__flowbenchShadowBuffer ??= { jobs: [], timer: null });
  buffer.jobs.push({ queue, job: { kind: "shadow", runId: `shadow:${answer.agentId}`, itemId: answer.traceId } });
  if (buffer.jobs.length >= SHADOW_LIMITS.enqueueBatch) await flushShadowJobs();
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushShadowJobs(), SHADOW_LIMITS.enqueueFlushMs);
    buffer.timer.unref?.();
  }
  return true;
}

/**
 * In process, without the queue (benchmarks, a process without a worker): sampled, in the background, at most
 * SHADOW_LIMITS.liveConcurrency at once per instance; a chat arriving while that many run is not shadowed (the shadow
 * is a sample; the user's answer never waits for it).
 */
export async function shadowOnlineAnswer(
  db: Db,
  answer: { agentId: string; traceId: string },
  random: () => number = Math.random,
): Promise<void> {
  const config = await samplingOf(db, answer.agentId);
  if (!config.enabled || random() >= config.sampleRate) return;
  if ((globals.__flowbenchShadowRunning ?? 0) >= SHADOW_LIMITS.liveConcurrency) return;
  globals.__flowbenchShadowRunning = (globals.__flowbenchShadowRunning ?? 0) + 1;
  try {
    await shadowTrace(db, answer.traceId, "live");
  } finally {
    globals.__flowbenchShadowRunning = (globals.__flowbenchShadowRunning ?? 1) - 1;
  }
}
