import type { EvalReport } from "../types";

/**
 * The release gate as the server decided it with THE gate rule (server/eval/reports/gate.ts): the same answer as
 * check_eval_golden_gate. PASS (green), FAIL (red: decided) or PENDING (neutral: still answering, questions without a
 * verdict, spot-checks left, audit items left; with what is missing), in words and colour, with every reason and how
 * the passes were made. The audit of adopted passes has its own line beside it (audit-summary.tsx).
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
  const status = gate.status;
  const look = {
    pass: { box: "border-emerald-300 bg-emerald-50 text-emerald-950", icon: "✓", word: "PASS" },
    fail: { box: "border-red-300 bg-red-50 text-red-950", icon: "✕", word: "FAIL" },
    // not decided yet: neutral, never a red FAIL on a run that is still answering or being judged
    pending: { box: "border-slate-300 bg-slate-50 text-slate-900", icon: "◷", word: "PENDING" },
  }[status];
  return (
    <section aria-label="Release gate" data-gate={status} className={`rounded-xl border px-4 py-3 ${look.box}`}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <p className="text-base font-semibold">
          <span aria-hidden="true">{look.icon} </span>
          Release gate: {look.word}
          {status === "pending" && <span className="font-normal"> (not decided yet)</span>}
        </p>
        <p className="text-sm tabular-nums">
          {c.pass} of {c.questions} human-confirmed passes: {c.passTyped} typed, {c.passAdopted} adopted · threshold{" "}
          {c.threshold}
          {currentThreshold !== undefined && currentThreshold !== c.threshold
            ? ` (fixed when the run was created; the set asks ${currentThreshold} of later runs)`
            : ""}
          {c.unjudged ? ` · ${c.unjudged} without a verdict` : " · every question judged"}
          {c.spotChecksLeft ? ` · ${c.spotChecksLeft} spot-check${c.spotChecksLeft === 1 ? "" : "s"} left` : ""}
        </p>
      </div>
      {status === "pending" && (
        <p className="mt-2 text-sm">
          <span className="font-medium">Waiting for:</span> {gate.missing.join("; ")}.
        </p>
      )}
      {status !== "pass" && (
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm">
          {gate.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs opacity-80">
        Machine suggestions never count: only verdicts people typed or adopted, and a spot-check item counts once a
        person has typed its verdict. The gate CLI `check_eval_golden_gate` reads the same rule (exit 0 only for PASS).
      </p>
    </section>
  );
}
