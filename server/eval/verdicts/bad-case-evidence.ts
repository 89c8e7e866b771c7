import type { Db } from "../../db/client";
import { actorLabels } from "../../auth/service";

/**
 * What a Bad Case's verification rests on. THE rule of `verified` (`verifiedBy`): a run of the same set created after
 * the Bad Case's run, answered IN THE PLATFORM (mode in_platform: a pasted answer proves nothing about the agent) by an
 * agent version NEWER than the one the Bad Case was found with (its run's snapshotted workflow version: the fix), whose
 * item for the same question (sample key) has a pass verdict, typed or adopted by a person as gates count it (a
 * machine suggestion alone never); the newest such run. `latestRun` is the newest later run whatever its verdict, mode
 * or version (the case page shows it and, when it does not qualify, why). Without a qualifying run only a manager's
 * reason verifies (bad-cases.ts).
 */
export type BadCaseRef = { runCreatedAt: Date; setId: string; key: string; foundInVersion: number };

const itemSelect = {
  id: true,
  status: true,
  verdict: true,
  verdictSource: true,
  verdictById: true,
  verdictAt: true,
  run: {
    select: { id: true, shortId: true, status: true, mode: true, workflowVersion: { select: { version: true } } },
  },
} as const;

function laterItems(ref: BadCaseRef) {
  return {
    sample: { key: ref.key },
    run: { createdAt: { gt: ref.runCreatedAt }, setVersion: { setId: ref.setId } },
  };
}

/**
 * The newest later platform run of a newer agent version with a (typed or adopted) pass for the question: the evidence
 * `verified` needs, or null.
 */
export async function verifyingRun(db: Db, ref: BadCaseRef) {
  const later = laterItems(ref);
  return db.evalRunItem.findFirst({
    where: {
      ...later,
      run: {
        ...later.run,
        mode: "in_platform",
        workflowVersion: { version: { gt: ref.foundInVersion } },
      },
      verdict: "pass",
    },
    orderBy: { run: { createdAt: "desc" } },
    select: itemSelect,
  });
}

/**
 * Why a later run cannot verify the Bad Case whatever its verdict (its answers were pasted; it ran the version the Bad
 * Case was found with, or an older one), or null when a pass in it verifies: `verifyingRun`'s rule for one run.
 */
export function notEvidence(run: { mode: string; agentVersion: number }, foundInVersion: number) {
  if (run.mode !== "in_platform") return "pasted" as const;
  if (run.agentVersion <= foundInVersion) return "not_newer" as const;
  return null;
}

/** The question's expected points, the evidence for verifying (who passed it where) and the newest later run's item. */
export async function badCaseEvidence(db: Db, ref: BadCaseRef & { sampleId: string }) {
  const [sample, pass, latest] = await Promise.all([
    db.evalSample.findUnique({ where: { id: ref.sampleId }, select: { expectedPoints: true } }),
    verifyingRun(db, ref),
    db.evalRunItem.findFirst({
      where: laterItems(ref),
      orderBy: { run: { createdAt: "desc" } },
      select: itemSelect,
    }),
  ]);
  const labels = await actorLabels(db, [pass?.verdictById, latest?.verdictById]);
  const out = (i: NonNullable<typeof latest>) => ({
    runId: i.run.id,
    runShortId: i.run.shortId,
    runStatus: i.run.status,
    runMode: i.run.mode,
    agentVersion: i.run.workflowVersion.version,
    notEvidence: notEvidence({ mode: i.run.mode, agentVersion: i.run.workflowVersion.version }, ref.foundInVersion),
    itemId: i.id,
    itemStatus: i.status,
    verdict: i.verdict,
    verdictSource: (i.verdictSource as "human" | "adopted" | null) ?? null,
    byLabel: i.verdictById ? (labels.get(i.verdictById) ?? i.verdictById) : null,
    at: i.verdictAt,
  });
  return {
    expectedPoints: (sample?.expectedPoints as string[] | null) ?? [],
    verifiableBy: pass ? out(pass) : null,
    latestRun: latest ? out(latest) : null,
  };
}
