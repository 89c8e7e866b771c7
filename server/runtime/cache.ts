/**
 * Online chat's answer cache (ChatCacheEntry), per workflow version. Only the chat face uses it: executeWorkflow
 * never reads or writes it, so evaluation runs and test runs always really run.
 *
 * Key: the question normalised (NFKC, lower-case, whitespace collapsed, trimmed) plus, when the request carries
 * other start inputs, their canonical JSON, hashed with SHA-256. Entries expire after CHAT_CACHE_TTL_SECONDS
 * (0 disables the cache). Only successful answers are stored.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../core/json";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { Workflow } from "../workflow";
import { messageField } from "./input";

export function normalizeQuestion(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

export type CacheKey = { question: string; hash: string };

/** The cache key of a chat input, or null when it has no question text to key on. */
export function chatCacheKey(workflow: Workflow, input: Record<string, unknown>): CacheKey | null {
  const field = messageField(workflow);
  const text = field ? input[field] : undefined;
  if (typeof text !== "string") return null;
  const question = normalizeQuestion(text);
  if (!question) return null;
  const rest = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => k !== field && k !== "sessionId" && v !== undefined),
  );
  const material = Object.keys(rest).length ? `${question}\u0000${canonicalJson(rest)}` : question;
  return { question, hash: createHash("sha256").update(material).digest("hex") };
}

/** Workflows with memory nodes are never cached: their answers depend on, and change, stored state. */
export function cacheableWorkflow(workflow: Workflow): boolean {
  return !workflow.nodes.some((n) => n.type === "memory_load" || n.type === "memory_save");
}

/** Looks up an unexpired answer and counts the hit, in one statement. */
export async function takeCached(
  db: Db,
  workflowVersionId: string,
  key: CacheKey,
  now = new Date(),
): Promise<{ answer: string; payload: Record<string, unknown> | null; traceId: string } | null> {
  const rows = await db.$queryRaw<Array<{ answer: string; payload: unknown; traceId: string }>>`
    UPDATE "ChatCacheEntry" SET "hits" = "hits" + 1
    WHERE "workflowVersionId" = ${workflowVersionId} AND "questionHash" = ${key.hash} AND "expiresAt" > CAST(${now.toISOString()} AS timestamp(3))
    RETURNING "answer", "payload", "traceId"`;
  const row = rows[0];
  if (!row) return null;
  const payload = typeof row.payload === "string" ? (JSON.parse(row.payload) as unknown) : row.payload;
  return { answer: row.answer, payload: (payload ?? null) as Record<string, unknown> | null, traceId: row.traceId };
}

let lastSweep = 0;
const SWEEP_EVERY_MS = 60_000;

export async function storeCached(
  db: Db,
  entry: {
    workflowVersionId: string;
    key: CacheKey;
    answer: string;
    payload: Record<string, unknown> | null;
    traceId: string;
    ttlSeconds: number;
  },
): Promise<void> {
  const now = Date.now();
  const expiresAt = new Date(now + entry.ttlSeconds * 1000);
  const payload = entry.payload === null ? Prisma.DbNull : (entry.payload as Prisma.InputJsonValue);
  await db.chatCacheEntry.upsert({
    where: {
      workflowVersionId_questionHash: { workflowVersionId: entry.workflowVersionId, questionHash: entry.key.hash },
    },
    create: {
      workflowVersionId: entry.workflowVersionId,
      questionHash: entry.key.hash,
      question: entry.key.question,
      answer: entry.answer,
      payload,
      traceId: entry.traceId,
      expiresAt,
    },
    update: { question: entry.key.question, answer: entry.answer, payload, traceId: entry.traceId, expiresAt, hits: 0 },
  });
  // Expired rows are removed now and then (at most once a minute per process), never on the hot path of a hit.
  if (now - lastSweep > SWEEP_EVERY_MS) {
    lastSweep = now;
    await db.chatCacheEntry.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  }
}
