"use client";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/feedback";
import { Kbd } from "@/components/ui/kbd";
import { Progress } from "@/components/ui/progress";
import { EvalLink } from "../context";
import type { useQueue } from "./use-queue";
import type { useJudging } from "./use-verdict";

/**
 * The run's review progress above the queue, as the server counts it: judged of total, by people, adopted,
 * spot-checks left, still answering; the Undo of one's last verdict; and, when nothing is left in the list, the way
 * to the report and the gate.
 */
export function ReviewSummary({
  counts: c,
  run,
  judging,
  canUndo,
  onUndo: undo,
  spot,
  loading,
}: {
  counts: { judged: number; total: number; human: number; adopted: number; spotCheckLeft: number };
  run: ReturnType<typeof useQueue>["run"];
  judging: Pick<ReturnType<typeof useJudging>, "last" | "undoing" | "noneLeft">;
  canUndo: boolean;
  onUndo: () => void;
  spot: boolean;
  loading: boolean;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <Progress className="w-64" value={c.judged} max={c.total} label="Questions with a verdict" />
        <span>
          <strong className="tabular-nums">{c.human}</strong> by people
        </span>
        <span>
          <strong className="tabular-nums">{c.adopted}</strong> adopted
        </span>
        <span className={c.spotCheckLeft ? "text-amber-800" : "text-slate-600"}>
          <strong className="tabular-nums">{c.spotCheckLeft}</strong> spot-check{c.spotCheckLeft === 1 ? "" : "s"} left
        </span>
        {run?.status === "answering" && (
          <span className="inline-flex items-center gap-2 text-slate-600">
            <Spinner label="Still answering" className="h-3.5 w-3.5" /> still answering: {run.progress.done}/
            {run.progress.total}
          </span>
        )}
        {judging.last && (
          <Button
            size="sm"
            variant="secondary"
            className="ml-auto"
            disabled={!canUndo || judging.undoing}
            title="Takes back your last verdict of this session; the history keeps both"
            onClick={undo}
          >
            Undo your {judging.last.verdict} on <span className="font-mono">{judging.last.key}</span> <Kbd>U</Kbd>
          </Button>
        )}
      </div>
      {(judging.noneLeft || (spot && c.spotCheckLeft === 0 && c.total > 0)) && !loading && (
        <div
          role="status"
          className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-950"
        >
          <span>
            {spot
              ? "Nothing is left to spot-check: every spot-check item has a verdict a person typed."
              : "Nothing is left in this list: every listed item has a verdict."}
          </span>
          {run && (
            <EvalLink
              to={{ tab: "runs", run: run.shortId }}
              className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800"
            >
              Open the report and the gate
            </EvalLink>
          )}
        </div>
      )}
    </div>
  );
}
