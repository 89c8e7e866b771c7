/** A version's samples: list, add, read, update, delete, import and export. */
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { EVAL_LIMITS } from "../limits";
import { evalErrors, isFrozenViolation, isUniqueViolation, jsonOrDbNull } from "../errors";
import { exportSamples, importTooLarge, parseSampleFile, type SampleDoc } from "./io";
import type { ImportFormatT } from "./records";
import { ImportInput, ListSamplesQuery, SampleInput, SamplePatch, type SampleInputT } from "./schemas";
import { type SampleOutT, type Tx, assertDraft, resolveVersion, sampleOut, sampleSelect, versionOut } from "./sets";

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
