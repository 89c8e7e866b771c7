import { z } from "zod";
import { IdParam, VersionNumber, VersionParam } from "../core/params";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError, errors } from "../core/errors";
import type { Principal } from "../auth/service";
import { workflowInvalid, type ValidationResult } from "../workflow";
import { validateWorkflowWithCode } from "../runtime/validate-code";

/**
 * Agents and their immutable, numbered workflow versions. Provisioning always validates first; a workflow with
 * any error is refused with the same findings the validate endpoint reports. Consumed by REST, tRPC and
 * (later) the runtime and the evaluation center.
 */

/** An agent: `{ id }`; one of its versions: `{ id, version }` (coerced: REST path parameters are text). */
export const AgentParams = IdParam;
export const AgentVersionParams = z.object({ id: IdParam.shape.id, version: VersionParam });

export const AgentMetaSchema = z.object({
  name: z.string().trim().min(1, "name is required").max(120),
  description: z.string().max(2000).optional(),
});
export const CreateAgentInput = AgentMetaSchema.extend({
  workflow: z.unknown().meta({ description: "A workflow {nodes, edges}; validated exactly like POST /api/builder/validate" }),
  note: z.string().max(500).optional().meta({ description: "What changed in this version" }),
});
export const AddVersionInput = z.object({ workflow: z.unknown(), note: z.string().max(500).optional() });
export const UpdateAgentInput = AgentMetaSchema.partial();
export const PublishInput = z.object({ version: VersionNumber.meta({ description: "The version online chat should run" }) });
export const ListAgentsQuery = z.object({
  q: z.string().max(120).optional().meta({ description: "Case-insensitive name filter" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(64).optional().meta({ description: "nextCursor from the previous page" }),
});

export type ProvisionOptions = { webhookBaseUrl?: string };

function actorId(actor: Principal | null): string | null {
  return actor?.userId ?? null;
}

/** Validation (with the Python syntax check of code nodes) before anything is stored. */
async function validateOrThrow(workflow: unknown, opts: ProvisionOptions): Promise<ValidationResult> {
  const result = await validateWorkflowWithCode({ workflow }, { webhookBaseUrl: opts.webhookBaseUrl });
  if (!result.valid) throw workflowInvalid(result);
  return result;
}

const agentSelect = {
  id: true,
  name: true,
  description: true,
  latestVersion: true,
  createdAt: true,
  updatedAt: true,
  createdById: true,
} as const;
const versionMetaSelect = { id: true, agentId: true, version: true, note: true, warnings: true, createdAt: true, createdById: true } as const;

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

function insertVersion(tx: Tx, agentId: string, version: number, data: { workflow: unknown; note?: string }, result: ValidationResult, actor: Principal | null) {
  return tx.workflowVersion.create({
    data: {
      agentId,
      version,
      workflow: data.workflow as Prisma.InputJsonValue,
      note: data.note ?? "",
      warnings: result.warnings as unknown as Prisma.InputJsonValue,
      createdById: actorId(actor),
    },
    select: versionMetaSelect,
  });
}

export async function createAgent(db: Db, input: z.input<typeof CreateAgentInput>, actor: Principal | null, opts: ProvisionOptions) {
  const data = CreateAgentInput.parse(input);
  const result = await validateOrThrow(data.workflow, opts);
  return db.$transaction(async (tx) => {
    const agent = await tx.agent.create({
      data: { name: data.name, description: data.description ?? "", latestVersion: 1, createdById: actorId(actor) },
      select: agentSelect,
    });
    const version = await insertVersion(tx, agent.id, 1, data, result, actor);
    return { agent, version, warnings: result.warnings };
  });
}

/** Stores the next version. The row lock taken by the increment serialises concurrent provisioning. */
export async function addVersion(db: Db, agentId: string, input: z.input<typeof AddVersionInput>, actor: Principal | null, opts: ProvisionOptions) {
  const data = AddVersionInput.parse(input);
  const result = await validateOrThrow(data.workflow, opts);
  return db.$transaction(async (tx) => {
    let agent;
    try {
      agent = await tx.agent.update({ where: { id: agentId }, data: { latestVersion: { increment: 1 } }, select: agentSelect });
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw errors.notFound(`Agent ${agentId}`);
      throw e;
    }
    const version = await insertVersion(tx, agentId, agent.latestVersion, data, result, actor);
    return { agent, version, warnings: result.warnings };
  });
}

/** What a list shows of a version: its warning count and the node types it uses. */
function summarizeVersion(v: { warnings: unknown; workflow: unknown } | undefined) {
  if (!v) return null;
  const nodes = (v.workflow as { nodes?: Array<{ type?: unknown }> } | null)?.nodes ?? [];
  return {
    warningCount: Array.isArray(v.warnings) ? v.warnings.length : 0,
    nodeCount: nodes.length,
    nodeTypes: [...new Set(nodes.map((n) => String(n.type)))],
  };
}

export async function listAgents(db: Db, query: z.input<typeof ListAgentsQuery>) {
  const q = ListAgentsQuery.parse(query);
  const rows = await db.agent.findMany({
    where: q.q ? { name: { contains: q.q, mode: "insensitive" } } : undefined,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: agentSelect,
  });
  const page = rows.slice(0, q.limit);
  // One query for every listed agent's latest version, so a list never costs a request per agent.
  const latest = page.length
    ? await db.workflowVersion.findMany({
        where: { OR: page.map((a) => ({ agentId: a.id, version: a.latestVersion })) },
        select: { agentId: true, warnings: true, workflow: true },
      })
    : [];
  const byAgent = new Map(latest.map((v) => [v.agentId, v]));
  const items = page.map((a) => ({ ...a, latestSummary: summarizeVersion(byAgent.get(a.id)) }));
  return { items, nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

export async function getAgent(db: Db, id: string) {
  const agent = await db.agent.findUnique({ where: { id }, select: agentSelect });
  if (!agent) throw errors.notFound(`Agent ${id}`);
  const latest = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId: id, version: agent.latestVersion } },
    select: { ...versionMetaSelect, workflow: true },
  });
  return { ...agent, latest };
}

