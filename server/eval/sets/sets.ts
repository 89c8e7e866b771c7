import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { requireAgent } from "../../agents/service";
import { errors } from "../../core/errors";
import { type Principal, actorRef } from "../../auth/service";
import { evalErrors, isFrozenViolation, isNotFound, isUniqueViolation, jsonOrDbNull } from "../errors";
import {
  CreateSetInput,
  CreateVersionInput,
  ListSetsQuery,
  UpdateSetInput,
  UpdateVersionInput,
  type SampleInputT,
  type JudgeSwitchFigures,
} from "./schemas";
import type { Assertion } from "../suggestions/schemas";
import { checkJudge, storedJudgeSpec } from "../suggestions/judge-agent";

/**
 * Evaluation sets, their versions and samples. A set is bound to one agent and has a kind (golden or
 * regression_pool) and a gate threshold. Versions are numbered; a draft can be edited, a frozen one cannot (this
 * service refuses with 409 SET_VERSION_FROZEN and the database triggers refuse too). Changing the questions of a
 * frozen version means creating a new version (a copy) and editing it.
 */

export type Tx = Prisma.TransactionClient;

const setSelect = {
  id: true,
  agentId: true,
  name: true,
  description: true,
  kind: true,
  gateThreshold: true,
  reviewsPerItem: true,
  minReviewerKappa: true,
  auditRate: true,
  maxAuditOverturn: true,
  judge: true,
  createdById: true,
  createdAt: true,
  updatedAt: true,
  agent: { select: { name: true } },
} as const;

const versionSelect = {
  id: true,
  setId: true,
  version: true,
  status: true,
  note: true,
  assertions: true,
  frozenAt: true,
  frozenById: true,
  createdById: true,
  createdAt: true,
  _count: { select: { samples: true, runs: true } },
} as const;

export const sampleSelect = {
  id: true,
  setVersionId: true,
  key: true,
  position: true,
  question: true,
  expectedPoints: true,
  classification: true,
  script: true,
  assertions: true,
  sourceTraceId: true,
  referenceAnswer: true,
  addedById: true,
  confirmedAt: true,
  confirmedById: true,
  createdAt: true,
} as const;

type SetRow = Prisma.EvalSetGetPayload<{ select: typeof setSelect }>;
type VersionRow = Prisma.EvalSetVersionGetPayload<{ select: typeof versionSelect }>;
export type SampleRow = Prisma.EvalSampleGetPayload<{ select: typeof sampleSelect }>;

function setOut(s: SetRow, latestVersion?: number) {
  const { agent, judge, ...rest } = s;
  return {
    ...rest,
    judge: storedJudgeSpec(judge),
    agentName: agent.name,
    ...(latestVersion !== undefined ? { latestVersion } : {}),
  };
}

export function versionOut(v: VersionRow) {
  const { _count, ...rest } = v;
  return {
    ...rest,
    assertions: (rest.assertions as Assertion[] | null) ?? null,
    sampleCount: _count.samples,
    runCount: _count.runs,
  };
}

export function sampleOut(s: SampleRow) {
  return {
    ...s,
    expectedPoints: (s.expectedPoints as string[]) ?? [],
    script: (s.script as SampleInputT["script"]) ?? null,
    assertions: (s.assertions as Assertion[] | null) ?? null,
  };
}
export type SampleOutT = ReturnType<typeof sampleOut>;

// ---------------------------------------------------------------- sets

export async function createSet(db: Db, input: z.input<typeof CreateSetInput>, actor: Principal | null) {
  const data = CreateSetInput.parse(input);
  await requireAgent(db, data.agentId);
  return db.$transaction(async (tx) => {
    const set = await tx.evalSet.create({ data: { ...data, createdById: actorRef(actor) }, select: setSelect });
    const version = await tx.evalSetVersion.create({
      data: { setId: set.id, version: 1, createdById: actorRef(actor) },
      select: versionSelect,
    });
    return { ...setOut(set, 1), versions: [versionOut(version)], judgeHistory: [] };
  });
}

