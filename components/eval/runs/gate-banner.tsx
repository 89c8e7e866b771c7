import type { EvalReport } from "../types";

/**
 * The release gate as the server decided it with THE gate rule (server/eval/reports/gate.ts): the same answer as
 * check_eval_golden_gate. Pass/fail in words and colour, with every reason.
 */
export function GateBanner({
  gate,
  kind,
  currentThreshold,
}: {
  gate: EvalReport["gate"];
  kind: "golden" | "regression_pool";
  currentThreshold?: number;
}) {
  const c = gate.counts;
  if (kind === "regression_pool") {
    return (
      <section
        aria-label="Release gate"
        className="rounded-xl border border-violet-200 bg-violet-50 px-4 py-3 text-sm text-violet-950"
      >
        <p className="font-semibold">Regression pool run: never gates a release</p>
        <p className="mt-0.5 text-violet-900">
          Track B finds regressions; only a golden-set run at pipeline live can pass the release gate. Human-confirmed
          passes here: {c.pass} of {c.questions}.
        </p>
      </section>
    );
  }
  const passed = gate.passed;
  return (
    <section
      aria-label="Release gate"
      data-gate={gate.status}
      className={`rounded-xl border px-4 py-3 ${passed ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-red-300 bg-red-50 text-red-950"}`}
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <p className="text-base font-semibold">
          <span aria-hidden="true">{passed ? "✓ " : "✕ "}</span>
          Release gate: {passed ? "PASS" : "FAIL"}
        </p>
        <p className="text-sm tabular-nums">
          {c.pass} of {c.questions} human-confirmed passes · threshold {c.threshold}
          {currentThreshold !== undefined && currentThreshold !== c.threshold
            ? ` (fixed when the run was created; the set asks ${currentThreshold} of later runs)`
            : ""}
          {c.unjudged ? ` · ${c.unjudged} without a verdict` : " · every question judged"}
        </p>
      </div>
      {!passed && (
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm">
          {gate.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs opacity-80">
        Machine suggestions never count: only verdicts people typed or adopted. The gate CLI `check_eval_golden_gate`
        reads the same rule.
      </p>
    </section>
  );
}
