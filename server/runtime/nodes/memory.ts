import { randomUUID } from "node:crypto";
import { toStorable, toStorableText } from "../../core/text";
import {
  renderTemplate,
  renderTemplatesDeep,
  resolveTemplateRef,
  type MemoryLoadConfig,
  type MemorySaveConfig,
} from "../../workflow";
import { RuntimeError } from "../errors";
import type { NodeContext, NodeOutcome } from "./context";

/**
 * memory_load / memory_save over the AgentMemory table, one row per (agent, memory_type, key).
 *
 * Whose memory: `agent_id` names an agent by id (its memory is used, so agents can share memory), or is a label
 * (e.g. "support-bot": builders do not know the generated id when they write the workflow); a label keeps memory
 * under the running agent, namespaced as "<label>/<key>". Without a running agent a label is an error.
 * The key is the rendered `key` template (default {{start.sessionId}}); empty means "default".
 * The scope is the execution's memory scope: "" (production) for online chat and API calls, an isolated scope that
 * starts empty for evaluation items and test runs (see ExecuteOptions.memoryScope), so they never touch production.
 * Keys and saved data are rendered from upstream outputs (a code node may return "\u0000"), so both pass through
 * `toStorable` (server/core/text.ts: NUL and unpaired surrogates become U+FFFD) before they reach the database.
 */
type Owner = { agentId: string; scope: string; key: string };

async function owner(ctx: NodeContext<MemoryLoadConfig | MemorySaveConfig>): Promise<Owner> {
  const label = (ctx.config.agent_id ?? "").trim();
  const key = toStorableText(renderTemplate(ctx.config.key, ctx.scope).trim()) || "default";
  if (!label || label === ctx.agentId) {
    if (!ctx.agentId)
      throw new RuntimeError("MEMORY_AGENT_UNKNOWN", "The memory node names no agent and the run has none");
    return { agentId: ctx.agentId, scope: ctx.memoryScope, key };
  }
  const agent = await ctx.db.agent.findUnique({ where: { id: label }, select: { id: true } });
  if (agent) return { agentId: agent.id, scope: ctx.memoryScope, key };
  if (!ctx.agentId)
    throw new RuntimeError(
      "MEMORY_AGENT_UNKNOWN",
      `agent_id ${JSON.stringify(label)} is not an agent and the run has no agent to keep the memory under`,
    );
  return { agentId: ctx.agentId, scope: ctx.memoryScope, key: `${label}/${key}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export async function runMemoryLoad(ctx: NodeContext<MemoryLoadConfig>): Promise<NodeOutcome> {
  const who = await owner(ctx);
  const memoryType = ctx.config.memory_type;
  const row = await ctx.db.agentMemory.findUnique({
    where: { agentId_scope_memoryType_key: { agentId: who.agentId, scope: who.scope, memoryType, key: who.key } },
    select: { data: true },
  });
  const data = isRecord(row?.data) ? row.data : {};
  const fields = ctx.config.fields;
  const result = fields
    ? Object.fromEntries(fields.filter((f) => Object.hasOwn(data, f)).map((f) => [f, data[f]]))
    : data;
  return {
    status: "succeeded",
    input: { agentId: who.agentId, scope: who.scope || "production", memoryType, key: who.key, fields: fields ?? null },
    output: { result, found: row !== null },
  };
}

/** What a save merges into the stored object. */
function dataToSave(ctx: NodeContext<MemorySaveConfig>): Record<string, unknown> | null {
  const { config, scope } = ctx;
  if (config.data !== undefined) {
    const value = renderTemplatesDeep(config.data, scope);
    if (isRecord(value)) return value;
    if (typeof value === "string") {
      try {
        const parsed: unknown = JSON.parse(value);
        if (isRecord(parsed)) return parsed;
      } catch {
        /* plain text */
      }
    }
    return { value };
  }
  if (config.extractFrom) {
    const [nodeId = "", field = "", ...path] = config.extractFrom.split(".");
    const { value } = resolveTemplateRef(scope, { nodeId, field, path });
    if (isRecord(value)) return value;
    return { [path.at(-1) ?? field]: value ?? null };
  }
  return null;
}

export async function runMemorySave(ctx: NodeContext<MemorySaveConfig>): Promise<NodeOutcome> {
  const who = await owner(ctx);
  const memoryType = ctx.config.memory_type;
  const data = toStorable(dataToSave(ctx));
  const input = { agentId: who.agentId, scope: who.scope || "production", memoryType, key: who.key, data };
  if (data === null) return { status: "succeeded", input, output: { result: null, saved: false } };
  // One atomic statement: concurrent saves to the same key merge instead of overwriting each other.
  const rows = await ctx.db.$queryRaw<Array<{ data: unknown }>>`
    INSERT INTO "AgentMemory" ("id", "agentId", "scope", "memoryType", "key", "data", "updatedAt")
    VALUES (${randomUUID()}, ${who.agentId}, ${who.scope}, ${memoryType}, ${who.key}, CAST(${JSON.stringify(data)} AS jsonb), CAST(${new Date().toISOString()} AS timestamp(3)))
    ON CONFLICT ("agentId", "scope", "memoryType", "key") DO UPDATE SET
      "data" = CASE WHEN jsonb_typeof("AgentMemory"."data") = 'object' THEN "AgentMemory"."data" || EXCLUDED."data" ELSE EXCLUDED."data" END,
      "updatedAt" = EXCLUDED."updatedAt"
    RETURNING "data"`;
  const stored = rows[0]?.data;
  return {
    status: "succeeded",
    input,
    output: { result: typeof stored === "string" ? (JSON.parse(stored) as unknown) : (stored ?? data), saved: true },
  };
}
