/**
 * Switching a set's judge compares the candidate with the current judge on the set's human-typed items first
 * (`calibration.ts`): when both have at least `MIN_CALIBRATION_ITEMS` items there and the candidate's kappa is more than
 * `MAX_JUDGE_DROP` below the current judge's, or its fail recall more than `MAX_JUDGE_DROP` lower, the switch is
 * refused (409 JUDGE_AGREEMENT_DROP with both judges' figures) unless it says `force: true` with a `reason`. Every
 * change of the set's judge is recorded (`EvalSetJudgeChange`: before, after, the figures, forced, the reason, who).
 *
 * `decideJudgeSwitch` is the one decision, used by the PATCH when the candidate already has suggestions there
 * (`set-judge.ts`) and by the comparison job once the candidate has judged them (`judge-comparison.ts`).
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { evalError, jsonOrDbNull } from "../errors";
import type { JudgeSwitchFigures, UpdateSetInput } from "../sets/schemas";
import { storeSet } from "../sets/sets";
import { defaultJudge, describeJudge, judgeKey, storedJudgeSpec } from "../suggestions/judge-agent";
import type { JudgeSpecT } from "../suggestions/schemas";
import { type CalibrationItem, type Figures, MIN_CALIBRATION_ITEMS, figuresOf, pairsFor } from "./calibration";
import { calibrationItems } from "./set-calibration";

export const MAX_JUDGE_DROP = 0.05;

type SwitchFigures = z.output<typeof JudgeSwitchFigures>;
type Tx = Db | Prisma.TransactionClient;

const side = (key: string, f: Figures) => ({
  key,
  n: f.n,
  pairs: f.pairs,
  kappa: f.kappa.value,
  failRecall: f.failRecall.value,
});
/**
 * Whether a figure dropped: by more than MAX_JUDGE_DROP; or to none at all (null) where the current judge has one and
 * the candidate has fewer pass/fail pairs, i.e. it answered `unknown` where the current judge decided (a judge that
 * answers only unknown has no kappa and no recall, and must not pass as "no drop").
 */
const dropped = (current: number | null, candidate: number | null, pairs: { current: number; candidate: number }) => {
  if (current === null) return false;
  if (candidate === null) return pairs.candidate < pairs.current;
  return Math.round((current - candidate) * 10000) / 10000 > MAX_JUDGE_DROP;
};

/** The decision's figures (pure): null when the candidate has no suggestions on the items. */
export function judgeSwitchFigures(currentKey: string, current: Figures, candidateKey: string, candidate: Figures) {
  if (candidate.n === 0) return null;
  const enough = current.n >= MIN_CALIBRATION_ITEMS && candidate.n >= MIN_CALIBRATION_ITEMS;
  const pairs = { current: current.pairs, candidate: candidate.pairs };
  const drops: SwitchFigures["drops"] = [];
  if (enough && dropped(current.kappa.value, candidate.kappa.value, pairs)) drops.push("kappa");
  if (enough && dropped(current.failRecall.value, candidate.failRecall.value, pairs)) drops.push("failRecall");
  return { current: side(currentKey, current), candidate: side(candidateKey, candidate), enough, drops };
}

/**
 * The 409 a refused switch answers (the comparison job records the same in its result), naming the judges by their
 * labels ("Rubric judge v2", "LLM judge (model)"; the keys are in the figures).
 */
export function agreementDrop(figures: SwitchFigures, labels: { current: string; candidate: string }) {
  const figure = (v: number | null) => (v === null ? "none" : String(v));
  return evalError(
    "JUDGE_AGREEMENT_DROP",
    `${labels.candidate} agrees less with people than ${labels.current} on this set's human-typed verdicts (${figures.drops
      .map(
        (d) =>
          `${d === "failRecall" ? "fail recall" : d} ${figure(figures.candidate[d])} vs ${figure(figures.current[d])}`,
      )
      .join(", ")}); send force: true with a reason to switch anyway`,
    [figures],
  );
}

/** What a switch asks: the candidate (null: the server's default), whether to force it and why. */
export type SwitchRequest = { judge: JudgeSpecT | null; force: boolean; reason: string | null };
type SetFields = Omit<z.output<typeof UpdateSetInput>, "judge" | "force" | "reason">;

/**
 * Decides a switch whose candidate was already checked (checkJudge): compares it with the set's current judge on the
 * human-typed items (`items` when the caller has read them), refuses a drop unless forced (throws the 409), else
 * stores the judge (with the request's other fields) and records the change. Returns the stored set and the figures.
 */
export async function decideJudgeSwitch(
  db: Tx,
  setId: string,
  req: SwitchRequest,
  opts: { byId: string | null; fields?: SetFields; items?: CalibrationItem[] } = { byId: null },
) {
  const set = await db.evalSet.findUnique({ where: { id: setId }, select: { judge: true } });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  const before = storedJudgeSpec(set.judge);
  const after = req.judge;
  const fields = opts.fields ?? {};
  if (JSON.stringify(before) === JSON.stringify(after))
    return { set: await storeSet(db, setId, { ...fields, judge: after }), figures: null };

  const currentKey = judgeKey(before ?? defaultJudge());
  const candidateKey = judgeKey(after ?? defaultJudge());
  let figures: SwitchFigures | null = null;
  if (currentKey !== candidateKey) {
    const items = opts.items ?? (await calibrationItems(db, setId)).items;
    figures = judgeSwitchFigures(
      currentKey,
      figuresOf(pairsFor(items, currentKey)),
      candidateKey,
      figuresOf(pairsFor(items, candidateKey)),
    );
    if (figures?.drops.length && !req.force) {
      const [current, candidate] = await Promise.all([
        describeJudge(db, before ?? defaultJudge()),
        describeJudge(db, after ?? defaultJudge()),
      ]);
      throw agreementDrop(figures, { current: current.label, candidate: candidate.label });
    }
  }
  const out = await storeSet(db, setId, { ...fields, judge: after });
  await db.evalSetJudgeChange.create({
    data: {
      setId,
      before: jsonOrDbNull(before),
      after: jsonOrDbNull(after),
      figures: jsonOrDbNull(figures),
      forced: Boolean(req.force && figures?.drops.length),
      reason: req.reason,
      byId: opts.byId,
    },
  });
  return { set: out, figures };
}
