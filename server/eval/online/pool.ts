/** The regression pool: an online trace becomes a sample of a regression-pool set; a person confirms the candidate. */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { type Principal, actorRef } from "../../auth/service";
import { ApiError, errors } from "../../core/errors";
import { evalErrors, isFrozenViolation, isUniqueViolation } from "../errors";
import { compactName } from "../suggestions/guardrails";
import { EVAL_LIMITS } from "../limits";
import { CreateVersionInput } from "../sets/schemas";
import { createVersionTx, sampleOut, sampleSelect } from "../sets/sets";
import { conversationsBefore, onlineTrace, userMessage, versionWorkflow } from "./traces";
import { PoolAddInput } from "./schemas";
import type { Turn } from "../sets/schemas";

export async function addTraceToPool(
  db: Db,
  setId: string,
  input: z.input<typeof PoolAddInput>,
  actor: Principal | null,
) {
  const data = PoolAddInput.parse(input);
  const set = await db.evalSet.findUnique({
    where: { id: setId },
    select: { id: true, name: true, kind: true, agentId: true },
  });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  if (set.kind !== "regression_pool") throw evalErrors.notPool(set.name, set.kind);
  const trace = await onlineTrace(db, data.traceId);
  if (trace.agentId !== set.agentId) throw evalErrors.traceOtherAgent();
  const workflow = await versionWorkflow(db, trace.workflowVersionId);
  const message = userMessage(trace.input, workflow);
  const conversation =
    (await conversationsBefore(db, [{ id: trace.id, sessionId: trace.sessionId, workflow }], set.agentId)).get(
      trace.id,
    ) ?? [];

  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        // one add at a time per set: the duplicate check and the new draft below cannot race
        await tx.$queryRaw`SELECT "id" FROM "EvalSet" WHERE "id" = ${setId} FOR UPDATE`;
        const existing = await tx.evalSample.findFirst({
          where: { sourceTraceId: trace.id, setVersion: { setId } },
          orderBy: { setVersion: { version: "desc" } },
          select: { ...sampleSelect, setVersion: { select: { version: true } } },
        });
        if (existing) {
          const { setVersion, ...sample } = existing;
          return { duplicate: true, version: setVersion.version, sample: sampleOut(sample), likelyDuplicateOf: null };
        }
        // the latest version is frozen (or there is none): a new draft copied from it, under the same lock, so
        // concurrent adds after a freeze make one draft
        const latest = await tx.evalSetVersion.findFirst({
          where: { setId },
          orderBy: { version: "desc" },
          select: { id: true, version: true, status: true },
        });
        const draft =
          latest && latest.status === "draft"
            ? latest
            : await createVersionTx(
                tx,
                setId,
                CreateVersionInput.parse({ note: "regression pool: new online samples" }),
                actor,
              );
        const count = await tx.evalSample.count({ where: { setVersionId: draft.id } });
        if (count >= EVAL_LIMITS.maxSamplesPerVersion) {
          throw evalErrors.limit(
            `A version holds at most ${EVAL_LIMITS.maxSamplesPerVersion} samples`,
            "maxSamplesPerVersion",
            EVAL_LIMITS.maxSamplesPerVersion,
          );
        }
        const question = (data.question ?? message).slice(0, EVAL_LIMITS.maxQuestionChars);
        const others = await tx.evalSample.findMany({
          where: { setVersionId: draft.id },
          select: { key: true, question: true, position: true },
        });
        const norm = compactName(question);
        const likely = others.find((o) => compactName(o.question) === norm);
        const position = others.reduce((m, o) => Math.max(m, o.position), 0) + 1;
        const key = uniqueKey(`t-${trace.id.slice(-8)}`, new Set(others.map((o) => o.key)));
        const script: Turn[] | null = conversation.length
          ? [...conversation, { role: "user", content: question, preset: false }]
          : null;
        const row = await tx.evalSample.create({
          data: {
            setVersionId: draft.id,
            key,
            position,
            question,
            expectedPoints: data.expectedPoints ?? [],
            classification: data.classification ?? "",
            ...(script ? { script } : {}),
            sourceTraceId: trace.id,
            referenceAnswer: trace.answer,
            addedById: actorRef(actor),
          },
          select: sampleSelect,
        });
        return {
          duplicate: false,
          version: draft.version,
          sample: sampleOut(row),
          likelyDuplicateOf: likely ? likely.key : null,
        };
      });
    } catch (e) {
      // a version created elsewhere at the same moment (POST .../versions) took the number: try again
      if (!(isUniqueViolation(e) && attempt < 3)) throw e;
    }
  }
}

