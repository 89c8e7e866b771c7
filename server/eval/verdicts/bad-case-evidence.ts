import type { Db } from "../../db/client";
import { actorLabels } from "../../auth/service";

/**
 * What a Bad Case's verification rests on: later runs of the same set (created after the Bad Case's run, e.g. "re-run
 * the same batch" on the fixed agent) and their item for the same question (sample key). THE rule of `verified`
 * (`verifiedBy`): the newest such run whose item has a pass verdict, typed or adopted as gates count it (a machine
 * suggestion alone never). `latestRun` is the newest such run whatever its verdict (the case page shows it: "fail",
 * "not judged yet", "not answered yet").
 */
export type BadCaseRef = { runCreatedAt: Date; setId: string; key: string };

const itemSelect = {
  id: true,
  status: true,
  verdict: true,
  verdictSource: true,
  verdictById: true,
  verdictAt: true,
  run: { select: { id: true, shortId: true, status: true } },
} as const;

function laterItems(ref: BadCaseRef) {
  return {
    sample: { key: ref.key },
    run: { createdAt: { gt: ref.runCreatedAt }, setVersion: { setId: ref.setId } },
  };
}

/** The newest later run with a (typed or adopted) pass for the question: the evidence `verified` needs, or null. */
export async function verifyingRun(db: Db, ref: BadCaseRef) {
  return db.evalRunItem.findFirst({
    where: { ...laterItems(ref), verdict: "pass" },
    orderBy: { run: { createdAt: "desc" } },
    select: itemSelect,
  });
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
