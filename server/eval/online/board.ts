import type { z } from "zod";
import type { Db } from "../../db/client";
import { actorLabels } from "../../auth/service";
import { requireAgent } from "../../agents/service";
import { notEvidence } from "../verdicts/bad-case-evidence";
import { BOARD_STAGES, BoardQuery, type BoardStage } from "./schemas";

// ---------------------------------------------------------------- the board

type HistoryEntry = {
  kind: "added" | "confirmed" | "expectations" | "frozen" | "run" | "bad_case" | "verified";
  at: Date | null;
  by: string | null;
  version?: number;
  points?: number;
  run?: { id: string; shortId: string };
  verdict?: "pass" | "fail" | null;
  status?: string;
  /** frozen: the sample was not confirmed when this freeze took it into the pool */
  unconfirmed?: boolean;
};

/**
 * The online loop as one board: every online-sourced sample of the agent's regression pools (by set and key, in its
 * newest version) with the stage of its way through the loop:
 *   candidate (added to a draft, not confirmed) -> confirmed (a person confirmed it belongs in the pool) ->
 *   expectations (confirmed, with expected points) -> frozen (in frozen version N, not in a run yet) -> in_run (its
 *   latest run R and verdict) -> bad_case (a Bad Case not verified yet) -> verified (its Bad Case was verified by a
 *   later run).
 * Once in a run, the stage comes from the sample's LATEST run item: its own Bad Case when it has one; otherwise an
 * earlier Bad Case still open keeps the sample in bad_case (the card shows the latest run's verdict: passed -> verify
 * it); an earlier verified Bad Case shows verified only while the latest run passes it (a later fail is in_run again,
 * fail: a regression, ready for a new Bad Case). Each card carries its history (added, confirmed, expectations, frozen
 * in vN, each run's verdict, the Bad Case and its verifying run) and links (source trace, annotation item, the
 * comparison of the Bad Case's run with the latest run).
 */