/**
 * A person confirms that an online-sourced candidate belongs in the pool (the board's "Confirm"). Confirming is a
 * property of the sample's trace in the pool: `confirmedAt` and `confirmedById` are written on every draft sample of
 * the set with that trace (there may be more than one draft) and new drafts copy it (`createVersionTx`). Regression-pool
 * drafts only (a golden set: 409 SET_NOT_REGRESSION_POOL; a frozen version: 409 SET_VERSION_FROZEN). Idempotent: the
 * first confirmation is kept.
 */
export async function confirmSample(db: Db, sampleId: string, actor: Principal | null) {
  const found = await poolSample(db, sampleId);
  if (found.sample.confirmedAt) return sampleOut(found.sample);
  return writeConfirmation(db, found, { confirmedAt: new Date(), confirmedById: actorRef(actor) });
}

/**
 * Takes a confirmation back (the sample is a candidate again), on every draft of the set with the trace. Once a frozen
 * version holds the trace it is in the pool for good (confirmed, or taken in by that freeze): 409 SET_VERSION_FROZEN
 * (remove the sample from the draft instead).
 */
export async function unconfirmSample(db: Db, sampleId: string) {
  const found = await poolSample(db, sampleId);
  const { sample, setId } = found;
  const frozenIn = sample.sourceTraceId
    ? await db.evalSample.findFirst({
        where: { sourceTraceId: sample.sourceTraceId, setVersion: { setId, status: "frozen" } },
        orderBy: { setVersion: { version: "asc" } },
        select: { setVersion: { select: { version: true } } },
      })
    : null;
  if (frozenIn) {
    throw new ApiError(
      409,
      "SET_VERSION_FROZEN",
      `${sample.key} is in frozen version ${frozenIn.setVersion.version} of the pool, so it stays in the pool: remove it from this draft instead of taking the confirmation back`,
    );
  }
  if (!sample.confirmedAt) return sampleOut(sample);
  return writeConfirmation(db, found, { confirmedAt: null, confirmedById: null });
}

async function poolSample(db: Db, sampleId: string) {
  const s = await db.evalSample.findUnique({
    where: { id: sampleId },
    select: {
      ...sampleSelect,
      setVersion: {
        select: { version: true, status: true, setId: true, set: { select: { name: true, kind: true } } },
      },
    },
  });
  if (!s) throw errors.notFound(`Sample ${sampleId}`);
  if (s.setVersion.set.kind !== "regression_pool")
    throw evalErrors.notPool(s.setVersion.set.name, s.setVersion.set.kind);
  if (s.setVersion.status === "frozen") throw evalErrors.frozen(`Version ${s.setVersion.version}`);
  const { setVersion, ...sample } = s;
  return { sample, versionNo: setVersion.version, setId: setVersion.setId };
}

/** The sample and every other draft sample of its set with the same trace (one confirmation per trace in the pool). */
async function writeConfirmation(
  db: Db,
  { sample, versionNo, setId }: Awaited<ReturnType<typeof poolSample>>,
  data: { confirmedAt: Date | null; confirmedById: string | null },
) {
  try {
    await db.evalSample.updateMany({
      where: sample.sourceTraceId
        ? {
            OR: [
              { id: sample.id },
              {
                sourceTraceId: sample.sourceTraceId,
                setVersion: { setId, status: "draft" },
                confirmedAt: data.confirmedAt ? null : { not: null },
              },
            ],
          }
        : { id: sample.id },
      data,
    });
    return sampleOut(await db.evalSample.findUniqueOrThrow({ where: { id: sample.id }, select: sampleSelect }));
  } catch (e) {
    if (isFrozenViolation(e)) throw evalErrors.frozen(`Version ${versionNo}`); // frozen meanwhile
    throw e;
  }
}

function uniqueKey(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}
