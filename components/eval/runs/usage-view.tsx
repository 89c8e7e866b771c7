"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { Card, Stat } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { FilterField, FilterSelect, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useEvalUrl } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { DailyBars } from "../charts";
import { costNote, costText, count } from "../format";
import { usageRange } from "../url-state";

const iso = (d: Date) => d.toISOString().slice(0, 10);

type DayTotals = { day: string; runs: number; answered: number; answerTokens: number; judgeTokens: number };

/**
 * Usage of the evaluation center by day: runs, answered questions, model calls and tokens (answering and judging
 * apart), charted and in a table. The range and the scope (this agent or all) are in the URL.
 */
export function UsageView({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const { from, to, allAgents } = usageRange(url);
  const usage = useQuery({
    ...trpc.eval.usage.queryOptions({ from, to, ...(allAgents ? {} : { agentId }) }),
    placeholderData: keepPreviousData,
  });
  const u = usage.data;
  const byDay = new Map<string, DayTotals>();
  const empty = (day: string): DayTotals => ({ day, runs: 0, answered: 0, answerTokens: 0, judgeTokens: 0 });
  for (const d of u?.days ?? []) {
    const x = byDay.get(d.day) ?? empty(d.day);
    x.runs += d.runs;
    x.answered += d.answeredItems;
    x.answerTokens += d.answering.tokens;
    x.judgeTokens += d.judging.tokens;
    byDay.set(d.day, x);
  }
  // every day of the range, so quiet days show as zero instead of vanishing
  const series: DayTotals[] = [];
  if (u)
    for (let d = Date.parse(`${u.from}T00:00:00Z`); d <= Date.parse(`${u.to}T00:00:00Z`); d += 86_400_000)
      series.push(byDay.get(iso(new Date(d))) ?? empty(iso(new Date(d))));
  const active = series.some((d) => d.runs || d.answered || d.answerTokens || d.judgeTokens);
  const tokens = series.some((d) => d.answerTokens || d.judgeTokens);
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: "Usage" }]} />
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Range">
        <FilterField label="From">
          <input
            type="date"
            className={cn(inputClass, "mt-1")}
            value={from}
            max={to}
            onChange={(e) => e.target.value && go({ from: e.target.value, to }, { replace: true })}
          />
        </FilterField>
        <FilterField label="To">
          <input
            type="date"
            className={cn(inputClass, "mt-1")}
            value={to}
            min={from}
            onChange={(e) => e.target.value && go({ from, to: e.target.value }, { replace: true })}
          />
        </FilterField>
        <FilterSelect
          label="Agents"
          value={allAgents ? "all" : "agent"}
          onChange={(v) => go({ scope: v === "all" ? "all" : undefined }, { replace: true })}
          options={[
            { value: "agent", label: agentName },
            { value: "all", label: "All agents" },
          ]}
        />
      </div>
      {usage.error ? (
        <ErrorState error={usage.error} onRetry={() => usage.refetch()} />
      ) : !u ? (
        <LoadingRows rows={4} label="Loading usage" />
      ) : (
        <>
          <Card title={`${u.from} to ${u.to}`}>
            <dl className="grid gap-6 sm:grid-cols-2 lg:grid-cols-6">
              <Stat label="Runs" value={count(u.totals.runs)} />
              <Stat label="Answered questions" value={count(u.totals.answeredItems)} />
              <Stat label="Model calls (answering)" value={count(u.totals.answering.modelCalls)} />
              <Stat
                label="Tokens (answering)"
                value={count(u.totals.answering.tokens)}
                hint={`${count(u.totals.answering.promptTokens)} prompt · ${count(u.totals.answering.completionTokens)} completion`}
              />
              <Stat
                label="Tokens (judging)"
                value={count(u.totals.judging.tokens)}
                hint={`${count(u.totals.judging.modelCalls)} judge calls`}
              />
              <Stat
                label="Cost"
                value={costText(u.totals.cost, "total")}
                hint={
                  costNote(u.totals.cost) ||
                  `answering ${costText(u.totals.cost, "answering")} · judging ${costText(u.totals.cost, "judging")}`
                }
              />
            </dl>
          </Card>
          {!active ? (
            <EmptyState title="Nothing in this range">Runs and answered questions appear here by day.</EmptyState>
          ) : (
            <>
              <div className="grid gap-5 xl:grid-cols-2">
                <Card title="Runs and answers by day">
                  <DailyBars
                    label="Runs and answered questions by day"
                    data={series}
                    series={[
                      { key: "runs", name: "Runs", tone: "neutral" },
                      { key: "answered", name: "Answered questions", tone: "human" },
                    ]}
                  />
                </Card>
                <Card
                  title="Tokens by day"
                  description="Answering (the agent's model calls) and judging (the LLM judge), apart"
                >
                  {tokens ? (
                    <DailyBars
                      label="Answering and judging tokens by day"
                      compact
                      data={series}
                      series={[
                        { key: "answerTokens", name: "Answering tokens", tone: "human" },
                        { key: "judgeTokens", name: "Judging tokens", tone: "warn" },
                      ]}
                    />
                  ) : (
                    <p className="text-sm text-slate-500">
                      No model tokens in this range (the offline model and the built-in judge count none).
                    </p>
                  )}
                </Card>
              </div>
              <Table caption="Usage by day and agent">
                <THead>
                  <tr>
                    <Th>Day</Th>
                    <Th>Agent</Th>
                    <Th className="text-right">Runs</Th>
                    <Th className="text-right">Answered</Th>
                    <Th className="text-right">Model calls</Th>
                    <Th className="text-right">Tokens</Th>
                    <Th className="text-right">Judge tokens</Th>
                    <Th className="text-right">Cost</Th>
                  </tr>
                </THead>
                <tbody>
                  {[...(u.days ?? [])].reverse().map((d) => (
                    <Tr key={`${d.day}-${d.agentId}`}>
                      <Td className="tabular-nums">{d.day}</Td>
                      <Td>{d.agentName ?? d.agentId}</Td>
                      <Td className="text-right tabular-nums">{count(d.runs)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answeredItems)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answering.modelCalls)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answering.tokens)}</Td>
                      <Td className="text-right tabular-nums">{count(d.judging.tokens)}</Td>
                      <Td className="text-right tabular-nums">{costText(d.cost, "total")}</Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            </>
          )}
        </>
      )}
    </div>
  );
}
