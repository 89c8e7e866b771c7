import { EvalLink } from "../context";
import { pct, pctRange } from "../format";
import type { EvalReport } from "../types";

/**
 * The audit of adopted passes in the run report, as the server counts it (server/eval/reports/gate.ts `auditOf`): the
 * line ("audit of adopted passes: 5 of 5 checked, 1 overturned", or "no audit" at rate 0), the estimated false-pass
 * rate of the adopted passes with its 95 % Wilson interval, and the lists to work: the audit items (on the spot-check
 * list) and, when the audit overturned more than the set allows, the rest of the adopted passes to review.
 */
export function AuditSummary({ audit, runId }: { audit: EvalReport["audit"]; runId: string }) {
  if (!audit) return null;
  const noAudit = audit.rate <= 0;
  const left = audit.sampled - audit.checked;
  const overturned = audit.overturned > audit.maxOverturn;
  // overturned, but every adopted pass has since been reviewed by a person: the audit no longer holds the gate
  // (GATE_AUDIT_OVERTURNED ends there), so the card is no longer red
  const blocking = overturned && audit.adoptedPassesLeft > 0;
  const state = noAudit ? "none" : blocking ? "overturned" : left ? "open" : overturned ? "reviewed" : "done";
  const tone = {
    none: "border-slate-200 bg-white text-slate-800",
    overturned: "border-red-200 bg-red-50 text-red-950",
    open: "border-violet-200 bg-violet-50 text-violet-950",
    reviewed: "border-emerald-200 bg-emerald-50 text-emerald-950",
    done: "border-emerald-200 bg-emerald-50 text-emerald-950",
  }[state];
  return (
    <section
      aria-label="Audit of adopted passes"
      data-audit={state}
      className={`rounded-xl border px-4 py-3 text-sm ${tone}`}
    >
      <p className="font-semibold first-letter:uppercase">{audit.line}</p>
      {noAudit ? (
        <p className="mt-0.5 opacity-90">
          The set&apos;s audit rate is 0: adopted passes are not sampled for a person to check.
        </p>
      ) : (
        <>
          <p className="mt-0.5 tabular-nums">
            {audit.falsePassRate === null ? (
              "Estimated false-pass rate of the adopted passes: not yet (no audit item checked)."
            ) : (
              <>
                Estimated false-pass rate of the adopted passes: <strong>{pct(audit.falsePassRate)}</strong> (95 %
                interval {pctRange(audit.interval)}, n {audit.checked})
              </>
            )}
            {" · "}
            {pct(audit.rate)} of each adoption&apos;s passes drawn, at least 3;{" "}
            {audit.maxOverturn === 0 ? "any overturn fails the gate" : `up to ${audit.maxOverturn} overturned allowed`}
          </p>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            {left > 0 && (
              <EvalLink className="font-medium underline" to={{ tab: "annotation", run: runId, spot: "1" }}>
                Check the {left} audit item{left === 1 ? "" : "s"} left
              </EvalLink>
            )}
            {overturned && audit.adoptedPassesLeft > 0 && (
              <EvalLink
                className="font-medium underline"
                to={{ tab: "annotation", run: runId, verdict: "pass", source: "adopted" }}
              >
                Review the rest of the adopted passes ({audit.adoptedPassesLeft})
              </EvalLink>
            )}
            {overturned && audit.adoptedPassesLeft === 0 && (
              <span>Every adopted pass has been reviewed by a person: the verdicts decide the gate.</span>
            )}
          </p>
        </>
      )}
    </section>
  );
}
