/**
 * `PATCH /api/eval/sets/{id}`: a set's fields, and with `judge` the switch of its judge. The judge is checked once
 * (checkJudge), then:
 * - the same judge as stored: written as is, nothing recorded;
 * - the candidate has suggestions on some of the set's human-typed items (or there are none): decided at once
 *   (`decideJudgeSwitch`: 200 with the set, or 409 JUDGE_AGREEMENT_DROP);
 * - it has none there: the built-in judge judges them here and the switch is decided at once; an LLM or agent judge
 *   judges them through the queue, and the answer is 202 with the comparison job (`judge-comparison.ts`) that decides
 *   when they are judged. The request's other fields are written at once either way.
 * Any judge request decided here ends the set's running comparisons for other candidates (superseded).
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { errors } from "../../core/errors";
import { type Principal, actorRef } from "../../auth/service";
import type { RunDeps } from "../runs/runs";
import { UpdateSetInput } from "../sets/schemas";
import { storeSet } from "../sets/sets";
import { checkJudge, storedJudgeSpec } from "../suggestions/judge-agent";
import { itemsToJudge, judgeInline, jobOut, startComparison, supersedeComparisons } from "./judge-comparison";
import { decideJudgeSwitch } from "./judge-switch";
import { calibrationItems } from "./set-calibration";

export async function updateSetJudged(
  db: Db,
  id: string,
  input: z.input<typeof UpdateSetInput>,
  principal?: Principal,
  deps: RunDeps = {},
) {
  const { judge, force, reason, ...fields } = UpdateSetInput.parse(input);
  if (judge === undefined) return storeSet(db, id, fields);
  if (force && !reason)
    throw errors.badRequest(
      "REQUEST_INVALID",
      "force: true needs a reason (it is recorded in the set's judge history)",
    );
  const set = await db.evalSet.findUnique({ where: { id }, select: { judge: true } });
  if (!set) throw errors.notFound(`Evaluation set ${id}`);
  if (judge) await checkJudge(db, judge);
  const req = { judge, force: Boolean(force), reason: reason ?? null };
  const byId = actorRef(principal);

  let { items } = await calibrationItems(db, id);
  const missing = itemsToJudge(items, judge);
  const same = JSON.stringify(storedJudgeSpec(set.judge)) === JSON.stringify(judge);
  if (items.length > 0 && missing.length === items.length && !same) {
    if (judge?.type === "builtin") {
      await judgeInline(db, missing, judge);
      items = (await calibrationItems(db, id)).items;
    } else {
      const running = await supersedeComparisons(db, id, judge);
      if (Object.keys(fields).length) await storeSet(db, id, fields);
      if (running) return { job: jobOut(running) };
      return { job: await startComparison(db, id, req, missing, byId, deps) };
    }
  }
  const { set: out } = await decideJudgeSwitch(db, id, req, { byId, fields, items });
  await supersedeComparisons(db, id);
  return out;
}
