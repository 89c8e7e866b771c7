/** Loading stored workflow versions for execution (publishing one is server/agents: publishVersion). */
import type { Db } from "../db/client";
import { ApiError, errors } from "../core/errors";
import { WorkflowSchema, type Workflow } from "../workflow";

/**
 * Parsed workflows by version id. Versions are immutable, so entries never go stale; keeping the same object
 * also keeps the executor's compiled plan (cached per workflow object) warm across requests.
 */
const parsed = new Map<string, Workflow>();
const MAX_CACHED = 200;

/** Parses a stored or submitted workflow into the runtime's shape (configs default to {}). */
export function toWorkflow(value: unknown): Workflow {
  const result = WorkflowSchema.safeParse(value);
  // Stored versions passed the validator, which is the authority; the schema only fills in shape defaults.
  return result.success ? result.data : (value as Workflow);
}

function remember(id: string, stored: unknown): Workflow {
  const workflow = toWorkflow(stored);
  if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  parsed.set(id, workflow);
  return workflow;
}

/** The workflow of a version by its id (from the cache when it was loaded before). */
export async function workflowOf(db: Db, versionId: string): Promise<Workflow> {
  const hit = parsed.get(versionId);
  if (hit) return hit;
  const row = await db.workflowVersion.findUniqueOrThrow({ where: { id: versionId }, select: { workflow: true } });
  return remember(versionId, row.workflow);
}

export async function loadVersion(
  db: Db,
  agentId: string,
  version: number,
): Promise<{ id: string; version: number; workflow: Workflow }> {
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId, version } },
    select: { id: true },
  });
  if (!row) throw errors.notFound(`Version ${version} of agent ${agentId}`);
  return { id: row.id, version, workflow: await workflowOf(db, row.id) };
}

/**
 * The agent's published version in one round trip (agent and version joined), its workflow from the cache when
 * possible: online chat's hot path. Throws 404 for an unknown agent, 409 AGENT_NOT_PUBLISHED when none is published.
 */
export async function loadPublished(
  db: Db,
  agentId: string,
): Promise<{ id: string; version: number; workflow: Workflow }> {
  const rows = await db.$queryRaw<Array<{ publishedVersion: number | null; versionId: string | null }>>`
    SELECT a."publishedVersion", v."id" AS "versionId"
    FROM "Agent" a LEFT JOIN "WorkflowVersion" v ON v."agentId" = a."id" AND v."version" = a."publishedVersion"
    WHERE a."id" = ${agentId}`;
  const row = rows[0];
  if (!row) throw errors.notFound(`Agent ${agentId}`);
  if (row.publishedVersion === null || row.versionId === null) {
    throw new ApiError(
      409,
      "AGENT_NOT_PUBLISHED",
      `Agent ${agentId} has no published version; publish one with POST /api/builder/agents/${agentId}/publish`,
    );
  }
  return { id: row.versionId, version: row.publishedVersion, workflow: await workflowOf(db, row.versionId) };
}
