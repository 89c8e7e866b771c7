import type { z } from "zod";
import type { Db } from "../../db/client";
import { EVAL_LIMITS } from "../limits";
import { evalErrors } from "../errors";
import { parseAnswerRows } from "./answer-rows";
import { judgeStoredItem, suggest, suggestInputFor } from "../suggestions/judging";
import {
  checkJudge,
  defaultJudge,
  judgeKey,
  resolveJudge,
  storedJudgeSpec,
  type ResolvedJudge,
} from "../suggestions/judge-agent";
import type { JudgeSpecT } from "../suggestions/schemas";
import { getLlmProvider } from "../../runtime";
import { PastedAnswersInput, ResuggestInput } from "./schemas";
import { emitRunEvent, resolveRun, settleAnswering, type RunRow } from "./run-rows";
import { type RunDeps, getRun } from "./runs";
import { queueOf } from "./runs";

// ---------------------------------------------------------------- pasted answers and re-judging

type JudgeTarget = { id: string; runId: string };

/** The run's judge (as created; runs from before judges could be chosen: the server's default). */
function runJudgeSpec(run: RunRow): JudgeSpecT {
  return storedJudgeSpec(run.judge) ?? defaultJudge();
}

/** Whether a judge calls something slow (a model, a judge agent): then its judgings go through the queue. */
function judgesThroughQueue(spec: JudgeSpecT): boolean {
  return spec.type === "agent" || (spec.type === "llm" && !getLlmProvider().offline);
}

/**
 * Suggestions for items with a judge (default: the run's): inline with the built-in judge, through the queue when the
 * judge calls a model or is an agent (a judge job carries a judge other than the run's; its suggestions go to
 * otherSuggestions).
 */
async function judgeItems(db: Db, run: RunRow, targets: JudgeTarget[], deps: RunDeps, spec = runJudgeSpec(run)) {
  if (!targets.length) return;
  const other = judgeKey(spec) !== judgeKey(runJudgeSpec(run));
  if (judgesThroughQueue(spec)) {
    await (await queueOf(db, deps)).enqueue(
      targets.map((t) => ({ runId: t.runId, itemId: t.id, kind: "judge" as const, ...(other ? { judge: spec } : {}) })),
    );
    return;
  }
  const judge = await resolveJudge(db, spec);
  for (const t of targets)
    await judgeStoredItem(db, t.id, { tier: run.tier, setAssertions: run.setVersion.assertions }, null, {
      judge,
      as: other ? "other" : "own",
    });
}

/**
 * Pasted mode: answers matched by sample id (or key). Invalid rows reject the whole upload (400 IMPORT_INVALID);
 * rows that match no sample of the run are reported in `unmatched`; items that already have a verdict are not
 * overwritten (`skipped`). A row with `error` marks its item failed.
 */
