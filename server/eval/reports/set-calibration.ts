/**
 * A set's judge calibration (`GET /api/eval/sets/{id}/calibration?judge=`): every item of the set's runs with a
 * human-typed verdict (adopted verdicts left out), each judge's suggestion on it (the run's own `suggestion` and
 * `otherSuggestions`, keyed by judge), computed by `calibration.ts`. One query; the JSON is cut down in SQL to the
 * verdicts and judges, so the suggestions' coverage never leaves the database.
 */
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { BUILTIN_JUDGE, llmJudgeRef } from "../suggestions/judge";
import { defaultJudge, describeJudge, judgeKey, storedJudgeSpec } from "../suggestions/judge-agent";
import type { JudgeRef, JudgeSpecT } from "../suggestions/schemas";
import { type Binary, type CalibrationItem, type Verdict3, calibrate } from "./calibration";

type Row = {
  itemId: string;
  runId: string;
  key: string;
  scenario: string;
  attribution: string | null;
  verdict: Binary;
  sv: string | null;
  svBy: { key?: unknown } | null;
  svJudge: string | null;
  others: Record<string, { verdict?: unknown; judgedBy?: { key?: unknown } | null }> | null;
};

/** The spec a calibration query's `judge` names (`builtin`, `llm`, `agent:<agentId>@<version>`; the schema checked it). */
export function judgeSpecOfKey(key: string): JudgeSpecT {
  if (key === "builtin" || key === "llm") return { type: key };
  const m = /^agent:(.+)@(\d+)$/.exec(key);
  if (!m) throw errors.badRequest("REQUEST_INVALID", `judge must be builtin, llm or agent:<agentId>@<version>`);
  return { type: "agent", agentId: m[1]!, version: Number(m[2]) };
}

/** The key of a stored suggestion's judge: its `judgedBy.key`; suggestions stored before judges were recorded: by `judge`. */
function keyOf(judgedBy: { key?: unknown } | null | undefined, judge: string | null): string | null {
  if (judgedBy && typeof judgedBy.key === "string") return judgedBy.key;
  if (!judge) return null;
  if (judge === "builtin-coverage") return "builtin";
  if (judge.startsWith("llm")) return "llm";
  if (judge.startsWith("agent:")) return judge;
  return null;
}

const verdict3 = (v: unknown): Verdict3 | null => (v === "pass" || v === "fail" || v === "unknown" ? v : null);

/** The set's human-typed items with every judge's suggestion, and the judges' refs as their suggestions recorded them. */
export async function calibrationItems(db: Db | Prisma.TransactionClient, setId: string) {
  const rows = await db.$queryRaw<Row[]>`
    SELECT i."id" AS "itemId", i."runId", s."key", s."classification" AS "scenario", i."attribution",
      i."verdict"::text AS "verdict",
      i."suggestion"->>'verdict' AS "sv", i."suggestion"->'judgedBy' AS "svBy", i."suggestion"->>'judge' AS "svJudge",
      CASE WHEN jsonb_typeof(i."otherSuggestions") = 'object' THEN (
        SELECT jsonb_object_agg(o.k, jsonb_build_object('verdict', o.v->'verdict', 'judgedBy', o.v->'judgedBy'))
        FROM jsonb_each(i."otherSuggestions") AS o(k, v)
      ) END AS "others"
    FROM "EvalRunItem" i
    JOIN "EvalRun" r ON r."id" = i."runId"
    JOIN "EvalSetVersion" v ON v."id" = r."setVersionId"
    JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE v."setId" = ${setId} AND i."verdict" IS NOT NULL
      AND (i."verdictSource" IS NULL OR i."verdictSource" <> 'adopted')
    ORDER BY r."createdAt", r."id", s."position"`;

  const refs = new Map<string, JudgeRef>();
  const remember = (k: string, judgedBy: unknown) => {
    if (refs.has(k)) return;
    const j = judgedBy as Partial<JudgeRef> | null;
    if (j && typeof j.label === "string" && typeof j.type === "string") refs.set(k, { ...(j as JudgeRef), key: k });
  };
  const items: CalibrationItem[] = rows.map((r) => {
    const suggestions: Record<string, Verdict3> = {};
    const own = verdict3(r.sv);
    const ownKey = keyOf(r.svBy, r.svJudge);
    if (own && ownKey) {
      suggestions[ownKey] = own;
      remember(ownKey, r.svBy);
    }
    for (const [k, s] of Object.entries(r.others ?? {})) {
      const v = verdict3(s?.verdict);
      if (!v) continue;
      suggestions[k] = v;
      remember(k, s?.judgedBy);
    }
    return {
      itemId: r.itemId,
      runId: r.runId,
      key: r.key,
      scenario: r.scenario,
      attribution: r.attribution,
      human: r.verdict,
      suggestions,
    };
  });

  return { items, refs };
}

export async function setCalibration(db: Db, setId: string, query: { judge?: string }) {
  const set = await db.evalSet.findUnique({ where: { id: setId }, select: { id: true, name: true, judge: true } });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  const currentSpec = storedJudgeSpec(set.judge) ?? defaultJudge();
  const spec = query.judge ? judgeSpecOfKey(query.judge) : currentSpec;
  const key = judgeKey(spec);
  const { items, refs } = await calibrationItems(db, setId);

  const currentKey = judgeKey(currentSpec);
  const result = calibrate(items, key, [key, currentKey]);
  const refOf = async (k: string): Promise<JudgeRef> => {
    if (k === key) return refs.get(k) ?? (await describeJudge(db, spec));
    if (refs.has(k)) return refs.get(k)!;
    if (k === "builtin") return BUILTIN_JUDGE;
    if (k === "llm") return llmJudgeRef();
    if (/^agent:.+@\d+$/.test(k)) return describeJudge(db, judgeSpecOfKey(k));
    return { type: "builtin", key: k, label: k };
  };
  const { judges, ...figures } = result;
  return {
    set: { id: set.id, name: set.name },
    judge: await refOf(key),
    currentJudge: currentKey,
    ...figures,
    judges: await Promise.all(judges.map(async ({ key: k, ...f }) => ({ judge: await refOf(k), ...f }))),
  };
}
