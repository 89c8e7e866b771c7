"use client";

import type { FindingT } from "./use-save-shadow";

/** The server's findings on a draft candidate: warnings once saved, errors when nothing was saved. */
export function FindingsList({ findings }: { findings: { saved: boolean; items: FindingT[] } | null }) {
  return (
    <>
      {findings && findings.items.length > 0 && (
        <div
          role={findings.saved ? "status" : "alert"}
          className={`mt-4 rounded-lg border px-3 py-2 text-sm ${findings.saved ? "border-amber-200 bg-amber-50" : "border-red-200 bg-red-50"}`}
        >
          <p className="font-medium text-slate-900">
            {findings.saved
              ? "Saved; the candidate has warnings:"
              : "The candidate workflow is not valid; nothing was saved:"}
          </p>
          <ul aria-label="Findings of the candidate" className="mt-1 space-y-0.5">
            {findings.items.map((f, i) => (
              <li key={i}>
                <span className={`font-mono text-xs ${f.severity === "error" ? "text-red-700" : "text-amber-800"}`}>
                  {f.code}
                </span>
                {f.nodeId ? <span className="font-mono text-xs text-slate-600"> {f.nodeId}</span> : null}: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