export async function submitPastedAnswers(
  db: Db,
  idOrShort: string,
  input: z.input<typeof PastedAnswersInput>,
  deps: RunDeps = {},
) {
  const data = PastedAnswersInput.parse(input);
  const run = await resolveRun(db, idOrShort);
  if (run.mode !== "pasted")
    throw evalErrors.runMode(
      `Run ${run.shortId} answers in the platform; pasted answers need a run created with mode "pasted"`,
    );
  if (run.status !== "created" && run.status !== "answering")
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: it no longer takes answers`, run.status);
  if (data.content !== undefined && Buffer.byteLength(data.content, "utf8") > EVAL_LIMITS.maxImportBytes) {
    throw evalErrors.limit(
      `The upload is larger than ${EVAL_LIMITS.maxImportBytes} bytes`,
      "maxImportBytes",
      EVAL_LIMITS.maxImportBytes,
    );
  }
  const parsed = parseAnswerRows({ answers: data.answers, format: data.format, content: data.content });
  if (parsed.rows.length > EVAL_LIMITS.maxAnswersPerUpload) {
    throw evalErrors.limit(
      `At most ${EVAL_LIMITS.maxAnswersPerUpload} answers per upload`,
      "maxAnswersPerUpload",
      EVAL_LIMITS.maxAnswersPerUpload,
    );
  }
  if (parsed.errors.length) throw evalErrors.importInvalid(parsed.errors);
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: {
      id: true,
      verdict: true,
      sample: { select: { id: true, key: true, question: true, expectedPoints: true, assertions: true } },
    },
  });
  const itemById = new Map(items.map((i) => [i.id, i]));
  const bySample = new Map(items.map((i) => [i.sample.id, i]));
  const byKey = new Map(items.map((i) => [i.sample.key, i]));
  const unmatched: Array<{ row: number; sampleId?: string; key?: string; reason: string }> = [];
  const skipped: Array<{ row: number; sampleId: string; key: string; reason: string }> = [];
  const chosen = new Map<string, (typeof parsed.rows)[number]>();
  for (const r of parsed.rows) {
    const item = (r.sampleId ? bySample.get(r.sampleId) : undefined) ?? (r.key ? byKey.get(r.key) : undefined);
    if (!item) {
      unmatched.push({
        row: r.row,
        ...(r.sampleId ? { sampleId: r.sampleId } : {}),
        ...(r.key ? { key: r.key } : {}),
        reason: "no sample of this run has this id or key",
      });
      continue;
    }
    if (item.verdict) {
      skipped.push({
        row: r.row,
        sampleId: item.sample.id,
        key: item.sample.key,
        reason: "the item already has a verdict",
      });
      continue;
    }
    if (chosen.has(item.id))
      unmatched.push({
        row: r.row,
        sampleId: item.sample.id,
        key: item.sample.key,
        reason: "duplicate: a later row for the same sample wins",
      });
    chosen.set(item.id, r);
  }
  // with the built-in judge the suggestion is computed here and written with the answer; a model or agent judge is queued
  const spec = runJudgeSpec(run);
  const queued = judgesThroughQueue(spec);
  const inline: ResolvedJudge | null = queued ? null : await resolveJudge(db, spec);
  const rows: Array<{
    id: string;
    status: "answered" | "failed";
    answer: string;
    payload: unknown;
    traceId: string | null;
    latencyMs: number | null;
    error: string | null;
    suggestion: unknown;
  }> = [];
  for (const [itemId, r] of chosen) {
    const sample = itemById.get(itemId)!.sample;
    const suggestion = !inline
      ? null
      : (
          await suggest(
            suggestInputFor(
              sample,
              { tier: run.tier, setAssertions: run.setVersion.assertions },
              { answer: r.answer, payload: r.payload ?? null, failed: !!r.error, error: r.error ?? null },
            ),
            { judge: inline, db },
          )
        ).suggestion;
    rows.push({
      id: itemId,
      status: r.error ? "failed" : "answered",
      answer: r.answer,
      payload: r.payload ?? null,
      traceId: r.traceId ?? null,
      latencyMs: r.latencyMs ?? null,
      error: r.error ?? null,
      suggestion,
    });
  }
  const now = new Date();
  await db.$transaction(
    async (tx) => {
      if (run.status === "created")
        await tx.evalRun.updateMany({
          where: { id: run.id, status: "created" },
          data: { status: "answering", startedAt: now },
        });
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = JSON.stringify(rows.slice(i, i + 500));
        await tx.$executeRaw`
          UPDATE "EvalRunItem" AS i SET
            "status" = x."status"::"EvalItemStatus", "answer" = x."answer", "payload" = x."payload", "traceId" = x."traceId",
            "latencyMs" = x."latencyMs", "error" = x."error", "answeredAt" = ${now}::timestamp, "attempts" = i."attempts" + 1,
            "suggestion" = x."suggestion", "suggestedAt" = CASE WHEN x."suggestion" IS NULL THEN NULL ELSE ${now}::timestamp END
          FROM jsonb_to_recordset(${chunk}::jsonb) AS x("id" text, "status" text, "answer" text, "payload" jsonb, "traceId" text, "latencyMs" int, "error" text, "suggestion" jsonb)
          WHERE i."id" = x."id" AND i."runId" = ${run.id}`;
      }
    },
    { timeout: 120_000 },
  );
  if (queued)
    await judgeItems(
      db,
      run,
      [...chosen.keys()].map((id) => ({ id, runId: run.id })),
      deps,
    );
  await settleAnswering(db, run.id);
  return { matched: chosen.size, unmatched, skipped, run: await getRun(db, run.id) };
}

/**
 * Recomputes machine suggestions of every answered or failed item (e.g. after editing set assertions), with the run's
 * judge or, given `judge`, with another (checked like a set's judge; its suggestions are kept beside the run's own).
 */
export async function resuggestRun(
  db: Db,
  idOrShort: string,
  deps: RunDeps = {},
  input: z.input<typeof ResuggestInput> = {},
) {
  const data = ResuggestInput.parse(input ?? {});
  const run = await resolveRun(db, idOrShort);
  const spec = data.judge ?? runJudgeSpec(run);
  if (data.judge) await checkJudge(db, data.judge);
  const targets = await db.evalRunItem.findMany({
    where: { runId: run.id, status: { in: ["answered", "failed"] } },
    select: { id: true, runId: true },
  });
  await judgeItems(db, run, targets, deps, spec);
  const queued = judgesThroughQueue(spec);
  return {
    queued: queued ? targets.length : 0,
    judged: queued ? 0 : targets.length,
    judge: (await resolveJudge(db, spec)).ref,
    run: await getRun(db, run.id),
  };
}

/** The error recorded on items left without an answer when a pasted run's answering is closed. */
export const NOT_ANSWERED = "NOT_ANSWERED: answering was closed before an answer was pasted for this question";

/**
 * Pasted mode: stop waiting for answers. Every item still pending becomes `failed` with NOT_ANSWERED (judgeable: a
 * person gives it a verdict, normally fail; the built-in rules suggest fail), and the run moves on to awaiting_review.
 * The gate still needs a verdict for every question, so closing never makes a run pass by omission. A run that no
 * longer answers is refused (409 RUN_STATE_CONFLICT) and nothing changes.
 */
export async function closeAnswering(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  if (run.mode !== "pasted")
    throw evalErrors.runMode(
      `Run ${run.shortId} answers in the platform and closes itself when every item is answered; cancel it to stop`,
    );
  if (run.status !== "created" && run.status !== "answering")
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: answering is already closed`, run.status);
  const open = await db.evalRunItem.findMany({
    where: { runId: run.id, status: "pending" },
    orderBy: { position: "asc" },
    select: {
      id: true,
      sample: { select: { id: true, key: true, question: true, expectedPoints: true, assertions: true } },
    },
  });
  const rows: Array<{ id: string; suggestion: unknown }> = [];
  const judge = open.length ? await resolveJudge(db, runJudgeSpec(run)) : undefined;
  for (const i of open) {
    const { suggestion } = await suggest(
      suggestInputFor(
        i.sample,
        { tier: run.tier, setAssertions: run.setVersion.assertions },
        { answer: "", payload: null, failed: true, error: NOT_ANSWERED },
      ),
      { judge, db, provider: null },
    );
    rows.push({ id: i.id, suggestion });
  }
  const now = new Date();
  let settled = false;
  await db.$transaction(
    async (tx) => {
      const moved = await tx.evalRun.updateMany({
        where: { id: run.id, status: { in: ["created", "answering"] } },
        data: { status: "answering", startedAt: run.startedAt ?? now },
      });
      if (!moved.count) throw evalErrors.runState(`Run ${run.shortId} stopped answering meanwhile`, "changed");
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = JSON.stringify(rows.slice(i, i + 500));
        // only items still pending: an answer pasted at the same moment wins
        await tx.$executeRaw`
          UPDATE "EvalRunItem" AS i SET "status" = 'failed', "error" = ${NOT_ANSWERED}, "answeredAt" = ${now}::timestamp,
            "suggestion" = x."suggestion", "suggestedAt" = ${now}::timestamp
          FROM jsonb_to_recordset(${chunk}::jsonb) AS x("id" text, "suggestion" jsonb)
          WHERE i."id" = x."id" AND i."runId" = ${run.id} AND i."status" = 'pending'`;
      }
      settled = await settleAnswering(tx, run.id);
    },
    { timeout: 120_000 },
  );
  if (settled) emitRunEvent(db, "run.answered", run.id); // after the commit
  return {
    unanswered: open.map((i) => ({ itemId: i.id, sampleId: i.sample.id, key: i.sample.key })),
    run: await getRun(db, run.id),
  };
}
