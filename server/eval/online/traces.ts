import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { ONLINE_SOURCES, messageField, workflowOf } from "../../runtime";
import type { Workflow } from "../../workflow";
import { evalErrors } from "../errors";
import { EVAL_LIMITS } from "../limits";
import type { LeadStatus } from "./schemas";

type Turn = { role: "user" | "assistant"; content: string; preset: boolean };

export function userMessage(input: unknown, workflow: Workflow | null): string {
  const obj = (input ?? {}) as Record<string, unknown>;
  const field = workflow ? messageField(workflow) : undefined;
  if (field && typeof obj[field] === "string") return obj[field] as string;
  const firstString = Object.values(obj).find((v) => typeof v === "string");
  return typeof firstString === "string" ? firstString : JSON.stringify(obj);
}

/** The workflow of a trace's version (runtime's `workflowOf`, cached per version id), or null without one. */
export function versionWorkflow(db: Db, versionId: string | null): Promise<Workflow | null> {
  return versionId ? workflowOf(db, versionId).catch(() => null) : Promise.resolve(null);
}

/** What the scan reads of a trace: light columns only (the leads found get their input, answer and payload after). */
export type TraceRow = {
  id: string;
  startedAt: Date;
  status: string;
  mode: string;
  sessionId: string | null;
  createdById: string | null;
  /** pipeline_live traces only (the one tier whose empty item list is a signal) */
  payload: unknown;
  /** the http steps only (the only steps the guardrail rules look at) */
  steps: unknown;
  error: unknown;
  workflowVersionId: string | null;
  score: number | null;
  comment: string | null;
  /** the online judge's verdict on the trace (sampled answers only) */
  judgeVerdict: string | null;
  leadStatus: LeadStatus;
};

/**
 * Earlier turns of each trace's session (same agent and caller, source chat), oldest first: the conversation each
 * message belongs to, for all the traces in one query (the last `maxScriptTurns / 2 - 1` turns before each).
 */
export async function conversationsBefore(
  db: Db,
  traces: Array<Pick<TraceRow, "id" | "sessionId"> & { workflow: Workflow | null }>,
  agentId: string,
): Promise<Map<string, Turn[]>> {
  const out = new Map<string, Turn[]>(traces.map((t) => [t.id, []]));
  const inSession = traces.filter((t) => t.sessionId);
  if (!inSession.length) return out;
  const rows = await db.$queryRaw<Array<{ leadId: string; input: unknown; answer: string | null }>>`
    SELECT t."id" AS "leadId", p."input", p."answer"
    FROM "Trace" t
    CROSS JOIN LATERAL (
      SELECT e."id", e."input", e."answer", e."startedAt" FROM "Trace" e
      WHERE e."agentId" = ${agentId} AND e."sessionId" = t."sessionId" AND e."source" = 'chat'
        AND e."createdById" IS NOT DISTINCT FROM t."createdById" AND e."startedAt" < t."startedAt" AND e."id" <> t."id"
      ORDER BY e."startedAt" DESC, e."id" DESC
      LIMIT ${Math.floor(EVAL_LIMITS.maxScriptTurns / 2) - 1}
    ) p
    WHERE t."id" = ANY(${inSession.map((t) => t.id)}::text[])
    ORDER BY t."id", p."startedAt" ASC, p."id" ASC`;
  const workflowOfLead = new Map(inSession.map((t) => [t.id, t.workflow]));
  for (const r of rows) {
    const turns = out.get(r.leadId)!;
    turns.push({
      role: "user",
      content: userMessage(r.input, workflowOfLead.get(r.leadId) ?? null).slice(0, EVAL_LIMITS.maxTurnChars),
      preset: true,
    });
    if (r.answer) turns.push({ role: "assistant", content: r.answer.slice(0, EVAL_LIMITS.maxTurnChars), preset: true });
  }
  return out;
}

export async function onlineTrace(db: Db | Prisma.TransactionClient, traceId: string) {
  const t = await db.trace.findUnique({
    where: { id: traceId },
    select: {
      id: true,
      agentId: true,
      source: true,
      startedAt: true,
      sessionId: true,
      createdById: true,
      input: true,
      answer: true,
      workflowVersionId: true,
    },
  });
  if (!t) throw errors.notFound(`Trace ${traceId}`);
  if (!(ONLINE_SOURCES as readonly string[]).includes(t.source)) throw evalErrors.traceNotOnline(t.source);
  return t;
}
