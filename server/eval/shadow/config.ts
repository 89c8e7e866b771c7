/** The shadow's configuration: read, write (validated candidate, references, sampling), the candidate key. */
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { type Principal, actorRef } from "../../auth/service";
import { ApiError, errors } from "../../core/errors";
import { requireAgent, type ProvisionOptions } from "../../agents/service";
import { canonicalJson } from "../../core/json";
import { validateWorkflowWithCode } from "../../runtime/validate-code";
import {
  extractTemplateRefs,
  validateWorkflowRequest,
  WorkflowSchema,
  workflowInvalid,
  type Finding,
  type Workflow,
} from "../../workflow";
import { ShadowConfigInput } from "./schemas";
import { samplingChanged } from "./state";

export const notConfigured = () =>
  new ApiError(409, "SHADOW_NOT_CONFIGURED", "Configure the shadow first: PUT /api/eval/shadow/{agentId}");

type ConfigRow = {
  agentId: string;
  candidateVersion: number | null;
  candidateWorkflow: unknown;
  candidateNote: string;
  liveRef: string;
  candidateRef: string;
  sampleRate: number;
  enabled: boolean;
  updatedById: string | null;
  updatedAt: Date;
};
export function configOut({
  agentId,
  candidateVersion,
  candidateWorkflow,
  candidateNote,
  liveRef,
  candidateRef,
  sampleRate,
  enabled,
  updatedById,
  updatedAt,
}: ConfigRow) {
  return {
    agentId,
    candidateVersion,
    candidateWorkflow: (candidateWorkflow as Workflow | null) ?? null,
    candidateNote,
    liveRef,
    candidateRef,
    sampleRate,
    enabled,
    updatedById,
    updatedAt,
  };
}

export async function getShadowConfig(db: Db, agentId: string) {
  await requireAgent(db, agentId);
  const c = await db.shadowConfig.findUnique({ where: { agentId } });
  return { config: c ? configOut(c) : null };
}

/**
 * Which results belong to a configuration: the candidate's workflow **content** and both intent references (not the
 * rate or on/off, not whether the candidate is a draft or a version). A draft and the version provisioned from it have
 * the same content (canonical JSON of the parsed workflow: key order, as jsonb stores it, does not matter), so
 * publishing a draft and configuring its version afterwards keeps the key and the report.
 */
export function candidateKeyOf(workflow: Workflow, refs: { liveRef: string; candidateRef: string }): string {
  return createHash("sha256")
    .update(canonicalJson([WorkflowSchema.parse(workflow), refs.liveRef, refs.candidateRef]))
    .digest("hex")
    .slice(0, 32);
}

/**
 * Sets the shadow. A draft candidate is validated like any workflow that is provisioned (the Python syntax of code
 * nodes included): errors answer 400 WORKFLOW_INVALID with the findings, warnings come back with the saved config.
 */
export async function putShadowConfig(
  db: Db,
  agentId: string,
  input: z.input<typeof ShadowConfigInput>,
  actor: Principal | null,
  opts: ProvisionOptions = {},
) {
  const data = ShadowConfigInput.parse(input);
  await requireAgent(db, agentId);
  const draft = data.candidateWorkflow !== undefined;
  let warnings: Finding[] = [];
  let workflow: Workflow;
  if (draft) {
    const result = await validateWorkflowWithCode(
      { workflow: data.candidateWorkflow },
      { webhookBaseUrl: opts.webhookBaseUrl },
    );
    if (!result.valid) throw workflowInvalid(result);
    warnings = result.warnings;
    workflow = WorkflowSchema.parse(data.candidateWorkflow);
  } else workflow = await candidateWorkflowOf(db, agentId, data.candidateVersion ?? null, null);
  // the template's own syntax (the schema only checks its shape)
  for (const [name, ref] of [
    ["liveRef", data.liveRef],
    ["candidateRef", data.candidateRef],
  ] as const) {
    const scan = extractTemplateRefs(ref);
    if (!scan.refs.length || scan.errors.length)
      throw errors.badRequest(
        "REQUEST_INVALID",
        `${name} must be a template naming a node output, e.g. {{detect.result.scene}}`,
      );
  }
  // the candidate's intent must name nodes of the candidate
  const ids = new Set(workflow.nodes.map((n) => n.id));
  const missing = extractTemplateRefs(data.candidateRef).refs.filter((r) => !ids.has(r.nodeId));
  if (missing.length)
    throw errors.badRequest(
      "REQUEST_INVALID",
      `candidateRef names ${missing.map((m) => m.nodeId).join(", ")}, not a node of the candidate`,
    );
  const candidate = {
    candidateVersion: draft ? null : (data.candidateVersion ?? null),
    candidateWorkflow: draft ? (data.candidateWorkflow as object) : null,
    liveRef: data.liveRef,
    candidateRef: data.candidateRef,
  };
  const values = {
    ...candidate,
    candidateNote: data.candidateNote ?? "",
    candidateKey: candidateKeyOf(workflow, data),
    sampleRate: data.sampleRate,
    enabled: data.enabled,
    updatedById: actorRef(actor),
  };
  const row = await db.shadowConfig.upsert({
    where: { agentId },
    create: { agentId, ...values, candidateWorkflow: values.candidateWorkflow ?? undefined },
    update: { ...values, candidateWorkflow: values.candidateWorkflow ?? Prisma.DbNull },
  });
  samplingChanged(agentId);
  return { config: configOut(row), warnings };
}

export async function candidateWorkflowOf(
  db: Db,
  agentId: string,
  version: number | null,
  draft: unknown,
): Promise<Workflow> {
  if (version !== null) {
    const row = await db.workflowVersion.findUnique({
      where: { agentId_version: { agentId, version } },
      select: { workflow: true },
    });
    if (!row) throw errors.notFound(`Version ${version} of agent ${agentId}`);
    return WorkflowSchema.parse(row.workflow);
  }
  const result = validateWorkflowRequest({ workflow: draft }, {});
  if (!result.valid) throw workflowInvalid(result);
  return WorkflowSchema.parse(draft);
}
