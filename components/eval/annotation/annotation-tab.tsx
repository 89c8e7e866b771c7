"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { useEvalUrl, EvalLink } from "../context";
import { RunsTable } from "../runs/runs-table";
import { QueueView } from "./queue-view";

/** Where annotators live: choose a run awaiting review, then judge its answers in the queue. */
export function AnnotationTab({ agentId }: { agentId: string }) {
  const [url] = useEvalUrl();
  return url.run ? <QueueView runId={url.run} /> : <RunPicker agentId={agentId} />;
}

function RunPicker({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.eval.runs.list.queryOptions({ agentId, limit: 100 }));
  const rows = (runs.data?.items ?? []).filter(
    (r) => r.status === "awaiting_review" || r.status === "answering" || r.status === "completed",
  );
  const waiting = rows.filter((r) => r.status !== "completed");
  if (runs.error) return <ErrorState error={runs.error} onRetry={() => runs.refetch()} />;
  if (runs.isLoading) return <LoadingRows rows={4} label="Loading runs to review" />;
  if (!rows.length)
    return (
      <EmptyState title="Nothing to judge yet">
        When a run has answers, it appears here. Create one under{" "}
        <EvalLink className="font-medium text-brand-700 underline" to={{ tab: "runs" }}>
          Runs
        </EvalLink>
        .
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {waiting.length
          ? `${waiting.length} run${waiting.length === 1 ? "" : "s"} waiting for verdicts.`
          : "Every run is judged."}{" "}
        Pick one to review its answers; the keyboard does most of the work (press ? inside).
      </p>
      <RunsTable caption="Runs to review" rows={rows} opens="annotation" />
    </div>
  );
}
