"use client";

import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { deniedReason, useCaps } from "../context";
import { SampleCard } from "./board-card";
import { useBoardActions } from "./use-board-actions";
import { useLoopBoard } from "./use-loop-board";

const STAGES = [
  { id: "candidate", label: "In pool", hint: "added from a lead, not confirmed yet" },
  { id: "confirmed", label: "Confirmed", hint: "a person confirmed it belongs in the pool; expectations next" },
  { id: "expectations", label: "Expectations added", hint: "confirmed, with expected points: ready to freeze" },
  { id: "frozen", label: "Frozen", hint: "in a frozen version, not run yet" },
  { id: "in_run", label: "In a run", hint: "its latest run and verdict" },
  { id: "bad_case", label: "Bad Case", hint: "a fail being fixed, until a re-run passes it and it is verified" },
  { id: "verified", label: "Verified", hint: "its Bad Case was verified by a re-run" },
] as const;
const SHOWN = 30;

/**
 * The online loop as a board: a lead count leading in, then every online-sourced pool sample by stage, each card with
 * its source trace, its history and its next step (confirm, expectations inline, freeze, run, judge, Bad Case, verify).
 */
export function LoopBoard({
  agentId,
  newLeads,
  onReviewLeads,
}: {
  agentId: string;
  newLeads: number | null;
  onReviewLeads: () => void;
}) {
  const { board, cards } = useLoopBoard(agentId);
  const actions = useBoardActions(board.data?.drafts);
  const { caps, role } = useCaps();
  if (board.error) return <ErrorState error={board.error} onRetry={() => board.refetch()} />;
  if (!board.data) return <LoadingRows rows={2} label="Loading the board" />;
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  return (
    <section aria-labelledby="loop-board" className="space-y-2">
      <h2 id="loop-board" className="text-lg font-semibold text-slate-900">
        The online feedback loop
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">
        Low-scored and flagged answers become leads; a lead added to a regression pool is confirmed, given expectations,
        frozen and run at pipeline_live; its fails become Bad Cases, verified by a re-run on the fixed agent.
      </p>
      <p className="text-xs text-slate-500">
        Eight columns in one row: scroll sideways for the later stages; a long column scrolls inside itself.
      </p>
      {/* one row of fixed-width columns that scrolls sideways; each column is at most a screen tall and scrolls its cards */}
      <div
        role="region"
        aria-label="Board columns"
        tabIndex={0}
        className="flex items-start gap-3 overflow-x-auto pb-2"
      >
        <section
          aria-label={`Leads: ${newLeads ?? "…"} new`}
          className="w-64 shrink-0 rounded-xl bg-amber-50 p-2 ring-1 ring-amber-200"
        >
          <h3
            className="flex items-baseline justify-between px-1 text-sm font-semibold text-slate-800"
            title="New leads in the chosen time range (see the list below)"
          >
            Leads <span className="text-xs font-normal text-slate-600">{newLeads ?? "…"} new</span>
          </h3>
          <p className="mt-2 px-1 text-xs text-slate-700">
            Online answers scored low, flagged by the guardrail rules or judged fail or unknown by the online judge, not
            yet in a pool or dismissed.
          </p>
          <Button size="sm" variant="secondary" className="mt-2 w-full" onClick={onReviewLeads}>
            Review the new leads ↓
          </Button>
        </section>
        {STAGES.map((st) => {
          const col = cards.filter((c) => c.stage === st.id);
          const versions = [...new Map(col.map((c) => [`${c.setId}:${c.version}`, c])).values()];
          return (
            <section
              key={st.id}
              aria-label={`${st.label}: ${col.length}`}
              className="flex max-h-[calc(100dvh-5rem)] w-64 shrink-0 flex-col rounded-xl bg-slate-100 p-2"
            >
              <h3
                className="flex shrink-0 items-baseline justify-between px-1 text-sm font-semibold text-slate-800"
                title={st.hint}
              >
                {st.label} <span className="text-xs font-normal text-slate-600">{col.length}</span>
              </h3>
              {col.length === 0 && <p className="mt-2 px-1 text-xs text-slate-600">{st.hint}.</p>}
              {st.id === "expectations" &&
                versions.map((v) => (
                  <Button
                    key={`${v.setId}:${v.version}`}
                    size="sm"
                    variant="secondary"
                    className="mt-2 w-full shrink-0"
                    disabled={!caps.manage || actions.busy.freeze}
                    title={manageTitle ?? "Freezing makes the version immutable; samples without expectations block it"}
                    onClick={() => actions.freeze(v)}
                  >
                    Freeze {v.setName} v{v.version}
                  </Button>
                ))}
              {st.id === "frozen" &&
                versions.map((v) => (
                  <Button
                    key={`${v.setId}:${v.version}`}
                    size="sm"
                    className="mt-2 w-full shrink-0"
                    disabled={!caps.manage || actions.busy.run}
                    title={manageTitle ?? "An in-platform run at pipeline_live (real calls, like online)"}
                    onClick={() => actions.runAtLive(v)}
                  >
                    Run v{v.version} at pipeline_live
                  </Button>
                ))}
              <ul className="mt-2 min-h-0 flex-1 space-y-2 overflow-y-auto">
                {col.slice(0, SHOWN).map((c) => (
                  <SampleCard
                    key={`${c.setId}:${c.key}`}
                    card={c}
                    actions={actions}
                    manageTitle={manageTitle}
                    canManage={caps.manage}
                  />
                ))}
                {col.length > SHOWN && <li className="px-1 text-xs text-slate-600">and {col.length - SHOWN} more</li>}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}
