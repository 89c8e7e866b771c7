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

/**
 * Own suggestions, one array per item in the set's order: [itemId, runId, sample key, scenario, attribution, human
 * verdict, suggested verdict, judgedBy.key (when a string), judge, judgedBy has a type and a label].
 */
type OwnRow = [
  string,
  string,
  string,
  string | null,
  string | null,
  Binary,
  unknown,
  string | null,
  string | null,
  boolean,
];
/** Other judges' suggestions, one array per (item, judge key), runs in order: [itemId, key, verdict, labelled]. */
type OtherRow = [string, string, unknown, boolean];

/** The spec a calibration query's `judge` names (`builtin`, `llm`, `agent:<agentId>@<version>`; the schema checked it). */
export function judgeSpecOfKey(key: string): JudgeSpecT {
  if (key === "builtin" || key === "llm") return { type: key };
  const m = /^agent:(.+)@(\d+)$/.exec(key);
  if (!m) throw errors.badRequest("REQUEST_INVALID", `judge must be builtin, llm or agent:<agentId>@<version>`);
  return { type: "agent", agentId: m[1]!, version: Number(m[2]) };
}

/** The key of a stored suggestion's judge: its `judgedBy.key`; suggestions stored before judges were recorded: by `judge`. */
function keyOf(judgedByKey: string | null, judge: string | null): string | null {
  if (judgedByKey !== null) return judgedByKey;
  if (!judge) return null;
  if (judge === "builtin-coverage") return "builtin";
  if (judge.startsWith("llm")) return "llm";
  if (judge.startsWith("agent:")) return judge;
  return null;
}

/** jsonb's own key order (shorter first, then by bytes), which the suggestions of an item were read in before. */
const jsonbOrder = (a: string, b: string) =>
  Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));

const verdict3 = (v: unknown): Verdict3 | null => (v === "pass" || v === "fail" || v === "unknown" ? v : null);

/**
 * The set's human-typed items with every judge's suggestion, and the judges' refs as their suggestions recorded them
 * (the first labelled `judgedBy` of each key, runs in order). Two reads, each answered as ONE JSON text (a row per
 * item as an array, aggregated in SQL): the driver's per-cell cost was most of the time with a row per item (10,000
 * items: 290-350 ms of a 370 ms read, the SQL itself 88 ms); the labelled `judgedBy` objects are then read for the one
 * item per judge key that holds one.
 */
export async function calibrationItems(db: Db | Prisma.TransactionClient, setId: string) {
  const [ownText, otherText] = await Promise.all([
    db.$queryRaw<Array<{ rows: string | null }>>`
      SELECT json_agg(json_build_array(i."id", i."runId", s."key", s."classification", i."attribution",
        i."verdict"::text, i."suggestion"->>'verdict',
        CASE WHEN jsonb_typeof(i."suggestion"->'judgedBy'->'key') = 'string' THEN i."suggestion"->'judgedBy'->>'key' END,
        i."suggestion"->>'judge',
        COALESCE(jsonb_typeof(i."suggestion"->'judgedBy'->'label') = 'string'
          AND jsonb_typeof(i."suggestion"->'judgedBy'->'type') = 'string', false))
        ORDER BY r."createdAt", r."id", s."position")::text AS "rows"
      FROM "EvalRunItem" i
      JOIN "EvalRun" r ON r."id" = i."runId"
      JOIN "EvalSetVersion" v ON v."id" = r."setVersionId"
      JOIN "EvalSample" s ON s."id" = i."sampleId"
      WHERE v."setId" = ${setId} AND i."verdict" IS NOT NULL
        AND (i."verdictSource" IS NULL OR i."verdictSource" <> 'adopted')`,
    db.$queryRaw<Array<{ rows: string | null }>>`
      SELECT json_agg(json_build_array(i."id", o.k, o.v->'verdict',
        COALESCE(jsonb_typeof(o.v->'judgedBy'->'label') = 'string' AND jsonb_typeof(o.v->'judgedBy'->'type') = 'string',
          false))
        ORDER BY r."createdAt", r."id")::text AS "rows"
      FROM "EvalRunItem" i
      JOIN "EvalRun" r ON r."id" = i."runId"
      JOIN "EvalSetVersion" v ON v."id" = r."setVersionId"
      CROSS JOIN LATERAL jsonb_each(
        CASE WHEN jsonb_typeof(i."otherSuggestions") = 'object' THEN i."otherSuggestions" ELSE '{}'::jsonb END
      ) AS o(k, v)
      WHERE v."setId" = ${setId} AND i."verdict" IS NOT NULL
        AND (i."verdictSource" IS NULL OR i."verdictSource" <> 'adopted')`,
  ]);
  const own = JSON.parse(ownText[0]?.rows ?? "[]") as OwnRow[];
  const others = JSON.parse(otherText[0]?.rows ?? "[]") as OtherRow[];

  const othersOf = new Map<string, OtherRow[]>();
  for (const o of others) {
    const list = othersOf.get(o[0]);
    if (list) list.push(o);
    else othersOf.set(o[0], [o]);
  }
  // where each key's ref is read from: the first labelled suggestion of that key, items in order, own before others
  const refAt = new Map<string, { itemId: string; own: boolean }>();
  const items: CalibrationItem[] = own.map(
    ([itemId, runId, key, scenario, attribution, human, sv, svKey, svJudge, labelled]) => {
      const suggestions: Record<string, Verdict3> = {};
      const v = verdict3(sv);
      const ownKey = keyOf(svKey, svJudge);
      if (v && ownKey) {
        suggestions[ownKey] = v;
        if (labelled && !refAt.has(ownKey)) refAt.set(ownKey, { itemId, own: true });
      }
      for (const [, k, verdict, otherLabelled] of (othersOf.get(itemId) ?? []).sort((a, b) => jsonbOrder(a[1], b[1]))) {
        const ov = verdict3(verdict);
        if (!ov) continue;
        suggestions[k] = ov;
        if (otherLabelled && !refAt.has(k)) refAt.set(k, { itemId, own: false });
      }
      return { itemId, runId, key, scenario: scenario ?? "", attribution, human, suggestions };
    },
  );

  const refs = new Map<string, JudgeRef>();
  if (refAt.size) {
    const held = await db.evalRunItem.findMany({
      where: { id: { in: [...new Set([...refAt.values()].map((r) => r.itemId))] } },
      select: { id: true, suggestion: true, otherSuggestions: true },
    });
    const byId = new Map(held.map((h) => [h.id, h]));
    for (const [k, at] of refAt) {
      const h = byId.get(at.itemId);
      const holder = (at.own ? h?.suggestion : (h?.otherSuggestions as Record<string, unknown> | null)?.[k]) as
        | { judgedBy?: Partial<JudgeRef> }
        | null
        | undefined;
      const j = holder?.judgedBy;
      if (j && typeof j.label === "string" && typeof j.type === "string") refs.set(k, { ...(j as JudgeRef), key: k });
    }
  }
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