export async function loopBoard(db: Db, query: z.input<typeof BoardQuery>) {
  const q = BoardQuery.parse(query);
  await requireAgent(db, q.agentId);
  const samples = await db.evalSample.findMany({
    where: { sourceTraceId: { not: null }, setVersion: { set: { agentId: q.agentId, kind: "regression_pool" } } },
    select: {
      id: true,
      key: true,
      question: true,
      expectedPoints: true,
      sourceTraceId: true,
      addedById: true,
      confirmedAt: true,
      confirmedById: true,
      createdAt: true,
      setVersion: {
        select: {
          id: true,
          version: true,
          status: true,
          frozenAt: true,
          frozenById: true,
          setId: true,
          set: { select: { name: true } },
        },
      },
    },
    take: 5000,
  });
  type S = (typeof samples)[number];
  const byKey = new Map<string, S[]>();
  for (const s of samples) {
    const k = `${s.setVersion.setId}\u0000${s.key}`;
    byKey.set(k, [...(byKey.get(k) ?? []), s]);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.setVersion.version - b.setVersion.version);
  const keys = [...byKey.values()].map((list) => list.at(-1)!);
  const items = keys.length
    ? await db.evalRunItem.findMany({
        where: {
          sample: {
            key: { in: [...new Set(keys.map((k) => k.key))] },
            setVersion: { setId: { in: [...new Set(keys.map((k) => k.setVersion.setId))] } },
          },
        },
        orderBy: [{ run: { createdAt: "desc" } }, { runId: "desc" }],
        select: {
          id: true,
          status: true,
          verdict: true,
          sample: { select: { key: true, setVersion: { select: { setId: true, version: true } } } },
          run: {
            select: {
              id: true,
              shortId: true,
              status: true,
              createdAt: true,
              rerunOfId: true,
              mode: true,
              workflowVersion: { select: { version: true } },
            },
          },
          badCase: {
            select: {
              id: true,
              status: true,
              verifiedRunId: true,
              createdAt: true,
              createdById: true,
              updatedAt: true,
            },
          },
        },
        take: 20_000,
      })
    : [];
  type I = (typeof items)[number];
  const itemsOf = new Map<string, I[]>();
  for (const i of items) {
    const k = `${i.sample.setVersion.setId}\u0000${i.sample.key}`;
    itemsOf.set(k, [...(itemsOf.get(k) ?? []), i]);
  }
  const verifyingIds = [
    ...new Set(items.flatMap((i) => [i.badCase?.verifiedRunId, i.run.rerunOfId]).filter((r): r is string => !!r)),
  ];
  const shortIds = new Map([
    ...items.map((i) => [i.run.id, i.run.shortId] as const),
    ...(verifyingIds.length
      ? (await db.evalRun.findMany({ where: { id: { in: verifyingIds } }, select: { id: true, shortId: true } })).map(
          (r) => [r.id, r.shortId] as const,
        )
      : []),
  ]);
  const labels = await actorLabels(db, [
    ...samples.flatMap((s) => [s.addedById, s.confirmedById, s.setVersion.frozenById]),
    ...items.map((i) => i.badCase?.createdById),
  ]);
  const label = (ref: string | null | undefined) => (ref ? (labels.get(ref) ?? ref) : null);

  const cards = keys.map((s) => {
    const k = `${s.setVersion.setId}\u0000${s.key}`;
    const versions = byKey.get(k)!;
    const runItems = itemsOf.get(k) ?? [];
    const latest = runItems[0] ?? null;
    // the Bad Case that speaks for the sample: the latest item's own, else the newest earlier one
    const caseItem = latest?.badCase ? latest : (runItems.find((i) => i.badCase) ?? null);
    const badCase = caseItem?.badCase ?? null;
    const points = (s.expectedPoints as string[]) ?? [];
    const first = versions[0]!;
    const firstFrozen = versions.find((v) => v.setVersion.status === "frozen");
    // confirming is a property of the trace in the pool: a person's confirmation in any version, or a freeze that took
    // it in unconfirmed ("Freeze with N unconfirmed"); either way later drafts never ask for it again
    const byPerson =
      versions.filter((v) => v.confirmedAt).sort((a, b) => a.confirmedAt!.getTime() - b.confirmedAt!.getTime())[0] ??
      null;
    const frozenUnconfirmed =
      !!firstFrozen &&
      !(byPerson && firstFrozen.setVersion.frozenAt && byPerson.confirmedAt! <= firstFrozen.setVersion.frozenAt);
    const confirmedVia = byPerson ? ("person" as const) : firstFrozen ? ("freeze" as const) : null;
    const confirmed = confirmedVia !== null;
    let stage: BoardStage;
    if (latest) {
      if (latest.badCase) stage = latest.badCase.status === "verified" ? "verified" : "bad_case";
      else if (badCase && badCase.status !== "verified") stage = "bad_case";
      else if (badCase && latest.verdict === "pass") stage = "verified";
      else stage = "in_run";
    } else if (s.setVersion.status === "frozen") stage = "frozen";
    else stage = !confirmed ? "candidate" : points.length ? "expectations" : "confirmed";

    const history: HistoryEntry[] = [
      { kind: "added", at: first.createdAt, by: label(first.addedById), version: first.setVersion.version },
    ];
    if (byPerson) history.push({ kind: "confirmed", at: byPerson.confirmedAt, by: label(byPerson.confirmedById) });
    if (points.length) history.push({ kind: "expectations", at: null, by: null, points: points.length });
    if (firstFrozen)
      history.push({
        kind: "frozen",
        at: firstFrozen.setVersion.frozenAt,
        by: label(firstFrozen.setVersion.frozenById),
        version: firstFrozen.setVersion.version,
        ...(frozenUnconfirmed ? { unconfirmed: true } : {}),
      });
    for (const i of [...runItems].reverse().slice(-5)) {
      history.push({
        kind: "run",
        at: i.run.createdAt,
        by: null,
        run: { id: i.run.id, shortId: i.run.shortId },
        verdict: i.verdict,
        version: i.sample.setVersion.version,
      });
      if (i.badCase)
        history.push({
          kind: "bad_case",
          at: i.badCase.createdAt,
          by: label(i.badCase.createdById),
          status: i.badCase.status,
          run: { id: i.run.id, shortId: i.run.shortId },
        });
    }
    for (const i of runItems) {
      const r = i.badCase?.status === "verified" ? i.badCase.verifiedRunId : null;
      if (r)
        history.push({
          kind: "verified",
          at: i.badCase!.updatedAt,
          by: null,
          run: { id: r, shortId: shortIds.get(r) ?? r },
        });
    }
    history.sort((a, b) => (a.at && b.at ? a.at.getTime() - b.at.getTime() : 0));
    return {
      stage,
      setId: s.setVersion.setId,
      setName: s.setVersion.set.name,
      version: s.setVersion.version,
      versionStatus: s.setVersion.status,
      versionId: s.setVersion.id,
      sampleId: s.id,
      key: s.key,
      question: s.question,
      expectedPoints: points.length,
      points,
      confirmed,
      confirmedVia,
      sourceTraceId: s.sourceTraceId!,
      run: latest
        ? {
            id: latest.run.id,
            shortId: latest.run.shortId,
            status: latest.run.status,
            itemId: latest.id,
            itemStatus: latest.status,
            verdict: latest.verdict,
          }
        : null,
      badCase: badCase
        ? {
            id: badCase.id,
            status: badCase.status,
            runShortId: caseItem!.run.shortId,
            // the latest run's pass verifies the case only by the rule of `verified` (bad-case-evidence.ts)
            verifyIn:
              badCase.status !== "verified" &&
              latest &&
              latest !== caseItem &&
              latest.verdict === "pass" &&
              notEvidence(
                { mode: latest.run.mode, agentVersion: latest.run.workflowVersion.version },
                caseItem!.run.workflowVersion.version,
              ) === null
                ? latest.run.shortId
                : null,
          }
        : null,
      // the Bad Case's run against the latest run; else the latest run against the run it re-ran
      compare:
        caseItem && latest && caseItem.run.id !== latest.run.id
          ? { a: caseItem.run.shortId, b: latest.run.shortId }
          : latest?.run.rerunOfId
            ? { a: shortIds.get(latest.run.rerunOfId) ?? latest.run.rerunOfId, b: latest.run.shortId }
            : null,
      history,
    };
  });
  const order = (c: { stage: BoardStage }) => BOARD_STAGES.indexOf(c.stage);
  cards.sort((a, b) => order(a) - order(b) || a.setName.localeCompare(b.setName) || a.key.localeCompare(b.key));
  const counts = Object.fromEntries(
    BOARD_STAGES.map((st) => [st, cards.filter((c) => c.stage === st).length]),
  ) as Record<BoardStage, number>;
  return { counts, cards, drafts: await draftCounts(db, q.agentId) };
}

