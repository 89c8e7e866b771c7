/**
 * `check_eval_wave_c_size` (pure rule). The sample agent's gate is "at least 26 of 30" (spec 8): this check makes
 * sure the gate set is the set that rule assumes. A set version passes when:
 *   - it is frozen and belongs to a golden set;
 *   - it has exactly `questions` samples (default 30);
 *   - at least `minScript` of them (default 2) are multi-turn script questions (a script with 2 or more turns);
 *   - every sample has at least one expected point;
 *   - the set's gate threshold is at least `threshold` (default 26) and not more than the questions.
 */
export type WaveCInput = {
  setName: string;
  setKind: string;
  version: number;
  status: string;
  gateThreshold: number;
  samples: Array<{ key: string; expectedPoints: unknown; script: unknown }>;
};
export type WaveCOptions = { questions: number; minScript: number; threshold: number };
export const WAVE_C_DEFAULTS: WaveCOptions = { questions: 30, minScript: 2, threshold: 26 };

export function checkWaveCSize(input: WaveCInput, opts: WaveCOptions = WAVE_C_DEFAULTS) {
  const problems: string[] = [];
  const scripted = input.samples.filter((s) => Array.isArray(s.script) && s.script.length >= 2).map((s) => s.key);
  const noPoints = input.samples
    .filter((s) => !Array.isArray(s.expectedPoints) || s.expectedPoints.length === 0)
    .map((s) => s.key);
  if (input.setKind !== "golden") problems.push(`the set is ${input.setKind}, not golden`);
  if (input.status !== "frozen") problems.push(`version ${input.version} is ${input.status}, not frozen`);
  if (input.samples.length !== opts.questions)
    problems.push(`${input.samples.length} questions, the gate assumes ${opts.questions}`);
  if (scripted.length < opts.minScript)
    problems.push(`${scripted.length} multi-turn script questions, at least ${opts.minScript} required`);
  if (noPoints.length)
    problems.push(`${noPoints.length} questions without expected points: ${noPoints.slice(0, 10).join(", ")}`);
  if (input.gateThreshold < opts.threshold)
    problems.push(`gate threshold ${input.gateThreshold}, the sample gate requires ${opts.threshold}`);
  if (input.gateThreshold > input.samples.length)
    problems.push(`gate threshold ${input.gateThreshold} exceeds the ${input.samples.length} questions`);
  return {
    passed: problems.length === 0,
    problems,
    counts: {
      questions: input.samples.length,
      scripted: scripted.length,
      withoutPoints: noPoints.length,
      threshold: input.gateThreshold,
    },
    summary:
      problems.length === 0
        ? `PASS ${input.setName} v${input.version}: ${input.samples.length} questions, ${scripted.length} multi-turn, all with expected points, threshold ${input.gateThreshold}`
        : `FAIL ${input.setName} v${input.version}: ${problems.join("; ")}`,
  };
}
