import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

/** Shapes of the eval router's answers, for the pages (types only: the data comes through tRPC). */
type Out = inferRouterOutputs<AppRouter>["eval"];
export type In = inferRouterInputs<AppRouter>["eval"];
export type EvalSet = Out["sets"]["list"]["items"][number];
export type EvalSetDetail = Out["sets"]["get"];
export type EvalVersion = EvalSetDetail["versions"][number];
export type EvalSample = Out["samples"]["list"]["items"][number];
export type EvalRun = Out["runs"]["get"];
export type RunRow = Out["runs"]["list"]["items"][number];
export type EvalReport = Out["runs"]["report"];
/** The two-run comparison (run_a + run_b) and the many-run grid (run repeated): one procedure, two forms. */
export type EvalCompare = Extract<Out["runs"]["compare"], { runA: unknown }>;
export type EvalCompareMany = Extract<Out["runs"]["compare"], { runs: unknown }>;
export type QueueRow = Out["items"]["queue"]["items"][number];
export type QueueCounts = Out["items"]["queue"]["counts"];
export type EvalItem = Out["items"]["get"];
export type BadCase = Out["badCases"]["list"]["items"][number];
export type BadCaseDetail = Out["badCases"]["get"];
export type Vocabulary = Out["meta"];
export type Usage = Out["usage"];

/** The one error vocabulary (stable code, message, details) out of a tRPC error. */
export function errorInfo(e: unknown): { code: string; message: string; details: unknown[] } {
  const err = e as { message?: string; data?: { appCode?: string; details?: unknown[] } } | null;
  return { code: err?.data?.appCode ?? "ERROR", message: err?.message ?? String(e), details: err?.data?.details ?? [] };
}
export type Lead = Out["online"]["leads"]["items"][number];
export type LeadCounts = Out["online"]["leadCounts"];
export type BoardCard = Out["online"]["board"]["cards"][number];
export type OnlineJudging = Out["online"]["judging"]["get"];
export type AlertRule = Out["online"]["alertRules"]["list"]["items"][number];
