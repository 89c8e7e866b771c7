import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { type Principal, actorRef } from "../../auth/service";
import {
  addVersionTx,
  publishVersionTx,
  requireAgent,
  validateForProvisioning,
  type ProvisionOptions,
} from "../../agents/service";
import { configOut, notConfigured } from "./config";
import { samplingChanged } from "./state";

/**
 * Makes the candidate the live version: a version candidate is published; a draft is first provisioned as the next
 * version of the agent (validated like any provisioning; its note: the candidate's note) and then published. Online
 * chat answers with it from the next message. The shadow then names that version as its candidate and is turned off
 * (the live version is now the candidate: comparing it with itself measures nothing); its results stay, as the same
 * candidate's (the key is the workflow's content, the same for the draft and its version).
 *
 * One transaction holding the configuration's row lock: provisioning, publishing and the configuration change happen
 * together or not at all (a failure leaves no orphan version), and publishes of one agent run one after the other (the
 * second of a double click finds the version the first provisioned and publishes it again: one version). The draft's
 * validation (the Python syntax check starts the sandbox) runs before, outside the lock; only when the draft changed in
 * between is the new one validated under it.
 */
export async function publishShadowCandidate(
  db: Db,
  agentId: string,
  actor: Principal | null,
  opts: ProvisionOptions = {},
) {
  await requireAgent(db, agentId);
  const seen = await db.shadowConfig.findUnique({
    where: { agentId },
    select: { candidateVersion: true, candidateWorkflow: true, candidateKey: true },
  });
  if (!seen) throw notConfigured();
  const validated =
    seen.candidateVersion === null
      ? { key: seen.candidateKey, result: await validateForProvisioning(seen.candidateWorkflow, opts) }
      : null;
  const out = await db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT "agentId" FROM "ShadowConfig" WHERE "agentId" = ${agentId} FOR UPDATE`;
      const config = await tx.shadowConfig.findUnique({ where: { agentId } });
      if (!config) throw notConfigured();
      let version = config.candidateVersion;
      let provisioned = false;
      if (version === null) {
        const result =
          validated?.key === config.candidateKey
            ? validated.result
            : await validateForProvisioning(config.candidateWorkflow, opts);
        const note = (
          config.candidateNote ? `intent-shadow candidate (${config.candidateNote})` : "intent-shadow candidate"
        ).slice(0, 500);
        const added = await addVersionTx(tx, agentId, { workflow: config.candidateWorkflow, note }, result, actor);
        version = added.version.version;
        provisioned = true;
      }
      const published = await publishVersionTx(tx, agentId, version);
      const row = await tx.shadowConfig.update({
        where: { agentId },
        data: {
          candidateVersion: version,
          candidateWorkflow: Prisma.DbNull,
          enabled: false,
          updatedById: actorRef(actor),
        },
      });
      return {
        version,
        provisioned,
        publishedVersion: published.agent.publishedVersion ?? version,
        config: configOut(row),
      };
    },
    { timeout: 60_000 },
  );
  samplingChanged(agentId);
  return out;
}
