"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { EvalLink } from "../context";
import { pct, pctRange, when, words } from "../format";
import { TrendChart, type TrendLine } from "../trend-chart";

/**
 * The set's human-confirmed pass rate over time (`eval.sets.trend`): a line per set version and tier with each run's
 * 95 % interval as an error bar, and the same numbers in a table under it (run, date, agent version, rate, interval,
 * n), so nothing is only in the picture.
 */
export function SetTrend({ setId }: { setId: string }) {
  const trpc = useTRPC();
  const trend = useQuery(trpc.eval.sets.trend.queryOptions({ id: setId }));
  const t = trend.data;
  const lines: TrendLine[] = (t?.series ?? []).map((s) => ({
    key: `v${s.setVersion}-${s.tier}`,
    name: `v${s.setVersion} · ${words(s.tier)}`,
    points: s.points,
  }));
  const all = (t?.series ?? [])
    .flatMap((s) => s.points.map((p) => ({ ...p, setVersion: s.setVersion, tier: s.tier })))
    .sort((x, y) => x.createdAt.localeCompare(y.createdAt));
  const judged = all.filter((p) => p.rate !== null);
  return (
    <Card
      title="Pass rate over time"
      description="Human-confirmed passes over the judged questions of each run, with the 95 % Wilson interval; one line per set version and tier."
    >
      {trend.error ? (
        <ErrorState error={trend.error} onRetry={() => trend.refetch()} />
      ) : !t ? (
        <LoadingRows rows={3} label="Loading the trend" />
      ) : judged.length === 0 ? (
        <EmptyState title={all.length ? "No verdicts yet" : "No runs yet"}>
          {all.length
            ? "Once people judge a run's answers, its pass rate appears here."
            : "Run a frozen version of this set; each run becomes a point here."}
        </EmptyState>
      ) : (
        <div className="space-y-3">
          <TrendChart
            lines={lines}
            order={all.map((p) => p.shortId)}
            label={`Human-confirmed pass rate of ${t.set.name} by run, oldest first: ${judged
              .map((p) => `${p.shortId} ${pct(p.rate)}`)
              .join(", ")}`}
          />
          <Table caption="Pass rate by run" maxHeight="18rem">
            <THead sticky>
              <tr>
                <Th>Run</Th>
                <Th>Created</Th>
                <Th>Version · tier</Th>
                <Th>Agent</Th>
                <Th className="text-right">Pass rate</Th>
                <Th>95 % interval</Th>
                <Th className="text-right">n</Th>
              </tr>
            </THead>
            <tbody>
              {all.map((p) => (
                <Tr key={p.runId}>
                  <Td className="whitespace-nowrap">
                    <EvalLink
                      to={{ tab: "runs", run: p.shortId }}
                      className="font-mono font-semibold text-brand-700 hover:underline"
                    >
                      {p.shortId}
                    </EvalLink>
                  </Td>
                  <Td className="whitespace-nowrap text-slate-600">{when(p.createdAt)}</Td>
                  <Td className="whitespace-nowrap">
                    v{p.setVersion} · {words(p.tier)}
                  </Td>
                  <Td>v{p.workflowVersion}</Td>
                  {p.rate === null ? (
                    <Td colSpan={2} className="text-slate-600">
                      no verdicts yet
                    </Td>
                  ) : (
                    <>
                      <Td className="text-right font-medium tabular-nums">{pct(p.rate)}</Td>
                      <Td className="tabular-nums text-slate-700">{pctRange(p.interval)}</Td>
                    </>
                  )}
                  <Td className="whitespace-nowrap text-right tabular-nums">
                    {p.n} / {p.questions}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}