/**
 * Every draft version of the agent's regression pools with its online-sourced samples counted exactly (whatever the
 * board shows): how many, and how many are still candidates (what the board's Freeze names before freezing): nobody
 * confirmed their trace in any version of the pool and no frozen version took it in.
 */
async function draftCounts(db: Db, agentId: string) {
  const rows = await db.$queryRaw<
    Array<{
      setId: string;
      setName: string;
      version: number;
      versionId: string;
      online: bigint | number;
      unconfirmed: bigint | number;
    }>
  >`
    SELECT e."id" AS "setId", e."name" AS "setName", v."version", v."id" AS "versionId",
      count(s."id") AS "online",
      count(s."id") FILTER (WHERE s."confirmedAt" IS NULL AND NOT EXISTS (
        SELECT 1 FROM "EvalSample" o JOIN "EvalSetVersion" ov ON ov."id" = o."setVersionId"
        WHERE o."sourceTraceId" = s."sourceTraceId" AND ov."setId" = e."id"
          AND (o."confirmedAt" IS NOT NULL OR ov."status" = 'frozen'))) AS "unconfirmed"
    FROM "EvalSetVersion" v
    JOIN "EvalSet" e ON e."id" = v."setId"
    LEFT JOIN "EvalSample" s ON s."setVersionId" = v."id" AND s."sourceTraceId" IS NOT NULL
    WHERE e."agentId" = ${agentId} AND e."kind" = 'regression_pool' AND v."status" = 'draft'
    GROUP BY e."id", e."name", v."version", v."id"
    ORDER BY e."name", v."version"`;
  return rows.map((r) => ({
    setId: r.setId,
    setName: r.setName,
    version: Number(r.version),
    versionId: r.versionId,
    onlineSamples: Number(r.online),
    unconfirmed: Number(r.unconfirmed),
  }));
}