export async function listSets(db: Db, query: z.input<typeof ListSetsQuery>) {
  const q = ListSetsQuery.parse(query);
  const rows = await db.evalSet.findMany({
    where: { ...(q.agentId ? { agentId: q.agentId } : {}), ...(q.kind ? { kind: q.kind } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: { ...setSelect, versions: { select: { version: true }, orderBy: { version: "desc" }, take: 1 } },
  });
  const items = rows.slice(0, q.limit).map(({ versions, ...s }) => setOut(s, versions[0]?.version ?? 0));
  return { items, nextCursor: rows.length > q.limit ? (items.at(-1)?.id ?? null) : null };
}

export async function getSet(db: Db, id: string) {
  const set = await db.evalSet.findUnique({ where: { id }, select: setSelect });
  if (!set) throw errors.notFound(`Evaluation set ${id}`);
  const versions = await db.evalSetVersion.findMany({
    where: { setId: id },
    orderBy: { version: "desc" },
    select: versionSelect,
  });
  const changes = await db.evalSetJudgeChange.findMany({
    where: { setId: id },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: 50,
  });
  return {
    ...setOut(set, versions[0]?.version ?? 0),
    versions: versions.map(versionOut),
    judgeHistory: changes.map((c) => ({
      at: c.at,
      byId: c.byId,
      before: storedJudgeSpec(c.before),
      after: storedJudgeSpec(c.after),
      figures: (c.figures as z.output<typeof JudgeSwitchFigures> | null) ?? null,
      forced: c.forced,
      reason: c.reason,
    })),
  };
}

export async function updateSet(db: Db, id: string, input: z.input<typeof UpdateSetInput>) {
  const { judge, force: _force, reason: _reason, ...data } = UpdateSetInput.parse(input);
  if (judge) {
    if (!(await db.evalSet.findUnique({ where: { id }, select: { id: true } })))
      throw errors.notFound(`Evaluation set ${id}`);
    await checkJudge(db, judge);
  }
  return storeSet(db, id, { ...data, ...(judge !== undefined ? { judge } : {}) });
}

/** Writes a set's fields as given, already parsed and checked (the judge switch checks its judge once, then stores). */
export async function storeSet(
  db: Db | Tx,
  id: string,
  fields: Omit<z.output<typeof UpdateSetInput>, "force" | "reason">,
) {
  const { judge, ...data } = fields;
  try {
    return setOut(
      await db.evalSet.update({
        where: { id },
        data: {
          ...data,
          ...(judge !== undefined ? { judge: jsonOrDbNull(judge) } : {}),
        },
        select: setSelect,
      }),
    );
  } catch (e) {
    if (isNotFound(e)) throw errors.notFound(`Evaluation set ${id}`);
    throw e;
  }
}

/** Deletes a set with all its versions and samples; refused while runs reference it (runs are history). */
export async function deleteSet(db: Db, id: string) {
  const set = await db.evalSet.findUnique({ where: { id }, select: { id: true } });
  if (!set) throw errors.notFound(`Evaluation set ${id}`);
  const runs = await db.evalRun.count({ where: { setVersion: { setId: id } } });
  if (runs) throw evalErrors.hasRuns(`${runs} run(s) reference this set; it cannot be deleted`);
  await db.$transaction(async (tx) => {
    // the frozen-version triggers allow a whole-set delete only when asked explicitly
    await tx.$executeRawUnsafe("SET LOCAL flowbench.allow_frozen_delete = 'on'");
    await tx.evalSet.delete({ where: { id } });
  });
}

// ---------------------------------------------------------------- versions

export async function resolveVersion(db: Db | Tx, setId: string, version: number) {
  const row = await db.evalSetVersion.findUnique({
    where: { setId_version: { setId, version } },
    select: versionSelect,
  });
  if (!row) throw errors.notFound(`Version ${version} of evaluation set ${setId}`);
  return row;
}

export function assertDraft(v: { status: string; version: number }) {
  if (v.status === "frozen") throw evalErrors.frozen(`Version ${v.version}`);
}

/** A new draft version: a copy of `from` (default the latest version) with its samples and set assertions. */
export async function createVersion(
  db: Db,
  setId: string,
  input: z.input<typeof CreateVersionInput>,
  actor: Principal | null,
) {
  const data = CreateVersionInput.parse(input);
  const set = await db.evalSet.findUnique({ where: { id: setId }, select: { id: true } });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction((tx) => createVersionTx(tx, setId, data, actor));
    } catch (e) {
      if (isUniqueViolation(e) && attempt < 3) continue; // two drafts created at once: take the next number
      throw e;
    }
  }
}

/**
 * `createVersion` inside the caller's transaction, under the set's row lock (so it serialises with the online loop's
 * pool adds, which create a draft under the same lock). Samples are copied whole, including who added and who
 * confirmed them (a confirmation survives new versions; it is the trace's in the pool, so a source row without one
 * takes the first confirmation of the same trace in the set).
 */
