"use client";

import { memo, useState } from "react";
import { Badge, badgeClass } from "@/components/ui/badge";
import { ICONS, Icon } from "@/components/ui/icon";
import { LiveRegion } from "@/components/ui/live-region";
import type { IndexedFindings, LocatedFinding } from "../model/findings";

function SeverityIcon({ severity }: { severity: "error" | "warning" }) {
  return severity === "error" ? (
    <span
      className="grid h-4 w-4 shrink-0 place-items-center rounded-full bg-red-500 text-[10px] font-bold text-white"
      aria-label="Error"
      role="img"
    >
      !
    </span>
  ) : (
    <span
      className="grid h-4 w-4 shrink-0 place-items-center rounded-full bg-amber-400 text-[10px] font-bold text-amber-950"
      aria-label="Warning"
      role="img"
    >
      !
    </span>
  );
}

function IssuesPanelImpl({
  findings,
  open,
  onToggle,
  onPick,
  pending,
  error,
}: {
  findings: IndexedFindings;
  open: boolean;
  onToggle: () => void;
  onPick: (f: LocatedFinding) => void;
  pending: boolean;
  error: string | null;
}) {
  const [filter, setFilter] = useState<"all" | "error" | "warning">("all");
  const list = findings.all.filter((f) => filter === "all" || f.severity === filter);
  return (
    <section
      aria-label="Issues"
      data-testid="issues-panel"
      className="flex shrink-0 flex-col border-t border-slate-200 bg-white"
    >
      <div className="flex h-10 items-center gap-3 px-4">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          className="flex items-center gap-2 text-[13px] font-semibold text-slate-800"
        >
          <Icon
            d={ICONS.chevronDown}
            strokeWidth={2.6}
            className={`h-3.5 w-3.5 text-slate-500 transition-transform ${open ? "rotate-0" : "-rotate-90"}`}
          />
          Issues
        </button>
        <div className="flex items-center gap-1.5 text-xs" role="group" aria-label="Filter issues">
          {(
            [
              ["all", `All ${findings.all.length}`],
              ["error", `Errors ${findings.errors}`],
              ["warning", `Warnings ${findings.warnings}`],
            ] as const
          ).map(([key, label]) => (
            <button
              key={key}
              type="button"
              aria-pressed={filter === key}
              onClick={() => setFilter(key)}
              className={`rounded-full px-2.5 py-0.5 font-medium transition ${filter === key ? "bg-slate-900 text-white" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {label}
            </button>
          ))}
        </div>
        <LiveRegion className="ml-auto text-xs text-slate-500">
          {error ? (
            <span className="text-red-600">Validation unavailable: {error}</span>
          ) : pending ? (
            "Checking…"
          ) : (
            "Checked by the server on every edit"
          )}
        </LiveRegion>
      </div>
      {open && (
        <div className="max-h-48 min-h-16 overflow-y-auto border-t border-slate-100">
          {list.length === 0 ? (
            <p className="px-4 py-5 text-center text-sm text-slate-500">
              {findings.all.length === 0 ? "No issues. The workflow is valid." : "Nothing in this filter."}
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {list.map((f) => (
                <li key={f.key}>
                  <button
                    type="button"
                    onClick={() => onPick(f)}
                    className="flex w-full items-start gap-2.5 px-4 py-2 text-left text-[13px] hover:bg-slate-50 focus-visible:bg-slate-50"
                    data-testid="issue-row"
                  >
                    <SeverityIcon severity={f.severity} />
                    <code
                      className={`shrink-0 ${badgeClass({ tone: f.severity === "error" ? "danger" : "warning", size: "sm", square: true })}`}
                    >
                      {f.code}
                    </code>
                    <span className="min-w-0 flex-1 text-slate-700">{f.message}</span>
                    {f.node && (
                      <Badge size="sm" square className="shrink-0 font-mono">
                        {f.node}
                      </Badge>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

export const IssuesPanel = memo(IssuesPanelImpl);
