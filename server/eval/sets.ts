import type { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { requireAgent } from "../agents/service";
import { errors } from "../core/errors";
import { EVAL_LIMITS } from "./limits";
import { type Principal, actorRef } from "../auth/service";
import { evalErrors, isFrozenViolation, isNotFound, isUniqueViolation, jsonOrDbNull } from "./errors";
import { exportSamples, importTooLarge, parseSampleFile, type ImportFormatT, type SampleDoc } from "./io";
import {
  CreateSetInput,
  CreateVersionInput,
  ImportInput,
  ListSetsQuery,
  ListSamplesQuery,
  SampleInput,
  SamplePatch,
  UpdateSetInput,
  UpdateVersionInput,
  type Assertion,
  type SampleInputT,
} from "./schemas";

/**
 * Evaluation sets, their versions and samples. A set is bound to one agent and has a kind (golden or
 * regression_pool) and a gate threshold. Versions are numbered; a draft can be edited, a frozen one cannot (this
 * service refuses with 409 SET_VERSION_FROZEN and the database triggers refuse too). Changing the questions of a
 * frozen version means creating a new version (a copy) and editing it.
 */

type Tx = Prisma.TransactionClient;

const setSelect = {
  id: true,
  agentId: true,
  name: true,
  description: true,
  kind: true,
  gateThreshold: true,
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
  const { agent, ...rest } = s;
  return { ...rest, agentName: agent.name, ...(latestVersion !== undefined ? { latestVersion } : {}) };
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
    return { ...setOut(set, 1), versions: [versionOut(version)] };
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
  return { ...setOut(set, versions[0]?.version ?? 0), versions: versions.map(versionOut) };
}

export async function updateSet(db: Db, id: string, input: z.input<typeof UpdateSetInput>) {
  const data = UpdateSetInput.parse(input);
  try {
    return setOut(await db.evalSet.update({ where: { id }, data, select: setSelect }));
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

function assertDraft(v: { status: string; version: number }) {
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

// ---------------------------------------------------------------- samples

/** A version's samples in order; `q` searches question, key and classification; paged by `limit`/`cursor` (default: all). */
export async function listSamples(
  db: Db,
  setId: string,
  version: number,
  query: z.input<typeof ListSamplesQuery> = {},
) {
  const q = ListSamplesQuery.parse(query);
  const v = await resolveVersion(db, setId, version);
  const where: Prisma.EvalSampleWhereInput = {
    setVersionId: v.id,
    ...(q.q
      ? {
          OR: (["question", "key", "classification"] as const).map((f) => ({
            [f]: { contains: q.q, mode: "insensitive" as const },
          })),
        }
      : {}),
  };
  const [rows, matching] = await Promise.all([
    db.evalSample.findMany({
      where,
      orderBy: [{ position: "asc" }, { id: "asc" }],
      take: q.limit + 1,
      ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
      select: sampleSelect,
    }),
    db.evalSample.count({ where }),
  ]);
  const page = rows.slice(0, q.limit);
  return {
    version: versionOut(v),
    items: page.map(sampleOut),
    matching,
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** `n` unused generated keys (q001, q002, ...) and the last position in use. */
async function nextKeys(tx: Tx, setVersionId: string, n: number): Promise<{ keys: string[]; position: number }> {
  const existing = await tx.evalSample.findMany({ where: { setVersionId }, select: { key: true, position: true } });
  const used = new Set(existing.map((e) => e.key));
  const position = existing.reduce((m, e) => Math.max(m, e.position), 0);
  const keys: string[] = [];
  for (let i = existing.length + 1; keys.length < n; i++) {
    const k = `q${String(i).padStart(3, "0")}`;
    if (!used.has(k)) {
      keys.push(k);
      used.add(k);
    }
  }
  return { keys, position };
}

function sampleData(s: SampleInputT) {
  return {
    question: s.question,
    expectedPoints: s.expectedPoints as Prisma.InputJsonValue,
    classification: s.classification,
    script: jsonOrDbNull(s.script ?? null),
    assertions: jsonOrDbNull(s.assertions ?? null),
    sourceTraceId: s.sourceTraceId ?? null,
  };
}

function conflictMessage(e: unknown): string {
  const target = JSON.stringify((e as { meta?: unknown }).meta ?? "");
  return /sourceTraceId/i.test(target)
    ? "A sample with this source_trace_id already exists in this version"
    : "A sample with this key already exists in this version";
}

export async function addSample(db: Db, setId: string, version: number, input: z.input<typeof SampleInput>) {
  const data = SampleInput.parse(input);
  const v = await resolveVersion(db, setId, version);
  assertDraft(v);
  if (v._count.samples >= EVAL_LIMITS.maxSamplesPerVersion) {
    throw evalErrors.limit(
      `A version holds at most ${EVAL_LIMITS.maxSamplesPerVersion} samples`,
      "maxSamplesPerVersion",
      EVAL_LIMITS.maxSamplesPerVersion,
    );
  }
  try {
    return await db.$transaction(async (tx) => {
      const { keys, position } = await nextKeys(tx, v.id, 1);
      const row = await tx.evalSample.create({
        data: { setVersionId: v.id, key: data.key ?? keys[0]!, position: position + 1, ...sampleData(data) },
        select: sampleSelect,
      });
      return sampleOut(row);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw errors.conflict("CONFLICT", conflictMessage(e));
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${version}`);
    throw e;
  }
}

async function sampleWithVersion(db: Db, sampleId: string) {
  const s = await db.evalSample.findUnique({
    where: { id: sampleId },
    select: { ...sampleSelect, setVersion: { select: { status: true, version: true } } },
  });
  if (!s) throw errors.notFound(`Sample ${sampleId}`);
  return s;
}

export async function getSample(db: Db, sampleId: string) {
  const s = await db.evalSample.findUnique({ where: { id: sampleId }, select: sampleSelect });
  if (!s) throw errors.notFound(`Sample ${sampleId}`);
  return sampleOut(s);
}

export async function updateSample(db: Db, sampleId: string, input: z.input<typeof SamplePatch>) {
  const patch = SamplePatch.parse(input);
  const s = await sampleWithVersion(db, sampleId);
  assertDraft(s.setVersion);
  const data: Prisma.EvalSampleUpdateInput = {};
  if (patch.key !== undefined) data.key = patch.key;
  if (patch.question !== undefined) data.question = patch.question;
  if (patch.expectedPoints !== undefined) data.expectedPoints = patch.expectedPoints as Prisma.InputJsonValue;
  if (patch.classification !== undefined) data.classification = patch.classification;
  if (patch.script !== undefined) data.script = jsonOrDbNull(patch.script);
  if (patch.assertions !== undefined) data.assertions = jsonOrDbNull(patch.assertions);
  if (patch.sourceTraceId !== undefined) data.sourceTraceId = patch.sourceTraceId;
  try {
    return sampleOut(await db.evalSample.update({ where: { id: sampleId }, data, select: sampleSelect }));
  } catch (e) {
    if (isUniqueViolation(e)) throw errors.conflict("CONFLICT", conflictMessage(e));
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${s.setVersion.version}`);
    throw e;
  }
}

export async function deleteSample(db: Db, sampleId: string) {
  const s = await sampleWithVersion(db, sampleId);
  assertDraft(s.setVersion);
  try {
    await db.evalSample.delete({ where: { id: sampleId } });
  } catch (e) {
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${s.setVersion.version}`);
    throw e;
  }
}

/**
 * Imports samples into a draft: every row is validated first and the import is all or nothing. In append mode
 * keys and source_trace_ids must not clash with existing samples (row errors name them); replace mode removes the
 * draft's samples first, in the same transaction.
 */
export async function importSamples(db: Db, setId: string, version: number, input: z.input<typeof ImportInput>) {
  const data = ImportInput.parse(input);
  if (importTooLarge(data.content)) {
    throw evalErrors.limit(
      `The import is larger than ${EVAL_LIMITS.maxImportBytes} bytes`,
      "maxImportBytes",
      EVAL_LIMITS.maxImportBytes,
    );
  }
  const v = await resolveVersion(db, setId, version);
  assertDraft(v);
  const parsed = parseSampleFile(data.format, data.content);
  const existingCount = data.mode === "replace" ? 0 : v._count.samples;
  if (parsed.count + existingCount > EVAL_LIMITS.maxSamplesPerVersion) {
    throw evalErrors.limit(
      `The version would hold ${parsed.count + existingCount} samples; the limit is ${EVAL_LIMITS.maxSamplesPerVersion}`,
      "maxSamplesPerVersion",
      EVAL_LIMITS.maxSamplesPerVersion,
    );
  }
  if (parsed.errors.length) throw evalErrors.importInvalid(parsed.errors);
  if (parsed.rows.length === 0)
    throw evalErrors.importInvalid([{ row: 0, field: "file", message: "the file has no samples" }]);
  try {
    return await db.$transaction(
      async (tx) => {
        if (data.mode === "replace") await tx.evalSample.deleteMany({ where: { setVersionId: v.id } });
        else {
          const existing = await tx.evalSample.findMany({
            where: { setVersionId: v.id },
            select: { key: true, sourceTraceId: true },
          });
          const keys = new Set(existing.map((e) => e.key));
          const traces = new Set(existing.map((e) => e.sourceTraceId).filter(Boolean));
          const clashes = parsed.rows.flatMap((r) => [
            ...(r.key && keys.has(r.key)
              ? [{ row: r.row, field: "key", message: `key "${r.key}" already exists in this version` }]
              : []),
            ...(r.sourceTraceId && traces.has(r.sourceTraceId)
              ? [
                  {
                    row: r.row,
                    field: "source_trace_id",
                    message: "this source_trace_id already exists in this version",
                  },
                ]
              : []),
          ]);
          if (clashes.length) throw evalErrors.importInvalid(clashes);
        }
        const taken = new Set(parsed.rows.map((r) => r.key).filter((k): k is string => !!k));
        const { keys: fresh, position } = await nextKeys(tx, v.id, parsed.rows.length + taken.size);
        const freeKeys = fresh.filter((k) => !taken.has(k));
        let next = 0;
        await tx.evalSample.createMany({
          data: parsed.rows.map((r, i) => ({
            setVersionId: v.id,
            key: r.key ?? freeKeys[next++]!,
            position: position + i + 1,
            ...sampleData(r),
          })),
        });
        return {
          imported: parsed.rows.length,
          mode: data.mode,
          version: versionOut(await resolveVersion(tx, setId, version)),
        };
      },
      { timeout: 60_000 },
    );
  } catch (e) {
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${version}`);
    throw e;
  }
}

export function sampleDoc(s: SampleOutT): SampleDoc {
  return {
    key: s.key,
    question: s.question,
    expected_points: s.expectedPoints,
    classification: s.classification,
    script: s.script,
    assertions: s.assertions,
    source_trace_id: s.sourceTraceId,
  };
}

export async function exportVersion(db: Db, setId: string, version: number, format: ImportFormatT) {
  const { version: v, items } = await listSamples(db, setId, version);
  const file = exportSamples(items.map(sampleDoc), format);
  return { ...file, filename: `eval-set-${setId}-v${v.version}.${file.extension}` };
}
