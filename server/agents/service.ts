import { z } from "zod";
import { CursorParam, IdParam, VersionNumber, VersionParam } from "../core/params";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { isFrozenViolation } from "../db/triggers";
import { ApiError, errors } from "../core/errors";
import type { Principal } from "../auth/service";
import {
  AGENT_KINDS,
  workflowField,
  workflowInvalid,
  type AgentKind,
  type Finding,
  type ValidationResult,
  type Workflow,
} from "../workflow";
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
export const AgentKindField = z.enum(AGENT_KINDS);
export const CreateAgentInput = AgentMetaSchema.extend({
  kind: AgentKindField.default("agent").meta({
    description:
      "agent (default) or judge: a judge's workflow must follow the judge contract (validated like POST /api/builder/validate with this kind); fixed once created",
  }),
  workflow: workflowField(
    "A workflow {nodes, edges}; validated exactly like POST /api/builder/validate with the agent's kind",
  ),
  note: z.string().max(500).optional().meta({ description: "What changed in this version" }),
});
export const AddVersionInput = z.object({
  workflow: workflowField(
    "A workflow {nodes, edges}; validated exactly like POST /api/builder/validate with the agent's kind",
  ),
  note: z.string().max(500).optional(),
});
export const UpdateAgentInput = AgentMetaSchema.partial();
export const PublishInput = z.object({
  version: VersionNumber.meta({ description: "The version online chat should run" }),
});
export const AGENT_ORDERS = ["updated", "evaluation"] as const;
export const ListAgentsQuery = z.object({
  q: z.string().max(120).optional().meta({ description: "Case-insensitive name filter" }),
  kind: AgentKindField.optional().meta({ description: "Only agents of this kind (default: both)" }),
  order: z.enum(AGENT_ORDERS).default("updated").meta({
    description:
      "updated: the last changed first (default); evaluation: agents with evaluation sets first (the one with the newest set first), then the others, by name",
  }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: CursorParam,
});

export type ProvisionOptions = { webhookBaseUrl?: string };

function actorId(actor: Principal | null): string | null {
  return actor?.userId ?? null;
}

/**
 * Validation (with the Python syntax check of code nodes) before anything is stored: 400 WORKFLOW_INVALID with the
 * findings, else the result (its warnings are stored with the version). Run it outside a transaction (the syntax check
 * starts the sandbox), then store with `addVersionTx`.
 */
export async function validateForProvisioning(
  workflow: unknown,
  opts: ProvisionOptions,
  kind: AgentKind = "agent",
): Promise<ValidationResult> {
  const result = await validateWorkflowWithCode({ workflow, kind }, { webhookBaseUrl: opts.webhookBaseUrl });
  if (!result.valid) throw workflowInvalid(result);
  return result;
}

const agentSelect = {
  id: true,
  name: true,
  description: true,
  kind: true,
  latestVersion: true,
  publishedVersion: true,
  createdAt: true,
  updatedAt: true,
  createdById: true,
} as const;
const versionMetaSelect = {
  id: true,
  agentId: true,
  version: true,
  note: true,
  warnings: true,
  createdAt: true,
  createdById: true,
} as const;

type Tx = Prisma.TransactionClient;

/**
 * A stored version as the API answers it: `warnings` is JSON in the database, written only by insertVersion from the
 * validator's findings, so it is read back as those findings (the output schemas, FindingOut, say the same).
 */
function storedVersion<T extends { warnings: Prisma.JsonValue }>(
  row: T,
): Omit<T, "warnings"> & { warnings: Finding[] } {
  return { ...row, warnings: (row.warnings ?? []) as unknown as Finding[] };
}

/** The same with its workflow, stored only after validation passed (versions are immutable), as that workflow. */
function storedWorkflowVersion<T extends { warnings: Prisma.JsonValue; workflow: Prisma.JsonValue }>(
  row: T,
): Omit<T, "warnings" | "workflow"> & { warnings: Finding[]; workflow: Workflow } {
  const { workflow, warnings, ...rest } = row;
  return { ...rest, warnings: (warnings ?? []) as unknown as Finding[], workflow: workflow as unknown as Workflow };
}

async function insertVersion(
  tx: Tx,
  agentId: string,
  version: number,
  data: { workflow: unknown; note?: string },
  result: ValidationResult,
  actor: Principal | null,
) {
  const row = await tx.workflowVersion.create({
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
  return storedVersion(row);
}

export async function createAgent(
  db: Db,
  input: z.input<typeof CreateAgentInput>,
  actor: Principal | null,
  opts: ProvisionOptions,
) {
  const data = CreateAgentInput.parse(input);
  const result = await validateForProvisioning(data.workflow, opts, data.kind);
  return db.$transaction(async (tx) => {
    const agent = await tx.agent.create({
      data: {
        name: data.name,
        description: data.description ?? "",
        kind: data.kind,
        latestVersion: 1,
        createdById: actorId(actor),
      },
      select: agentSelect,
    });
    const version = await insertVersion(tx, agent.id, 1, data, result, actor);
    return { agent, version, warnings: result.warnings };
  });
}

/** Stores the next version. The row lock taken by the increment serialises concurrent provisioning. */
export async function addVersion(
  db: Db,
  agentId: string,
  input: z.input<typeof AddVersionInput>,
  actor: Principal | null,
  opts: ProvisionOptions,
) {
  const data = AddVersionInput.parse(input);
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { kind: true } });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
  const result = await validateForProvisioning(data.workflow, opts, agent.kind);
  return db.$transaction((tx) => addVersionTx(tx, agentId, data, result, actor));
}

/**
 * `addVersion` inside the caller's transaction, for a workflow `validateForProvisioning` has passed (`result`): the
 * agent's `latestVersion` is incremented (its row lock serialises provisioning) and the version stored.
 */
export async function addVersionTx(
  tx: Tx,
  agentId: string,
  data: { workflow: unknown; note?: string },
  result: ValidationResult,
  actor: Principal | null,
) {
  let agent: Awaited<ReturnType<typeof tx.agent.update>>;
  try {
    agent = await tx.agent.update({
      where: { id: agentId },
      data: { latestVersion: { increment: 1 } },
      select: agentSelect,
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025")
      throw errors.notFound(`Agent ${agentId}`);
    throw e;
  }
  const version = await insertVersion(tx, agentId, agent.latestVersion, data, result, actor);
  return { agent, version, warnings: result.warnings };
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
  const rows =
    q.order === "evaluation"
      ? await agentsByEvaluation(db, q)
      : await db.agent.findMany({
          where: {
            ...(q.q ? { name: { contains: q.q, mode: "insensitive" as const } } : {}),
            ...(q.kind ? { kind: q.kind } : {}),
          },
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

/**
 * A page of agents in the evaluation center's order: agents that own evaluation sets first, the one with the newest set
 * first, then the others; by name, then id, within equal keys. Keyset pages: the cursor is the last agent's id (its
 * keys are read again), so a page never skips or repeats an agent while none is added.
 */
async function agentsByEvaluation(db: Db, q: z.output<typeof ListAgentsQuery>) {
  const ranked = Prisma.sql`
    SELECT a."id", a."name", (SELECT max(e."createdAt") FROM "EvalSet" e WHERE e."agentId" = a."id") AS "newest"
    FROM "Agent" a
    WHERE ${q.q ? Prisma.sql`strpos(lower(a."name"), lower(${q.q})) > 0` : Prisma.sql`true`}
      AND ${q.kind ? Prisma.sql`a."kind" = ${q.kind}::"AgentKind"` : Prisma.sql`true`}`;
  const none = Prisma.sql`'epoch'::timestamp`;
  const ids = await db.$queryRaw<Array<{ id: string }>>`
    WITH k AS (${ranked}), c AS (SELECT * FROM k WHERE "id" = ${q.cursor ?? null})
    SELECT k."id" FROM k
    WHERE ${
      q.cursor
        ? Prisma.sql`EXISTS (SELECT 1 FROM c) AND (
            (k."newest" IS NULL)::int > (SELECT ("newest" IS NULL)::int FROM c)
            OR ((k."newest" IS NULL) = (SELECT "newest" IS NULL FROM c) AND (
              COALESCE(k."newest", ${none}) < (SELECT COALESCE("newest", ${none}) FROM c)
              OR (COALESCE(k."newest", ${none}) = (SELECT COALESCE("newest", ${none}) FROM c) AND (k."name", k."id") > (SELECT "name", "id" FROM c)))))`
        : Prisma.sql`true`
    }
    ORDER BY (k."newest" IS NULL), k."newest" DESC, k."name", k."id"
    LIMIT ${q.limit + 1}`;
  const rows = await db.agent.findMany({ where: { id: { in: ids.map((r) => r.id) } }, select: agentSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((r) => byId.get(r.id)).filter((r): r is (typeof rows)[number] => !!r);
}

export async function getAgent(db: Db, id: string) {
  const agent = await db.agent.findUnique({ where: { id }, select: agentSelect });
  if (!agent) throw errors.notFound(`Agent ${id}`);
  const latest = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId: id, version: agent.latestVersion } },
    select: { ...versionMetaSelect, workflow: true },
  });
  return { ...agent, latest: latest && storedWorkflowVersion(latest) };
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

/** 409 AGENT_HAS_FROZEN_SETS naming the agent's sets with frozen versions, or null when it has none. */
async function frozenSetsConflict(db: Db, id: string): Promise<ApiError | null> {
  const frozen = await db.evalSet.findMany({
    where: { agentId: id, versions: { some: { status: "frozen" } } },
    select: { id: true, name: true },
    take: 20,
  });
  if (!frozen.length) return null;
  return new ApiError(
    409,
    "AGENT_HAS_FROZEN_SETS",
    `The agent owns ${frozen.length === 20 ? "20 or more" : frozen.length} evaluation set(s) with frozen versions (${frozen.map((f) => `"${f.name}" ${f.id}`).join(", ")}); delete those sets first`,
    frozen.map((f) => ({ path: `/sets/${f.id}`, message: f.name, code: "frozen_set" })),
  );
}

/**
 * Deletes an agent and everything it owns, unless it owns a frozen evaluation set version (release evidence; the
 * database's trigger refuses the cascade) or is the judge of an evaluation set (409 JUDGE_IN_USE naming the sets). The check names the blocking sets up front; a version frozen between the
 * check and the delete reaches the trigger instead, and that refusal is answered the same way (409, never a 500).
 */
/** 409 JUDGE_IN_USE naming the evaluation sets whose judge is this agent (any version), or null when none is. */
async function judgeOfSetsConflict(db: Db, id: string): Promise<ApiError | null> {
  const sets = await db.evalSet.findMany({
    where: { judge: { path: ["agentId"], equals: id } },
    select: { id: true, name: true },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
  if (!sets.length) return null;
  return new ApiError(
    409,
    "JUDGE_IN_USE",
    `The agent is the judge of ${sets.length === 20 ? "20 or more" : sets.length} evaluation set(s) (${sets.map((s) => `"${s.name}" ${s.id}`).join(", ")}); choose another judge for them first`,
    sets.map((s) => ({ path: `/sets/${s.id}`, message: s.name, code: "judge_of_set" })),
  );
}

export async function deleteAgent(db: Db, id: string) {
  const conflict = (await frozenSetsConflict(db, id)) ?? (await judgeOfSetsConflict(db, id));
  if (conflict) throw conflict;
  try {
    await db.agent.delete({ where: { id } });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw errors.notFound(`Agent ${id}`);
    if (isFrozenViolation(e))
      throw (
        (await frozenSetsConflict(db, id)) ??
        new ApiError(
          409,
          "AGENT_HAS_FROZEN_SETS",
          "The agent owns an evaluation set version that was frozen meanwhile; delete that set first",
        )
      );
    throw e;
  }
}

/** 404 NOT_FOUND unless the agent exists (the check of every operation addressed by an agent id). */
export async function requireAgent(db: Db | Tx, agentId: string): Promise<void> {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { id: true } });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
}

export async function listVersions(db: Db, agentId: string) {
  await requireAgent(db, agentId);
  const rows = await db.workflowVersion.findMany({
    where: { agentId },
    orderBy: { version: "desc" },
    select: versionMetaSelect,
  });
  return rows.map(storedVersion);
}

export async function getVersion(db: Db, agentId: string, version: number) {
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId, version } },
    select: { ...versionMetaSelect, workflow: true },
  });
  if (!row) throw errors.notFound(`Version ${version} of agent ${agentId}`);
  return storedWorkflowVersion(row);
}

/** Makes `version` the one online chat runs (POST /api/agents/{id}/chat). */
export async function publishVersion(db: Db, agentId: string, version: number) {
  return publishVersionTx(db, agentId, version);
}

/** `publishVersion` with the caller's client: a transaction's, so publishing goes with what the caller writes beside it. */
export async function publishVersionTx(db: Db | Tx, agentId: string, version: number) {
  const row = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId, version } },
    select: { id: true },
  });
  if (!row) {
    const agent = await db.agent.findUnique({ where: { id: agentId }, select: { id: true } });
    throw errors.notFound(agent ? `Version ${version} of agent ${agentId}` : `Agent ${agentId}`);
  }
  try {
    const agent = await db.agent.update({
      where: { id: agentId },
      data: { publishedVersion: version },
      select: agentSelect,
    });
    return { agent, workflowVersionId: row.id };
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025")
      throw errors.notFound(`Agent ${agentId}`);
    throw e;
  }
}
