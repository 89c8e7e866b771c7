/**
 * Switching a set's judge (`PATCH /api/eval/sets/{id}` with `judge`) compares the candidate with the current judge on
 * the set's human-typed items first (`calibration.ts`): when both have at least `MIN_CALIBRATION_ITEMS` items there and
 * the candidate's kappa is more than `MAX_JUDGE_DROP` below the current judge's, or its fail recall more than
 * `MAX_JUDGE_DROP` lower, the switch is refused (409 JUDGE_AGREEMENT_DROP with both judges' figures) unless the request
 * says `force: true` with a `reason`. A candidate without suggestions there is not compared (the comparison job that
 * would fill them is not built: re-judge a run with it first, `POST /api/eval/runs/{id}/suggest`). Every change of the
 * set's judge is recorded (`EvalSetJudgeChange`: before, after, the figures, forced, the reason, who).
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { errors } from "../../core/errors";
import { type Principal, actorRef } from "../../auth/service";
import { evalError, jsonOrDbNull } from "../errors";
import { type JudgeSwitchFigures, UpdateSetInput } from "../sets/schemas";
import { updateSet } from "../sets/sets";
import { checkJudge, defaultJudge, judgeKey, storedJudgeSpec } from "../suggestions/judge-agent";
import { type Figures, MIN_CALIBRATION_ITEMS, figuresOf, pairsFor } from "./calibration";
import { calibrationItems } from "./set-calibration";

export const MAX_JUDGE_DROP = 0.05;

type SwitchFigures = z.output<typeof JudgeSwitchFigures>;

const side = (key: string, f: Figures) => ({
  key,
  n: f.n,
  pairs: f.pairs,
  kappa: f.kappa.value,
  failRecall: f.failRecall.value,
});
const dropped = (current: number | null, candidate: number | null) =>
  current !== null && candidate !== null && Math.round((current - candidate) * 10000) / 10000 > MAX_JUDGE_DROP;

/** The decision's figures (pure): null when the candidate has no suggestions on the items. */
export function judgeSwitchFigures(currentKey: string, current: Figures, candidateKey: string, candidate: Figures) {
  if (candidate.n === 0) return null;
  const enough = current.n >= MIN_CALIBRATION_ITEMS && candidate.n >= MIN_CALIBRATION_ITEMS;
  const drops: SwitchFigures["drops"] = [];
  if (enough && dropped(current.kappa.value, candidate.kappa.value)) drops.push("kappa");
  if (enough && dropped(current.failRecall.value, candidate.failRecall.value)) drops.push("failRecall");
  return { current: side(currentKey, current), candidate: side(candidateKey, candidate), enough, drops };
}

export async function updateSetJudged(
  db: Db,
  id: string,
  input: z.input<typeof UpdateSetInput>,
  principal?: Principal,
) {
  const body = UpdateSetInput.parse(input);
  if (body.judge === undefined) return updateSet(db, id, body);
  if (body.force && !body.reason)
    throw errors.badRequest(
      "REQUEST_INVALID",
      "force: true needs a reason (it is recorded in the set's judge history)",
    );
  const set = await db.evalSet.findUnique({ where: { id }, select: { judge: true } });
  if (!set) throw errors.notFound(`Evaluation set ${id}`);
  if (body.judge) await checkJudge(db, body.judge);
  const before = storedJudgeSpec(set.judge);
  const after = body.judge;
  if (JSON.stringify(before) === JSON.stringify(after)) return updateSet(db, id, body);

  const currentKey = judgeKey(before ?? defaultJudge());
  const candidateKey = judgeKey(after ?? defaultJudge());
  let figures: SwitchFigures | null = null;
  if (currentKey !== candidateKey) {
    const { items } = await calibrationItems(db, id);
    figures = judgeSwitchFigures(
      currentKey,
      figuresOf(pairsFor(items, currentKey)),
      candidateKey,
      figuresOf(pairsFor(items, candidateKey)),
    );
    if (figures?.drops.length && !body.force)
      throw evalError(
        "JUDGE_AGREEMENT_DROP",
        `${candidateKey} agrees less with people than ${currentKey} on this set's human-typed verdicts (${figures.drops
          .map((d) => `${d} ${figures!.candidate[d]} vs ${figures!.current[d]}`)
          .join(", ")}); send force: true with a reason to switch anyway`,
        [figures],
      );
  }
  const out = await updateSet(db, id, body);
  await db.evalSetJudgeChange.create({
    data: {
      setId: id,
      before: jsonOrDbNull(before),
      after: jsonOrDbNull(after),
      figures: jsonOrDbNull(figures),
      forced: Boolean(body.force && figures?.drops.length),
      reason: body.reason ?? null,
      byId: actorRef(principal),
    },
  });
  return out;
}
