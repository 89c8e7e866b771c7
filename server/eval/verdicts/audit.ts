import { randomInt } from "node:crypto";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { resolveRun } from "../runs/run-rows";
import { AUDIT_ALGORITHM, AUDIT_MAX_SEED, drawAuditSample } from "./audit-sample";

/**
 * The audit of adopted passes, stored (issue 23): each adoption that writes passes outside the spot-check rule draws a
 * random sample of them for a person to check (`audit-sample.ts`: how many and which), and keeps the draw in
 * `EvalAudit` (the population, the seed, the algorithm, the sample) so anyone can redraw it; the drawn items point to
 * it (`EvalRunItem.auditId`), which puts them on the spot-check list with `audit: true`. The gate reads the marks
 * (reports/gate.ts: GATE_AUDIT_PENDING, GATE_AUDIT_OVERTURNED).
 */

type Tx = Prisma.TransactionClient;

/**
 * Draws and stores the audit of one adoption's passes inside its transaction: `passes` are the items it wrote a pass
 * on whose suggestion is outside the spot-check rule. Nothing is stored when there are none; a rate of 0 stores the
 * draw with an empty sample ("no audit"), so the adoption's population is still on record.
 */
export async function drawAudit(
  tx: Tx,
  run: { id: string; auditRate: number },
  passes: string[],
  byId: string | null,
  seed: number = randomInt(0, AUDIT_MAX_SEED + 1),
) {
  if (!passes.length) return null;
  const population = [...passes].sort();
  const sample = drawAuditSample(population, run.auditRate, seed);
  const audit = await tx.evalAudit.create({
    data: { runId: run.id, algorithm: AUDIT_ALGORITHM, seed, rate: run.auditRate, population, sample, byId },
    select: { id: true },
  });
  if (sample.length)
    await tx.evalRunItem.updateMany({ where: { runId: run.id, id: { in: sample } }, data: { auditId: audit.id } });
  return auditOut(tx, audit.id);
}

const auditSelect = {
  id: true,
  at: true,
  byId: true,
  algorithm: true,
  seed: true,
  rate: true,
  population: true,
  sample: true,
} as const;

async function auditOut(db: Db | Tx, id: string) {
  const a = await db.evalAudit.findUniqueOrThrow({ where: { id }, select: auditSelect });
  return (await withKeys(db, [a]))[0]!;
}

/** The audits with their sample's keys (one query for all). */
async function withKeys(db: Db | Tx, audits: Array<Prisma.EvalAuditGetPayload<{ select: typeof auditSelect }>>) {
  const ids = audits.flatMap((a) => a.sample as string[]);
  const rows = ids.length
    ? await db.evalRunItem.findMany({
        where: { id: { in: ids } },
        select: { id: true, sample: { select: { key: true } } },
      })
    : [];
  const keyOf = new Map(rows.map((r) => [r.id, r.sample.key]));
  return audits.map((a) => {
    const sample = a.sample as string[];
    return {
      ...a,
      population: a.population as string[],
      sample,
      sampleKeys: sample.map((id) => keyOf.get(id) ?? id),
    };
  });
}

/** Every audit of a run's adoptions, oldest first, with the run's audit settings (GET /api/eval/runs/{id}/audits). */
export async function listAudits(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const audits = await db.evalAudit.findMany({
    where: { runId: run.id },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: auditSelect,
  });
  return {
    runId: run.id,
    shortId: run.shortId,
    auditRate: run.auditRate,
    maxAuditOverturn: run.maxAuditOverturn,
    audits: await withKeys(db, audits),
  };
}
