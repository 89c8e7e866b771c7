/** Limits of the evaluation center (documented in /docs and server/eval/README.md). */
export const EVAL_LIMITS = {
  /** samples in one set version */
  maxSamplesPerVersion: 10_000,
  maxKeyChars: 64,
  maxQuestionChars: 4000,
  maxPointsPerSample: 20,
  maxPointChars: 500,
  maxClassificationChars: 120,
  maxScriptTurns: 20,
  maxTurnChars: 4000,
  maxAssertionsPerSample: 20,
  maxRegexChars: 500,
  /** the import file itself (the `content` string), in UTF-8 bytes */
  maxImportBytes: 5 * 1024 * 1024,
  /** request body of the import and pasted-answers endpoints (the file travels JSON-escaped) */
  maxUploadBodyBytes: 12 * 1024 * 1024,
  maxAnswerChars: 50_000,
  maxAnswersPerUpload: 10_000,
  /** items of one run answered at once (in total, across every app instance on the database) */
  maxConcurrency: 32,
  /** answers per question of an in-platform run (repeats; consistency) */
  maxRepeats: 5,
  /** a worker's lease on the item it answers, renewed every third of it; an instance that stops renewing is
   * taken as dead and its items go to another instance within about this time */
  workerLeaseSeconds: 30,
  /** one judge agent's judging of one answer (its workflow run): beyond it the suggestion is unknown (timed out) */
  judgeAgentTimeoutMs: 60_000,
  maxEnvironmentChars: 120,
  maxBasisChars: 4000,
} as const;
