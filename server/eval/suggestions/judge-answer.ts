import { JudgeAnswerSchema, type JudgeAnswer } from "../../workflow";
import type { JudgeResult, PointCoverage } from "./judge";
import type { JudgeRef } from "./schemas";

/**
 * Reading a judge agent's answer (its end node's output, JSON text of the judge contract's answer, see
 * server/workflow/judge.ts) into a judge result. Pure. Text around one JSON object is tolerated (a model that wraps
 * its JSON in a sentence or a code fence); anything that does not parse to the shape is `unknown` with the reason,
 * never a pass.
 */
export type ParsedJudgeAnswer = { ok: true; answer: JudgeAnswer } | { ok: false; reason: string };

export function parseJudgeAnswer(text: string | null | undefined): ParsedJudgeAnswer {
  const raw = (text ?? "").trim();
  if (!raw) return { ok: false, reason: "the judge agent's answer is empty" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    const start = raw.indexOf("{");
    const end = raw.lastIndexOf("}");
    if (start < 0 || end <= start)
      return { ok: false, reason: `the judge agent's answer is not JSON: ${JSON.stringify(raw.slice(0, 120))}` };
    try {
      parsed = JSON.parse(raw.slice(start, end + 1));
    } catch {
      return { ok: false, reason: `the judge agent's answer is not JSON: ${JSON.stringify(raw.slice(0, 120))}` };
    }
  }
  const checked = JudgeAnswerSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the answer";
    return {
      ok: false,
      reason: `the judge agent's answer is not a judge answer {verdict, rationale?, points?}: ${where}: ${issue?.message ?? "invalid"}`,
    };
  }
  return { ok: true, answer: checked.data };
}

const SCORE = { covered: 1, partial: 0.5, missing: 0 } as const;

/** A judge agent's answer as a judge result: its verdict as given, its points as coverage. */
export function judgeResultOfAnswer(answer: JudgeAnswer, ref: JudgeRef): JudgeResult {
  const coverage: PointCoverage[] = (answer.points ?? []).map((p) => ({
    point: p.point,
    status: p.status,
    score: SCORE[p.status],
    matched: [],
    missing: [],
  }));
  const rationale = answer.rationale?.trim() || `the judge agent says ${answer.verdict}`;
  return { judge: ref.key, verdict: answer.verdict, coverage, rationale: rationale.slice(0, 300), judgedBy: ref };
}

/** What a judge agent that could not give an answer suggests: unknown with the reason. */
export function unknownJudgeResult(ref: JudgeRef, reason: string, points: string[] = []): JudgeResult {
  return {
    judge: ref.key,
    verdict: "unknown",
    coverage: points.map((point) => ({ point, status: "unclear", score: 0, matched: [], missing: [] })),
    rationale: "the judge gave no verdict",
    judgedBy: ref,
    error: reason.slice(0, 300),
  };
}