export async function updateAgent(db: Db, id: string, input: z.input<typeof UpdateAgentInput>) {
  const data = UpdateAgentInput.parse(input);
  try {
    return await db.agent.update({ where: { id }, data, select: agentSelect });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw errors.notFound(`Agent ${id}`);
    throw e;
  }
}

export async function deleteAgent(db: Db, id: string) {
  try {
    await db.agent.delete({ where: { id } });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw errors.notFound(`Agent ${id}`);
    throw e;
  }
}

export async function listVersions(db: Db, agentId: string) {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { id: true } });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
  return db.workflowVersion.findMany({ where: { agentId }, orderBy: { version: "desc" }, select: versionMetaSelect });
}

export async function getVersion(db: Db, agentId: string, version: number) {
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId, version } },
    select: { ...versionMetaSelect, workflow: true },
  });
  if (!row) throw errors.notFound(`Version ${version} of agent ${agentId}`);
  return row;
}

/** Makes `version` the one online chat runs (POST /api/agents/{id}/chat). */
export async function publishVersion(db: Db, agentId: string, version: number) {
  const row = await db.workflowVersion.findUnique({ where: { agentId_version: { agentId, version } }, select: { id: true } });
  if (!row) {
    const agent = await db.agent.findUnique({ where: { id: agentId }, select: { id: true } });
    throw errors.notFound(agent ? `Version ${version} of agent ${agentId}` : `Agent ${agentId}`);
  }
  try {
    const agent = await db.agent.update({ where: { id: agentId }, data: { publishedVersion: version }, select: { ...agentSelect, publishedVersion: true } });
    return { agent, workflowVersionId: row.id };
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw errors.notFound(`Agent ${agentId}`);
    throw e;
  }
}