export async function createVersionTx(
  tx: Tx,
  setId: string,
  data: z.output<typeof CreateVersionInput>,
  actor: Principal | null,
) {
  await tx.$queryRaw`SELECT "id" FROM "EvalSet" WHERE "id" = ${setId} FOR UPDATE`;
  const latest = await tx.evalSetVersion.findFirst({
    where: { setId },
    orderBy: { version: "desc" },
    select: { version: true },
  });
  const sourceNo = data.empty ? null : (data.from ?? latest?.version ?? null);
  const source = sourceNo ? await resolveVersion(tx, setId, sourceNo) : null;
  const created = await tx.evalSetVersion.create({
    data: {
      setId,
      version: (latest?.version ?? 0) + 1,
      note: data.note || (source ? `copy of v${source.version}` : ""),
      assertions: jsonOrDbNull(source?.assertions ?? null),
      createdById: actorRef(actor),
    },
    select: { id: true },
  });
  if (source) {
    // a sample's confirmation is its trace's in the pool: the source row's, else the first one of the same trace in
    // any version of the set (a copy of an older version, or of a draft made before the confirmation)
    await tx.$executeRaw`
      INSERT INTO "EvalSample" ("id", "setVersionId", "key", "position", "question", "expectedPoints", "classification", "script", "assertions", "sourceTraceId", "referenceAnswer", "addedById", "confirmedAt", "confirmedById", "createdAt")
      SELECT 'c' || md5(random()::text || clock_timestamp()::text || s."id"), ${created.id}, s."key", s."position", s."question", s."expectedPoints", s."classification", s."script", s."assertions", s."sourceTraceId", s."referenceAnswer", s."addedById",
        COALESCE(s."confirmedAt", c."confirmedAt"), CASE WHEN s."confirmedAt" IS NULL THEN c."confirmedById" ELSE s."confirmedById" END, now()
      FROM "EvalSample" s
      LEFT JOIN LATERAL (
        SELECT o."confirmedAt", o."confirmedById" FROM "EvalSample" o JOIN "EvalSetVersion" ov ON ov."id" = o."setVersionId"
        WHERE s."confirmedAt" IS NULL AND o."sourceTraceId" = s."sourceTraceId" AND ov."setId" = ${setId} AND o."confirmedAt" IS NOT NULL
        ORDER BY o."confirmedAt" ASC LIMIT 1
      ) c ON true
      WHERE s."setVersionId" = ${source.id}`;
  }
  return versionOut(await tx.evalSetVersion.findUniqueOrThrow({ where: { id: created.id }, select: versionSelect }));
}

export async function getVersion(db: Db, setId: string, version: number) {
  return versionOut(await resolveVersion(db, setId, version));
}

export async function updateVersion(db: Db, setId: string, version: number, input: z.input<typeof UpdateVersionInput>) {
  const data = UpdateVersionInput.parse(input);
  const v = await resolveVersion(db, setId, version);
  assertDraft(v);
  try {
    const row = await db.evalSetVersion.update({
      where: { id: v.id },
      data: {
        ...(data.note !== undefined ? { note: data.note } : {}),
        ...(data.assertions !== undefined ? { assertions: jsonOrDbNull(data.assertions) } : {}),
      },
      select: versionSelect,
    });
    return versionOut(row);
  } catch (e) {
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${version}`);
    throw e;
  }
}

/** Freezes a draft: it must have samples and every sample needs at least one expected point. Idempotent. */
export async function freezeVersion(db: Db, setId: string, version: number, actor: Principal | null) {
  const v = await resolveVersion(db, setId, version);
  if (v.status === "frozen") return versionOut(v);
  const samples = await db.evalSample.findMany({
    where: { setVersionId: v.id },
    select: { key: true, expectedPoints: true },
    orderBy: { position: "asc" },
  });
  if (samples.length === 0)
    throw evalErrors.incomplete(`Version ${version} has no samples: add some before freezing`, []);
  const noPoints = samples
    .filter((s) => !Array.isArray(s.expectedPoints) || s.expectedPoints.length === 0)
    .map((s) => s.key);
  if (noPoints.length) {
    throw evalErrors.incomplete(
      `${noPoints.length} sample(s) have no expected points: ${noPoints.slice(0, 10).join(", ")}${noPoints.length > 10 ? ", ..." : ""}`,
      noPoints.map((key) => ({
        key,
        field: "expected_points",
        message: "at least one expected point is required to freeze",
      })),
    );
  }
  await db.evalSetVersion.updateMany({
    where: { id: v.id, status: "draft" },
    data: { status: "frozen", frozenAt: new Date(), frozenById: actorRef(actor) },
  });
  return versionOut(await resolveVersion(db, setId, version));
}

export async function deleteVersion(db: Db, setId: string, version: number) {
  const v = await resolveVersion(db, setId, version);
  assertDraft(v);
  await db.evalSetVersion.delete({ where: { id: v.id } });
}
