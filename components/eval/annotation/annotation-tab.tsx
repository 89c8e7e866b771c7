"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Progress } from "@/components/ui/progress";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useEvalUrl, EvalLink } from "../context";
import { RunStatusBadge, TierBadge } from "../badges";
import { ago } from "../format";
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
      <Table caption="Runs to review">
        <THead>
          <tr>
            <Th>Run</Th>
            <Th>Set</Th>
            <Th>Status</Th>
            <Th className="min-w-56">Judged</Th>
            <Th>Created</Th>
          </tr>
        </THead>
        <tbody>
          {rows.map((r) => (
            <Tr key={r.id}>
              <Td>
                <EvalLink
                  to={{ tab: "annotation", run: r.shortId }}
                  className="font-mono font-semibold text-brand-700 hover:underline"
                >
                  {r.shortId}
                </EvalLink>
              </Td>
              <Td>
                {r.setName} v{r.setVersion} <TierBadge tier={r.tier} />
              </Td>
              <Td>
                <RunStatusBadge status={r.status} />
              </Td>
              <Td>
                <Progress
                  value={r.progress.judged}
                  max={r.progress.total}
                  label={`Questions of ${r.shortId} with a verdict`}
                />
              </Td>
              <Td className="text-slate-600">{ago(r.createdAt)}</Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
