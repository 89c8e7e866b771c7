/**
 * Every operation of the evaluation center, declared once in its sub-folder's `operations.ts` (server/auth/operation.ts)
 * and listed here for the faces: REST (server/http/endpoints/eval) and tRPC (server/api/root.ts).
 */
import { type AnyOperation, defineOperation } from "../auth/operation";
import { evalVocabulary } from ".";
import * as online from "./online/operations";
import * as reports from "./reports/operations";
import * as runs from "./runs/operations";
import * as sets from "./sets/operations";
import * as shadow from "./shadow/operations";
import * as verdicts from "./verdicts/operations";
import { EvalVocabularyOut } from "./vocabulary";

export const evalMeta = defineOperation({
  id: "evalMeta",
  trpc: "eval.meta",
  kind: "query",
  permission: "eval.read",
  output: EvalVocabularyOut,
  run: async () => evalVocabulary(),
});

export * from "./online/operations";
export * from "./reports/operations";
export * from "./runs/operations";
export * from "./sets/operations";
export * from "./shadow/operations";
export * from "./verdicts/operations";

export const EVAL_OPERATIONS = [
  evalMeta,
  ...Object.values(sets),
  ...Object.values(runs),
  ...Object.values(verdicts),
  ...Object.values(reports),
  ...Object.values(online),
  ...Object.values(shadow),
] satisfies AnyOperation[];
